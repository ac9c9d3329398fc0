; Reverse-mode requests the core cannot take yet get a diagnostic naming the
; function and the instruction, and no output; nothing crashes.
; RUN: split-file %s %t
; RUN: not %autodiff-opt %t/recursive.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=REC
; RUN: not test -e %t/out.ll
; RUN: not %autodiff-opt %t/nobody.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=BODY
; RUN: not %autodiff-opt %t/width.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDTH
; RUN: not %autodiff-opt %t/dupscalar.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUP
; RUN: not %autodiff-opt %t/fptr.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=FPTR
; RUN: not %autodiff-opt %t/irreducible.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=IRR

; REC: autodiff-opt: error: in function `scale_rec` (while generating `diffe_scale_rec`), call to `scale_rec`: reverse mode does not yet support a recursive call to `scale_rec`, which writes memory its caller can see (only recursion that does not is supported yet)
; REC-NEXT: {{^}}  instruction: %r = call double @scale_rec(ptr %p, i32 %m)
; REC: in function `sum_then_zero` (while generating `diffe_sum_then_zero`), call to `sum_rec`: reverse mode does not yet support a recursive call to `sum_rec` whose memory is written after it returns
; BODY: in function `f` (while generating `diffe_f`), call to `mystery`: reverse mode does not yet support a call to `mystery`, which has no body and no derivative rule
; WIDTH: enzyme_width in reverse mode (vector reverse mode) is not yet supported; requested for `sq`
; FPTR: autodiff-opt: error: in function `apply` (while generating `diffe_apply`), indirect call through `%g`: call through a function pointer with active arguments, and no function of this type in the module has its address taken: the callee is unknown
; IRR: in function `irr` (while generating `diffe_irr`), `br`: reverse mode does not yet support irreducible control flow (a jump into the middle of a loop, which then has no single entry)
; DUP: parameter 0 of `sq` is passed by value with enzyme_dup; in reverse mode a scalar is enzyme_out (its gradient is returned) or enzyme_const

;--- recursive.ll
; Writes through its argument at every level.
define double @scale_rec(ptr %p, i32 %n) {
entry:
  %v = load double, ptr %p
  %w = fmul double %v, 2.0
  store double %w, ptr %p
  %done = icmp eq i32 %n, 0
  br i1 %done, label %base, label %step
base:
  ret double %w
step:
  %m = sub i32 %n, 1
  %r = call double @scale_rec(ptr %p, i32 %m)
  %q = fmul double %r, %w
  ret double %q
}
; Reads p[0..n] recursively; its caller then overwrites p[0] twice: running
; the call again in the reverse sweep would read the new value. (One store
; alone, the last write to p[0], would be undone by the reverse sweep: see
; tests/exec/reverse/undone-stores.c.)
define double @sum_rec(ptr %p, i32 %n) {
entry:
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %done = icmp eq i32 %n, 0
  br i1 %done, label %base, label %step
base:
  ret double %sq
step:
  %m = sub i32 %n, 1
  %next = getelementptr double, ptr %p, i64 1
  %r = call double @sum_rec(ptr %next, i32 %m)
  %s = fadd double %r, %sq
  ret double %s
}
define double @sum_then_zero(ptr %p, i32 %n) {
  %s = call double @sum_rec(ptr %p, i32 %n)
  store double 0.0, ptr %p
  %again = fadd double %s, 1.0
  store double %again, ptr %p
  %ss = fmul double %s, %s
  ret double %ss
}
declare double @__enzyme_autodiff(...)
@enzyme_dup = external global i32
@enzyme_const = external global i32
define double @caller(ptr %p, ptr %dp) {
  %r = call double (...) @__enzyme_autodiff(ptr @scale_rec, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_const, i32 3)
  %s = call double (...) @__enzyme_autodiff(ptr @sum_then_zero, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_const, i32 3)
  %t = fadd double %r, %s
  ret double %t
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

;--- fptr.ll
define double @apply(ptr %g, double %x) {
  %r = call double %g(double %x)
  ret double %r
}
declare double @__enzyme_autodiff(...)
define double @caller(ptr %g, double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @apply, metadata !"enzyme_const", ptr %g, double %x)
  ret double %r
}

;--- irreducible.ll
; Two blocks that jump to each other, each entered from the entry block.
define double @irr(double %x, i1 %c, i32 %n) {
entry:
  br i1 %c, label %a, label %b
a:
  %va = phi double [ %x, %entry ], [ %vb2, %b ]
  %ia = phi i32 [ 0, %entry ], [ %ib2, %b ]
  %va2 = fmul double %va, %x
  %ia2 = add i32 %ia, 1
  %da = icmp sge i32 %ia2, %n
  br i1 %da, label %out, label %b
b:
  %vb = phi double [ %x, %entry ], [ %va2, %a ]
  %ib = phi i32 [ 0, %entry ], [ %ia2, %a ]
  %vb2 = fadd double %vb, %x
  %ib2 = add i32 %ib, 1
  %db = icmp sge i32 %ib2, %n
  br i1 %db, label %out, label %a
out:
  %r = phi double [ %va2, %a ], [ %vb2, %b ]
  ret double %r
}
declare double @__enzyme_autodiff(...)
define double @caller(double %x, i1 %c, i32 %n) {
  %r = call double (...) @__enzyme_autodiff(ptr @irr, double %x, i1 %c, i32 %n)
  ret double %r
}
