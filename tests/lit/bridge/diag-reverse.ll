; Reverse mode is not available yet: a clear diagnostic, not a crash.
; RUN: not %autodiff-opt %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: autodiff-opt: error:
; CHECK-SAME: in function `caller`, call to `__enzyme_autodiff`: reverse mode (__enzyme_autodiff) is not yet supported by the differentiation core; requested for `sq`
; CHECK-NEXT: {{^}}  instruction: %r = call double (...) @__enzyme_autodiff(ptr @sq, double %x){{$}}

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
declare double @__enzyme_autodiff(...)
define double @caller(double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @sq, double %x)
  ret double %r
}
