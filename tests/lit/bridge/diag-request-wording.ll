; Request diagnostics say what is wrong in the user's words: the marker as
; written (enzyme_dupnoneed), a parameter's type as a type, a shadow as a
; shadow.
; RUN: split-file %s %t
; RUN: not %autodiff-opt %t/dupnoneed.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONEED
; RUN: not %autodiff-opt %t/outtype.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=OUT
; RUN: not %autodiff-opt %t/shadow.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHADOW
; NONEED: parameter 0 of `sq` is passed by value with enzyme_dupnoneed; in reverse mode a scalar is enzyme_out
; OUT: enzyme_out on parameter 0 of `first`, which has type `ptr`; only floating-point values can be active
; SHADOW: the shadow of parameter 0 of `first` has type `ptr`, but the call passes `double 1.000000e+00`

;--- dupnoneed.ll
define double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}
declare double @__enzyme_autodiff(...)
define double @caller(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @sq, metadata !"enzyme_dupnoneed", double %x, double 1.0)
  ret double %r
}

;--- outtype.ll
define double @first(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}
declare double @__enzyme_autodiff(...)
define double @caller(ptr %p) {
  %r = call double (...) @__enzyme_autodiff(ptr @first, metadata !"enzyme_out", ptr %p)
  ret double %r
}

;--- shadow.ll
define double @first(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}
declare double @__enzyme_autodiff(...)
define double @caller(ptr %p) {
  %r = call double (...) @__enzyme_autodiff(ptr @first, metadata !"enzyme_dup", ptr %p, double 1.0)
  ret double %r
}

; Every problem is reported, not the first: a malformed marker, a shadow of
; the wrong type, two results of the wrong layout, and a derivative that
; cannot be made, all in one module.
; RUN: not %autodiff-opt %t/all.ll -o %t/all.out.ll 2>&1 | FileCheck %s --check-prefix=ALL
; RUN: not test -e %t/all.out.ll
; ALL-DAG: in function `caller`, call to `__enzyme_autodiff`: parameter 0 of `sq` is passed by value with enzyme_dupnoneed
; ALL-DAG: in function `caller`, call to `__enzyme_autodiff`: the shadow of parameter 0 of `first` has type `ptr`, but the call passes `double 1.000000e+00`
; ALL-DAG: in function `caller`, call to `__enzyme_autodiff_two`: the call expects `{ double, double }`, but the derivative of `sq` (rev(sq)[out]w1+dret) returns (double)
; ALL-DAG: in function `caller`, call to `__enzyme_autodiff`: the call expects `double`, but the derivative of `mul` (rev(mul)[out,out]w1+dret) returns (double, double)
; ALL-DAG: in function `asmy` (while generating `diffe_asmy`), inline assembly: reverse mode does not yet support inline assembly on active data

;--- all.ll
define double @sq(double %x) {
  %r = fmul double %x, %x
  ret double %r
}
define double @mul(double %x, double %y) {
  %r = fmul double %x, %y
  ret double %r
}
define double @first(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}
define double @asmy(double %x) {
  %r = call double asm "", "=x,0"(double %x)
  ret double %r
}
declare double @__enzyme_autodiff(...)
declare { double, double } @__enzyme_autodiff_two(...)
define double @caller(double %x, ptr %p) {
  %a = call double (...) @__enzyme_autodiff(ptr @sq, metadata !"enzyme_dupnoneed", double %x, double 1.0)
  %b = call double (...) @__enzyme_autodiff(ptr @first, metadata !"enzyme_dup", ptr %p, double 1.0)
  %c = call { double, double } (...) @__enzyme_autodiff_two(ptr @sq, double %x)
  %d = call double (...) @__enzyme_autodiff(ptr @mul, double %x, double %x)
  %e = call double (...) @__enzyme_autodiff(ptr @asmy, double %x)
  %c0 = extractvalue { double, double } %c, 0
  %s1 = fadd double %a, %b
  %s2 = fadd double %s1, %c0
  %s3 = fadd double %s2, %d
  %s4 = fadd double %s3, %e
  ret double %s4
}
