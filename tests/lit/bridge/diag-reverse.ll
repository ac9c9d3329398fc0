; Reverse-mode requests the core cannot take yet get a diagnostic naming the
; function and the instruction, and no output; nothing crashes.
; RUN: split-file %s %t
; RUN: not %autodiff-opt %t/recursive.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=REC
; RUN: not test -e %t/out.ll
; RUN: not %autodiff-opt %t/nobody.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=BODY
; RUN: not %autodiff-opt %t/width.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDTH
; RUN: not %autodiff-opt %t/dupscalar.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUP

; REC: autodiff-opt: error: in function `pow_rec` (while generating `diffe_pow_rec`), call to `pow_rec`: reverse mode does not yet support a recursive call to `pow_rec` (calls to other functions are inlined)
; REC-NEXT: {{^}}  instruction: %r = call double @pow_rec(double %x, i32 %m)
; BODY: in function `f` (while generating `diffe_f`), call to `mystery`: reverse mode does not yet support a call to `mystery`, which has no body and no derivative rule
; WIDTH: enzyme_width in reverse mode (vector reverse mode) is not yet supported; requested for `sq`
; DUP: parameter 0 of `sq` is passed by value with enzyme_dup; in reverse mode a scalar is enzyme_out (its gradient is returned) or enzyme_const

;--- recursive.ll
define double @pow_rec(double %x, i32 %n) {
entry:
  %done = icmp eq i32 %n, 0
  br i1 %done, label %base, label %step
base:
  ret double 1.0
step:
  %m = sub i32 %n, 1
  %r = call double @pow_rec(double %x, i32 %m)
  %p = fmul double %r, %x
  ret double %p
}
declare double @__enzyme_autodiff(...)
define double @caller(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @pow_rec, double %x, i32 3)
  ret double %r
}

;--- nobody.ll
declare double @mystery(double)
define double @f(double %x) {
  %y = call double @mystery(double %x)
  ret double %y
}
declare double @__enzyme_autodiff(...)
define double @caller(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

;--- memmove.ll
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
define void @shift(ptr %a) {
  %b = getelementptr double, ptr %a, i64 1
  call void @llvm.memmove.p0.p0.i64(ptr %b, ptr %a, i64 24, i1 false)
  ret void
}
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(...)
define void @caller(ptr %a, ptr %da) {
  call void (...) @__enzyme_autodiff(ptr @shift, ptr @enzyme_dup, ptr %a, ptr %da)
  ret void
}

;--- width.ll
define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
@enzyme_width = external global i32
declare double @__enzyme_autodiff(...)
define double @caller(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @sq, ptr @enzyme_width, i64 2, double %x)
  ret double %r
}

;--- dupscalar.ll
define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
@enzyme_dup = external global i32
declare double @__enzyme_autodiff(...)
define double @caller(double %x, double %dx) {
  %r = call double (...) @__enzyme_autodiff(ptr @sq, ptr @enzyme_dup, double %x, double %dx)
  ret double %r
}
