; An existing declaration of the target is given the body; its parameter
; attributes stay, unnamed parameters get the planned names, and callers are
; untouched.
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'f=autodiff_reverse(d_f, Active, Active, Active)' \
; RUN:   | FileCheck %s

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

; CHECK-LABEL: define { double, double, double } @d_f(double noundef %x, double noundef %y, double noundef %dret) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[R:%.*]] = call { double, double, double } (...) @__enzyme_autodiff_d_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_seed, double %dret, ptr @enzyme_out, double %x, ptr @enzyme_out, double %y)
; CHECK-NEXT:    ret { double, double, double } [[R]]
declare { double, double, double } @d_f(double noundef, double noundef, double noundef)

; CHECK-LABEL: define double @caller(
; CHECK:         call { double, double, double } @d_f(double %x, double 2.000000e+00, double 1.000000e+00)
define double @caller(double %x) {
  %r = call { double, double, double } @d_f(double %x, double 2.0, double 1.0)
  %g = extractvalue { double, double, double } %r, 1
  ret double %g
}
