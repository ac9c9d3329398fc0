; A request inside a function that differentiated code reaches only through
; a function pointer: the inner request is replaced by a call to its
; derivative before any body is made, so the outer derivative
; differentiates that call (a second derivative), whichever request comes
; first in the module. outer(x) = d/dx inner(x) = d/dx (2 x) = 2.

;--- inner-first.ll
declare double @__enzyme_fwddiff(...)
define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
define double @inner(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @sq, double %x, double 1.0)
  ret double %d
}
define double @apply(ptr %fp, double %x) {
  %r = call double %fp(double %x)
  ret double %r
}
define double @outer(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @apply, metadata !"enzyme_const", ptr @inner, double %x, double 1.0)
  ret double %r
}

;--- outer-first.ll
declare double @__enzyme_fwddiff(...)
define double @outer(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @apply, metadata !"enzyme_const", ptr @inner, double %x, double 1.0)
  ret double %r
}
define double @apply(ptr %fp, double %x) {
  %r = call double %fp(double %x)
  ret double %r
}
define double @inner(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @sq, double %x, double 1.0)
  ret double %d
}
define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

;--- main.ll
define i32 @main() {
  %r = call double @outer(double 3.0)
  %ok = fcmp oeq double %r, 2.0
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
