; Targets declared the way C returns structs: through an sret pointer (the
; leaves are stored to it), or as a same-sized value such as <2 x float>
; (the leaves are coerced through memory).

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



