; Reverse mode on scalars: Active inputs come back as gradients after the
; primal, Const inputs are passed through, the seed `dret` is passed with
; enzyme_seed, and the target is synthesized.
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'f=autodiff_reverse(d_f, Active, Const, Active)' \
; RUN:   --autodiff 'g=autodiff_reverse(d_g, Active, Active, ActiveOnly)' \
; RUN:   | FileCheck %s

; CHECK-DAG: @enzyme_primal_return = external global ptr
; CHECK-DAG: @enzyme_seed = external global ptr
; CHECK-DAG: @enzyme_out = external global ptr
; CHECK-DAG: @enzyme_const = external global ptr

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define float @g(float %a, float %b) {
  %m = fmul float %a, %b
  ret float %m
}

; The enzyme entry points are variadic, noinline and return the leaves.
; CHECK:       declare { double, double } @__enzyme_autodiff_d_f(...) #[[NOINLINE:[0-9]+]]
; CHECK-LABEL: define { double, double } @d_f(double %x, double %y, double %dret) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[R:%.*]] = call { double, double } (...) @__enzyme_autodiff_d_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_seed, double %dret, ptr @enzyme_out, double %x, ptr @enzyme_const, double %y)
; CHECK-NEXT:    ret { double, double } [[R]]
; CHECK-NEXT:  }

; ActiveOnly: no primal, so the gradients alone come back.
; CHECK:       declare { float, float } @__enzyme_autodiff_d_g(...) #[[NOINLINE]]
; CHECK-LABEL: define <2 x float> @d_g(float %a, float %b, float %dret) {
; CHECK:         call { float, float } (...) @__enzyme_autodiff_d_g(ptr @g, ptr @enzyme_seed, float %dret, ptr @enzyme_out, float %a, ptr @enzyme_out, float %b)

; CHECK:       attributes #[[NOINLINE]] = { noinline }
