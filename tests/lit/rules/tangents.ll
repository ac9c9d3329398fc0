; The tangent code the rule table emits, through the whole bridge: one
; function per rule shape (quotient, chain rule through an intrinsic,
; two-operand power, integer exponent, kink functions, vector arithmetic).
; RUN: %autodiff-opt %s -O0 --derivative-fast-math=none -S -o - | FileCheck %s

declare double @__enzyme_fwddiff(...)
declare <2 x double> @__enzyme_fwddiff_v(...)

define double @div(double %a, double %b) {
  %q = fdiv double %a, %b
  ret double %q
}
; CHECK-LABEL: define internal double @fwddiffe_div(double %a, double %"a'", double %b, double %"b'")
; CHECK: %q = fdiv double %a, %b
; One division: (a' - b' q) / b.
; CHECK: %[[T2:.*]] = fmul double %"b'", %q
; CHECK: %[[N:.*]] = fsub double %"a'", %[[T2]]
; CHECK: %[[T:.*]] = fdiv double %[[N]], %b
; CHECK: ret double %[[T]]

define double @sin(double %x) {
  %s = call double @llvm.sin.f64(double %x)
  ret double %s
}
; CHECK-LABEL: define internal double @fwddiffe_sin(
; CHECK: %[[C:.*]] = call double @llvm.cos.f64(double %x)
; CHECK: fmul double %"x'", %[[C]]

define double @pow(double %x, double %y) {
  %p = call double @llvm.pow.f64(double %x, double %y)
  ret double %p
}
; CHECK-LABEL: define internal double @fwddiffe_pow(
; CHECK: call double @llvm.pow.f64(double %x, double
; CHECK: call double @llvm.log.f64(double %x)

define double @powi(double %x, i32 %n) {
  %p = call double @llvm.powi.f64.i32(double %x, i32 %n)
  ret double %p
}
; CHECK-LABEL: define internal double @fwddiffe_powi(double %x, double %"x'", i32 %n)
; CHECK: sitofp i32 %n to double
; CHECK: call double @llvm.pow.f64(double %x, double

define double @kinks(double %x, double %y) {
  %a = call double @llvm.fabs.f64(double %x)
  %m = call double @llvm.maxnum.f64(double %a, double %y)
  ret double %m
}
; CHECK-LABEL: define internal double @fwddiffe_kinks(
; CHECK: call double @llvm.copysign.f64(double 1.000000e+00, double %x)
; CHECK: fcmp oeq double %a, %m
; CHECK: select i1

define <2 x double> @vmul(<2 x double> %a, <2 x double> %b) {
  %m = fmul fast <2 x double> %a, %b
  ret <2 x double> %m
}
; CHECK-LABEL: define internal <2 x double> @fwddiffe_vmul(
; CHECK: fmul fast <2 x double> %"a'", %b
; CHECK: fmul fast <2 x double> %"b'", %a
; CHECK: fadd fast <2 x double>

define void @callers(double %x, <2 x double> %v, i32 %n) {
  %1 = call double (...) @__enzyme_fwddiff(ptr @div, double %x, double 1.0, double 3.0, double 0.5)
  %2 = call double (...) @__enzyme_fwddiff(ptr @sin, double %x, double 1.0)
  %3 = call double (...) @__enzyme_fwddiff(ptr @pow, double %x, double 1.0, double 3.0, double 0.5)
  %4 = call double (...) @__enzyme_fwddiff(ptr @powi, double %x, double 1.0, i32 %n)
  %5 = call double (...) @__enzyme_fwddiff(ptr @kinks, double %x, double 1.0, double 3.0, double 0.5)
  %6 = call <2 x double> (...) @__enzyme_fwddiff_v(ptr @vmul, <2 x double> %v, <2 x double> %v, <2 x double> %v, <2 x double> %v)
  ret void
}
