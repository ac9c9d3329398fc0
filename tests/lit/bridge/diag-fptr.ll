; A call through a function pointer with active arguments, when no function
; of that type in the module has its address taken: the callee is unknown.
; RUN: not %autodiff-opt %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: autodiff-opt: error: in function `apply` (while generating `fwddiffe_apply`), indirect call through `%g`: call through a function pointer with active arguments, and no function of this type in the module has its address taken: the callee is unknown
; CHECK-NEXT: {{^}}  instruction: %r = call double %g(double %x){{$}}

declare double @__enzyme_fwddiff(...)

define double @apply(ptr %g, double %x) {
  %r = call double %g(double %x)
  ret double %r
}
define double @d(ptr %g, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @apply, metadata !"enzyme_const", ptr %g, double %x, double 1.0)
  ret double %r
}
