; A Rust-like signature tells the type analysis what its pointers hold, as
; rustc's own "enzyme_type" attributes do: the source's float slices and
; references get them (f32 and f64), other parameters do not, and an
; attribute the module already has is kept.
; RUN: %autodiff-opt %s -S -o - \
; RUN:   --autodiff 'f(x: &[f32], y: &mut [f64], r: &f64, k: &[i32]) -> f64=autodiff_reverse(d_f, Duplicated, Duplicated, Const, Const, Active)' \
; RUN:   | FileCheck %s
; CHECK: define double @f(ptr {{.*}}"enzyme_type"="{[-1]:Pointer, [-1,-1]:Float@float}" %x, i64 %xn, ptr {{.*}}"enzyme_type"="{[-1]:Pointer, [-1,-1]:Float@double}" %y, i64 %yn, ptr {{.*}}"enzyme_type"="{[-1]:Pointer}" %r, ptr {{.*}}%k, i64 %kn)

define double @f(ptr %x, i64 %xn, ptr %y, i64 %yn, ptr "enzyme_type"="{[-1]:Pointer}" %r, ptr %k, i64 %kn) {
  %a = load float, ptr %x
  %b = load double, ptr %y
  %c = load double, ptr %r
  %e = fpext float %a to double
  %m = fmul double %e, %b
  %s = fadd double %m, %c
  store double %s, ptr %y
  ret double %s
}
