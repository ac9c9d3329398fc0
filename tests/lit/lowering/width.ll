; Forward mode with width 2 and 4: `enzyme_width, N` comes first, each Dual
; argument takes N shadows, and N tangents come back (after the primal for
; Dual, alone for DualOnly). A Dualv slice has one shadow holding all lanes
; contiguously: lane k starts k * len elements in, and the shadow must hold
; N * len elements.
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'f=autodiff_forward(f2, 2, Dual, Const, Dual)' \
; RUN:   --autodiff 'f=autodiff_forward(f4, 4, Dual, Dual, DualOnly)' \
; RUN:   --autodiff 'sum_sq(x: &[f64]) -> f64=autodiff_forward(s2, 2, Dual, Dual)' \
; RUN:   --autodiff 'sum_sq(x: &[f64]) -> f64=autodiff_forward(s4, 4, Dualv, DualOnly)' \
; RUN:   | FileCheck %s

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define double @sum_sq(ptr %x.0, i64 %x.1) {
  %v = load double, ptr %x.0
  %m = fmul double %v, %v
  ret double %m
}

; Results over 16 bytes come back through sret, as the C ABI returns them.
; CHECK-LABEL: define void @f2(ptr sret({ double, double, double }) %ret, double %x, double %dx_0, double %dx_1, double %y) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[R:%.*]] = call { double, double, double } (...) @__enzyme_fwddiff_f2(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_width, i64 2, ptr @enzyme_dup, double %x, double %dx_0, double %dx_1, ptr @enzyme_const, double %y)
; CHECK-NEXT:    store { double, double, double } [[R]], ptr %ret
; CHECK-NEXT:    ret void

; CHECK-LABEL: define void @f4(ptr sret({ double, double, double, double }) %ret, double %x, double %dx_0, double %dx_1, double %dx_2, double %dx_3, double %y, double %dy_0, double %dy_1, double %dy_2, double %dy_3) {
; CHECK:         call { double, double, double, double } (...) @__enzyme_fwddiff_f4(ptr @f, ptr @enzyme_width, i64 4, ptr @enzyme_dup, double %x, double %dx_0, double %dx_1, double %dx_2, double %dx_3, ptr @enzyme_dup, double %y, double %dy_0, double %dy_1, double %dy_2, double %dy_3)

; Width 2 on a slice: one shadow slice per lane, each checked.
; CHECK-LABEL: define void @s2(ptr sret({ double, double, double }) %ret, ptr %x, i64 %x.len, ptr %dx_0, i64 %dx_0.len, ptr %dx_1, i64 %dx_1.len) {
; CHECK:         icmp ult i64 %dx_0.len, %x.len
; CHECK:         icmp ult i64 %dx_1.len, %x.len
; CHECK:         call { double, double, double } (...) @__enzyme_fwddiff_s2(ptr @sum_sq, ptr @enzyme_primal_return, ptr @enzyme_width, i64 2, ptr @enzyme_dup, ptr %x, ptr %dx_0, ptr %dx_1, ptr @enzyme_const, i64 %x.len)

; CHECK-LABEL: define void @s4(ptr sret({ double, double, double, double }) %ret, ptr %x, i64 %x.len, ptr %dx, i64 %dx.len) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[MUL:%.*]] = call { i64, i1 } @llvm.umul.with.overflow.i64(i64 %x.len, i64 4)
; CHECK-NEXT:    [[OV:%.*]] = extractvalue { i64, i1 } [[MUL]], 1
; CHECK-NEXT:    [[PROD:%.*]] = extractvalue { i64, i1 } [[MUL]], 0
; CHECK-NEXT:    %need = select i1 [[OV]], i64 -1, i64 [[PROD]]
; CHECK-NEXT:    %short_shadow = icmp ult i64 %dx.len, %need
; CHECK:       length_error:
; CHECK-NEXT:    call void @__autodiff_length_error(ptr @{{.*}}, i64 %dx.len, i64 %x.len, i64 %need)
; CHECK:       length_ok:
; CHECK-NEXT:    %dx.offset1 = mul nuw i64 %x.len, 8
; CHECK-NEXT:    %dx.lane1 = getelementptr inbounds i8, ptr %dx, i64 %dx.offset1
; CHECK-NEXT:    %dx.offset2 = mul nuw i64 %x.len, 16
; CHECK-NEXT:    %dx.lane2 = getelementptr inbounds i8, ptr %dx, i64 %dx.offset2
; CHECK-NEXT:    %dx.offset3 = mul nuw i64 %x.len, 24
; CHECK-NEXT:    %dx.lane3 = getelementptr inbounds i8, ptr %dx, i64 %dx.offset3
; CHECK-NEXT:    [[R4:%.*]] = call { double, double, double, double } (...) @__enzyme_fwddiff_s4(ptr @sum_sq, ptr @enzyme_width, i64 4, ptr @enzyme_dup, ptr %x, ptr %dx, ptr %dx.lane1, ptr %dx.lane2, ptr %dx.lane3, ptr @enzyme_const, i64 %x.len)
; CHECK-NEXT:    store { double, double, double, double } [[R4]], ptr %ret
; CHECK-NEXT:    ret void
