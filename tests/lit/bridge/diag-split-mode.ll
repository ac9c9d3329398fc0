; Split reverse mode (__enzyme_augmentfwd / __enzyme_reverse /
; __enzyme_augmentsize): malformed calls get a diagnostic each, naming the
; function and the call, and no output is written. The well-formed pair at
; the end is lowered to calls of the augmented and reverse halves.
; RUN: split-file %s %t
; RUN: not %autodiff-opt %t/bad.ll -o %t/out.ll 2>&1 | FileCheck %s
; RUN: not test -e %t/out.ll
; RUN: %autodiff-opt %t/good.ll --no-postopt -S -o - | FileCheck %s --check-prefix=GOOD
; CHECK-DAG: in function `no_tape`, call to `__enzyme_reverse`: __enzyme_reverse of `v` is missing the tape (the last operand: the value __enzyme_augmentfwd returned)
; CHECK-DAG: in function `no_dret`, call to `__enzyme_reverse`: __enzyme_reverse of `sq` is missing the differential return (after the arguments, before the tape)
; CHECK-DAG: in function `small`, call to `__enzyme_augmentfwd_d`: enzyme_allocated gives 4 bytes, fewer than the tape needs (15; __enzyme_augmentsize gives it)
; CHECK-DAG: in function `tape_alone`, call to `__enzyme_augmentfwd_d`: enzyme_tape needs enzyme_allocated, SIZE before it (the buffer's size, from __enzyme_augmentsize)
; CHECK-DAG: in function `bad_result`, call to `__enzyme_augmentfwd_f`: the call expects `float`, but __enzyme_augmentfwd of `sq` gives the tape (a pointer) or {tape, primal result}
; CHECK-DAG: in function `size_values`, call to `__enzyme_augmentsize`: __enzyme_augmentsize takes the function and its activity markers only (enzyme_dup, enzyme_const, ...); found `ptr %p`
; CHECK-DAG: in function `outside`, call to `__enzyme_autodiff`: `enzyme_tape` is only valid with __enzyme_augmentfwd / __enzyme_reverse
; GOOD-LABEL: define void @split(
; GOOD: %[[AUG:.*]] = call ptr @augmented_v(ptr %p, ptr %dp)
; GOOD: call void @reversee_v(ptr %p, ptr %dp, ptr %[[AUG]])
; GOOD-LABEL: define i64 @size(
; The tape of `v` in the caller's buffer: its 8 bytes, and room to align
; them (the buffer's own alignment is not known).
; GOOD: ret i64 15
; The tape in the caller's buffer: neither half allocates or frees it.
; GOOD-LABEL: define void @in_buffer(
; GOOD: call ptr @augmented_inbuffer_v(ptr %p, ptr %dp, ptr %buf)
; GOOD: call void @reversee_inbuffer_v(ptr %p, ptr %dp, ptr %buf)
; GOOD-LABEL: define internal ptr @augmented_inbuffer_v(ptr %p, ptr %"p'", ptr %tape.buffer)
; GOOD-NOT: malloc
; GOOD: %tape = getelementptr i8, ptr %tape.buffer
; GOOD: store double %x, ptr
; GOOD-LABEL: define internal void @reversee_inbuffer_v(ptr %p, ptr %"p'", ptr %tape.buffer)
; GOOD-NOT: free
; GOOD: %tape = getelementptr i8, ptr %tape.buffer
; GOOD: %x.cached = load double
; GOOD-NOT: free
; GOOD: ret void
; GOOD-NOT: __enzyme_

;--- bad.ll
declare ptr @__enzyme_augmentfwd(...)
declare float @__enzyme_augmentfwd_f(...)
declare double @__enzyme_augmentfwd_d(...)
declare void @__enzyme_reverse(...)
declare i64 @__enzyme_augmentsize(...)
declare double @__enzyme_autodiff(...)
define void @v(ptr %p) {
  %x = load double, ptr %p
  %y = fmul double %x, %x
  store double %y, ptr %p
  ret void
}
define double @sq(ptr %p) {
  %x = load double, ptr %p
  %y = fmul double %x, %x
  ret double %y
}
define void @no_tape(ptr %p, ptr %dp) {
  %t = call ptr (...) @__enzyme_augmentfwd(ptr @v, ptr %p, ptr %dp)
  call void (...) @__enzyme_reverse(ptr @v, ptr %p, ptr %dp)
  ret void
}
define void @no_dret(ptr %p, ptr %dp, ptr %t) {
  call void (...) @__enzyme_reverse(ptr @sq, ptr %p, ptr %dp, ptr %t)
  ret void
}
define double @small(ptr %p, ptr %dp, ptr %buf) {
  %r = call double (...) @__enzyme_augmentfwd_d(ptr @sq, metadata !"enzyme_allocated", i64 4, metadata !"enzyme_tape", ptr %buf, ptr %p, ptr %dp)
  ret double %r
}
define double @tape_alone(ptr %p, ptr %dp, ptr %buf) {
  %r = call double (...) @__enzyme_augmentfwd_d(ptr @sq, metadata !"enzyme_tape", ptr %buf, ptr %p, ptr %dp)
  ret double %r
}
define float @bad_result(ptr %p, ptr %dp) {
  %r = call float (...) @__enzyme_augmentfwd_f(ptr @sq, ptr %p, ptr %dp)
  ret float %r
}
define i64 @size_values(ptr %p) {
  %n = call i64 (...) @__enzyme_augmentsize(ptr @v, ptr %p)
  ret i64 %n
}
define double @outside(ptr %p, ptr %dp, ptr %buf) {
  %r = call double (...) @__enzyme_autodiff(ptr @sq, metadata !"enzyme_tape", ptr %buf, ptr %p, ptr %dp)
  ret double %r
}

;--- good.ll
declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
declare i64 @__enzyme_augmentsize(...)
define void @v(ptr %p) {
  %x = load double, ptr %p
  %y = fmul double %x, %x
  store double %y, ptr %p
  ret void
}
define void @split(ptr %p, ptr %dp) {
  %t = call ptr (...) @__enzyme_augmentfwd(ptr @v, ptr %p, ptr %dp)
  call void (...) @__enzyme_reverse(ptr @v, ptr %p, ptr %dp, ptr %t)
  ret void
}
define i64 @size() {
  %n = call i64 (...) @__enzyme_augmentsize(ptr @v, metadata !"enzyme_dup")
  ret i64 %n
}
define void @in_buffer(ptr %p, ptr %dp, ptr %buf) {
  %t = call ptr (...) @__enzyme_augmentfwd(ptr @v, metadata !"enzyme_allocated", i64 15, metadata !"enzyme_tape", ptr %buf, ptr %p, ptr %dp)
  call void (...) @__enzyme_reverse(ptr @v, metadata !"enzyme_allocated", i64 15, metadata !"enzyme_tape", ptr %buf, ptr %p, ptr %dp)
  ret void
}
