; A Const return: the primal comes back but is not differentiated, so
; there is no seed (reverse) and no tangent (forward).
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'f=autodiff_reverse(d_f, Active, Const)' \
; RUN:   --autodiff 'f=autodiff_forward(f_f, Dual, Const)' \
; RUN:   --autodiff 'f=autodiff_forward(g_f, Dual, Dual)' \
; RUN:   --autodiff 'f=autodiff_forward(h_f, Dual, DualOnly)' \
; RUN:   | FileCheck %s

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

; CHECK-LABEL: define { double, double } @d_f(double %x) {
; CHECK:         call { double, double } (...) @__enzyme_autodiff_d_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_const_return, ptr @enzyme_out, double %x)

; CHECK-LABEL: define double @f_f(double %x, double %dx) {
; CHECK:         [[P:%.*]] = call double (...) @__enzyme_fwddiff_f_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_const_return, ptr @enzyme_dup, double %x, double %dx)
; CHECK-NEXT:    ret double [[P]]

; Dual return: primal and tangent; DualOnly: the tangent alone.
; CHECK-LABEL: define { double, double } @g_f(double %x, double %dx) {
; CHECK:         call { double, double } (...) @__enzyme_fwddiff_g_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_dup, double %x, double %dx)
; CHECK-LABEL: define double @h_f(double %x, double %dx) {
; CHECK:         call double (...) @__enzyme_fwddiff_h_f(ptr @f, ptr @enzyme_dup, double %x, double %dx)
