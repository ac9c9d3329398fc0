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
