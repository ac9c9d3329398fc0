; Slices given by a Rust-like signature: `&[f64]` / `&mut [f64]` are a data
; pointer and a length at the LLVM level. A duplicated slice's shadow is a
; (pointer, length) pair too; its length is checked against the primal's at
; run time, then the primal length is passed once, as Const.
; RUN: %autodiff-opt %s --stop-after-lowering -S \
; RUN:   --autodiff 'sum_sq(x: &[f64]) -> f64=autodiff_reverse(d_sum_sq, Duplicated, Active)' \
; RUN:   --autodiff 'scale(x: &[f64], y: &mut [f64], a: f64)=autodiff_reverse(d_scale, Duplicated, Duplicated, Active)' \
; RUN:   --autodiff 'scale(x: &[f64], y: &mut [f64], a: f64)=autodiff_forward(f_scale, Dual, Dual, Const)' \
; RUN:   --autodiff 'scale(x: &[f64], y: &mut [f64], a: f64)=autodiff_reverse(c_scale, Const, Duplicated, Const)' \
; RUN:   | FileCheck %s

define double @sum_sq(ptr %x.0, i64 %x.1) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %p = getelementptr double, ptr %x.0, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add i64 %i, 1
  %done = icmp uge i64 %i.next, %x.1
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}

define void @scale(ptr %x.0, i64 %x.1, ptr %y.0, i64 %y.1, double %a) {
  %v = load double, ptr %x.0
  %m = fmul double %v, %a
  store double %m, ptr %y.0
  ret void
}

; CHECK-DAG: @[[MSG_SUM:[^ ]+]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"autodiff: d_sum_sq: shadow `dx` of `x` has length %llu, but the primal has length %llu\0A\00"
; CHECK-DAG: @[[MSG_FY:[^ ]+]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"autodiff: f_scale: shadow `dy` of `y` has length %llu, but the primal has length %llu\0A\00"

; CHECK-LABEL: define double @d_sum_sq(ptr %x, i64 %x.len, ptr %dx, i64 %dx.len, double %dret) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %short_shadow = icmp ult i64 %dx.len, %x.len
; CHECK-NEXT:    br i1 %short_shadow, label %length_error, label %length_ok, !prof [[UNLIKELY:![0-9]+]]
; CHECK:       length_error:
; CHECK-NEXT:    call void @__autodiff_length_error(ptr @[[MSG_SUM]], i64 %dx.len, i64 %x.len, i64 %x.len)
; CHECK-NEXT:    unreachable
; CHECK:       length_ok:
; CHECK-NEXT:    [[R:%.*]] = call double (...) @__enzyme_autodiff_d_sum_sq(ptr @sum_sq, ptr @enzyme_primal_return, ptr @enzyme_seed, double %dret, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %x.len)
; CHECK-NEXT:    ret double [[R]]

; The helper prints to stderr and aborts; it needs only libc.
; CHECK-LABEL: define internal void @__autodiff_length_error(ptr %fmt, i64 %have, i64 %primal, i64 %need)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %stderr = load ptr, ptr @stderr
; CHECK-NEXT:    call i32 (ptr, ptr, ...) @fprintf(ptr %stderr, ptr %fmt, i64 %have, i64 %primal, i64 %need)
; CHECK-NEXT:    call void @abort()
; CHECK-NEXT:    unreachable

; Reverse, two duplicated slices: two checks, in parameter order.
; CHECK-LABEL: define double @d_scale(ptr %x, i64 %x.len, ptr %dx, i64 %dx.len, ptr %y, i64 %y.len, ptr %dy, i64 %dy.len, double %a) {
; CHECK:         icmp ult i64 %dx.len, %x.len
; CHECK:         icmp ult i64 %dy.len, %y.len
; CHECK:         [[G:%.*]] = call double (...) @__enzyme_autodiff_d_scale(ptr @scale, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %x.len, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_const, i64 %y.len, ptr @enzyme_out, double %a)
; CHECK-NEXT:    ret double [[G]]

; Forward: the same shape with tangents.
; CHECK-LABEL: define void @f_scale(ptr %x, i64 %x.len, ptr %dx, i64 %dx.len, ptr %y, i64 %y.len, ptr %dy, i64 %dy.len, double %a) {
; CHECK:         icmp ult i64 %dx.len, %x.len
; CHECK:         call void @__autodiff_length_error(ptr @[[MSG_FY]], i64 %dy.len, i64 %y.len, i64 %y.len)
; CHECK:         call void (...) @__enzyme_fwddiff_f_scale(ptr @scale, ptr @enzyme_dup, ptr %x, ptr %dx, ptr @enzyme_const, i64 %x.len, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_const, i64 %y.len, ptr @enzyme_const, double %a)
; CHECK-NEXT:    ret void

; A Const slice has no shadow and needs no check.
; CHECK-LABEL: define void @c_scale(ptr %x, i64 %x.len, ptr %y, i64 %y.len, ptr %dy, i64 %dy.len, double %a) {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    icmp ult i64 %dy.len, %y.len
; CHECK:         call void (...) @__enzyme_autodiff_c_scale(ptr @scale, ptr @enzyme_const, ptr %x, ptr @enzyme_const, i64 %x.len, ptr @enzyme_dup, ptr %y, ptr %dy, ptr @enzyme_const, i64 %y.len, ptr @enzyme_const, double %a)

; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
