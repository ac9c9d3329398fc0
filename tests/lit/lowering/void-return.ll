; A source returning nothing: no seed, no primal, the target returns void
; (reverse) or only what forward mode asks for.
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'sq_into=autodiff_reverse(d_sq_into, Duplicated, DuplicatedOnly)' \
; RUN:   --autodiff 'sq_into=autodiff_forward(f_sq_into, Dual, DualOnly)' \
; RUN:   --autodiff 'scale=autodiff_reverse(d_scale, Duplicated, Active)' \
; RUN:   | FileCheck %s

; *out = *x * *x
define void @sq_into(ptr %x, ptr %out) {
  %v = load double, ptr %x
  %m = fmul double %v, %v
  store double %m, ptr %out
  ret void
}

; *p = *p * a
define void @scale(ptr %p, double %a) {
  %v = load double, ptr %p
  %m = fmul double %v, %a
  store double %m, ptr %p
  ret void
}

; CHECK:       declare void @__enzyme_autodiff_d_sq_into(...)
; CHECK-LABEL: define void @d_sq_into(ptr %x, ptr %dx, ptr %out, ptr %dout) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    call void (...) @__enzyme_autodiff_d_sq_into(ptr @sq_into, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr %out, ptr %dout)
; CHECK-NEXT:    ret void

; CHECK-LABEL: define void @f_sq_into(ptr %x, ptr %dx, ptr %out, ptr %dout) {
; CHECK:         call void (...) @__enzyme_fwddiff_f_sq_into(ptr @sq_into, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_dupnoneed, ptr %out, ptr %dout)
; CHECK-NEXT:    ret void

; A void source with an Active scalar still returns its gradient.
; CHECK-LABEL: define double @d_scale(ptr %p, ptr %dp, double %a) {
; CHECK:         [[G:%.*]] = call double (...) @__enzyme_autodiff_d_scale(ptr @scale, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_out, double %a)
; CHECK-NEXT:    ret double [[G]]
