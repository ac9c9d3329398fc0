; Storing an active value into memory that has no shadow would drop the
; derivative: a diagnostic.

@global = global double 0.0
declare double @__enzyme_fwddiff(...)

define double @leak(double %x) {
  %m = fmul double %x, %x
  store double %m, ptr @global
  ret double %m
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @leak, double %x, double 1.0)
  ret double %r
}
