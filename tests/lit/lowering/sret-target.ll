; Targets declared the way C returns structs: through an sret pointer (the
; leaves are stored to it), or as a same-sized value such as <2 x float>
; (the leaves are coerced through memory).
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'f=autodiff_reverse(d_f, Active, Active, Active)' \
; RUN:   --autodiff 'g=autodiff_reverse(d_g, Active, Active)' \
; RUN:   --autodiff 'h=autodiff_reverse(d_h, Duplicated, Active)' \
; RUN:   | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.R3 = type { double, double, double }

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define float @g(float %x) {
  %m = fmul float %x, %x
  ret float %m
}

define double @h(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}

declare void @d_f(ptr dead_on_unwind writable sret(%struct.R3) align 8, double noundef, double noundef, double noundef)
declare <2 x float> @d_g(float noundef, float noundef)
; A one-field struct returned as its field's size.
declare { double } @d_h(ptr, ptr, double)

; CHECK-LABEL: define void @d_f(ptr dead_on_unwind writable sret(%struct.R3) align 8 %0, double noundef %x, double noundef %y, double noundef %dret) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[R:%.*]] = call { double, double, double } (...) @__enzyme_autodiff_d_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_seed, double %dret, ptr @enzyme_out, double %x, ptr @enzyme_out, double %y)
; CHECK-NEXT:    store { double, double, double } [[R]], ptr %0, align 8
; CHECK-NEXT:    ret void

; CHECK-LABEL: define <2 x float> @d_g(float noundef %x, float noundef %dret) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %coerce = alloca { float, float }, align 8
; CHECK-NEXT:    [[R:%.*]] = call { float, float } (...) @__enzyme_autodiff_d_g(ptr @g, ptr @enzyme_primal_return, ptr @enzyme_seed, float %dret, ptr @enzyme_out, float %x)
; CHECK-NEXT:    store { float, float } [[R]], ptr %coerce, align 8
; CHECK-NEXT:    [[V:%.*]] = load <2 x float>, ptr %coerce, align 8
; CHECK-NEXT:    ret <2 x float> [[V]]

; CHECK-LABEL: define { double } @d_h(ptr %p, ptr %dp, double %dret) {
; CHECK:         [[R:%.*]] = call double (...) @__enzyme_autodiff_d_h(
; CHECK-NEXT:    store double [[R]], ptr %coerce
; CHECK-NEXT:    [[V:%.*]] = load { double }, ptr %coerce
; CHECK-NEXT:    ret { double } [[V]]
