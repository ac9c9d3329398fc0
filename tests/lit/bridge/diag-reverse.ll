; Reverse-mode requests the core cannot take yet get a diagnostic naming the
; function and the instruction, and no output; nothing crashes.
; RUN: split-file %s %t
; RUN: not %autodiff-opt %t/recursive.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=REC
; RUN: not test -e %t/out.ll
; RUN: not %autodiff-opt %t/nobody.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=BODY
; RUN: not %autodiff-opt %t/width.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDTH
; RUN: not %autodiff-opt %t/widthseed.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=WSEED
; RUN: not %autodiff-opt %t/dupscalar.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUP
; RUN: not %autodiff-opt %t/fptr.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=FPTR
; RUN: not %autodiff-opt %t/irreducible.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=IRR

; REC: autodiff-opt: error: in function `last_squared` (while generating `diffe_last_squared`), call to `walk`: reverse mode does not yet support a call kept as a call (recursive) to `walk` whose result is an aggregate holding an active pointer
; REC-NEXT: {{^}}  instruction: %e = call { ptr, i64 } @walk(ptr %p, i64 %n)
; BODY: in function `f` (while generating `diffe_f`), call to `mystery`: reverse mode does not yet support a call to `mystery`, which has no body and no derivative rule
; WIDTH: in function `sq` (while generating `diffe2_sq`), call to `{{.*}}cube{{.*}}`: enzyme_width 2 in reverse mode (vector reverse mode) of `sq` does not yet support a call kept as a call to `cube` (recursive or noinline; its derivative `{{.*}}cube{{.*}}`) that takes shadows or adjoints
; WSEED: in function `caller`, call to `__enzyme_autodiff`: {{.*}}enzyme_width must come before enzyme_seed, which then takes one seed per lane
; FPTR: autodiff-opt: error: in function `apply` (while generating `diffe_apply`), indirect call through `%g`: call through a function pointer with active arguments, and no function of this type in the module has its address taken: the callee is unknown
; IRR: in function `irr` (while generating `diffe_irr`), `br`: reverse mode does not yet support irreducible control flow (a jump into the middle of a loop, which then has no single entry)
; DUP: parameter 0 of `sq` is passed by value with enzyme_dup; in reverse mode a scalar is enzyme_out (its gradient is returned) or enzyme_const

;--- recursive.ll
; A recursive function returning a slice (pointer and length) into its
; active argument: the call stays a call, and a split derivative has no
; shadow return for an aggregate holding a pointer yet.
define { ptr, i64 } @walk(ptr %p, i64 %n) {
entry:
  %done = icmp eq i64 %n, 1
  br i1 %done, label %base, label %step
base:
  %s0 = insertvalue { ptr, i64 } poison, ptr %p, 0
  %s1 = insertvalue { ptr, i64 } %s0, i64 %n, 1
  ret { ptr, i64 } %s1
step:
  %q = getelementptr double, ptr %p, i64 1
  %m = sub i64 %n, 1
  %r = call { ptr, i64 } @walk(ptr %q, i64 %m)
  ret { ptr, i64 } %r
}
define double @last_squared(ptr %p, i64 %n) {
  %e = call { ptr, i64 } @walk(ptr %p, i64 %n)
  %ep = extractvalue { ptr, i64 } %e, 0
  %v = load double, ptr %ep
  %s = fmul double %v, %v
  ret double %s
}
declare void @__enzyme_autodiff(...)
@enzyme_dup = external global i32
@enzyme_const = external global i32
define void @caller(ptr %p, ptr %dp) {
  call void (...) @__enzyme_autodiff(ptr @last_squared, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_const, i64 3)
  ret void
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
; A recursive callee stays a call (a noinline one is inlined at a width).
define double @sq(ptr %p) {
  %x = load double, ptr %p
  %m = call double @cube(double %x, i64 3)
  ret double %m
}
define double @cube(double %x, i64 %n) {
  %done = icmp eq i64 %n, 0
  br i1 %done, label %one, label %more
one:
  ret double 1.0
more:
  %k = sub i64 %n, 1
  %r = call double @cube(double %x, i64 %k)
  %c = fmul double %r, %x
  ret double %c
}
@enzyme_width = external global i32
@enzyme_dup = external global i32
declare void @__enzyme_autodiff(...)
define void @caller(ptr %p, ptr %d0, ptr %d1) {
  call void (...) @__enzyme_autodiff(ptr @sq, ptr @enzyme_width, i64 2, ptr @enzyme_dup, ptr %p, ptr %d0, ptr %d1)
  ret void
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
;--- widthseed.ll
define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
@enzyme_width = external global i32
@enzyme_seed = external global i32
declare { double, double } @__enzyme_autodiff(...)
define { double, double } @caller(double %x) {
  %r = call { double, double } (...) @__enzyme_autodiff(ptr @sq, ptr @enzyme_seed, double 2.0, ptr @enzyme_width, i64 2, double %x)
  ret { double, double } %r
}
