; A call through a function pointer with active arguments, when no function
; of that type in the module has its address taken: the callee is unknown.

declare double @__enzyme_fwddiff(...)

define double @apply(ptr %g, double %x) {
  %r = call double %g(double %x)
  ret double %r
}
define double @d(ptr %g, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @apply, metadata !"enzyme_const", ptr %g, double %x, double 1.0)
  ret double %r
}
