; Markers as loads of C globals (`extern int enzyme_dup;`), as clang emits
; them; at -O2 one load feeds several markers. Also enzyme_width with a
; constant operand, and results returned as a struct of two doubles.
; RUN: %autodiff-opt %s -O0 -S -o - | FileCheck %s

@enzyme_dup = external global i32
@enzyme_const = external global i32
@enzyme_width = external global i32

define double @f(double %x, double %y, i32 %k) {
  %m = fmul double %x, %y
  %kf = sitofp i32 %k to double
  %r = fadd double %m, %kf
  ret double %r
}

declare { double, double } @__enzyme_fwddiff(ptr, ...)

define { double, double } @caller(double %x, double %y) {
  %dup = load i32, ptr @enzyme_dup
  %cst = load i32, ptr @enzyme_const
  %w = load i32, ptr @enzyme_width
  %r = call { double, double } (ptr, ...) @__enzyme_fwddiff(ptr @f, i32 %w, i32 2, i32 %dup, double %x, double 1.0, double 0.0, i32 %dup, double %y, double 0.0, double 1.0, i32 %cst, i32 3)
  ret { double, double } %r
}

; CHECK-NOT: @enzyme_dup =
; CHECK-LABEL: define { double, double } @caller(
; CHECK-NOT: load i32, ptr @enzyme
; CHECK: %[[D:.*]] = call { double, double } @fwddiffe2_f(double %x, double 1.000000e+00, double 0.000000e+00, double %y, double 0.000000e+00, double 1.000000e+00, i32 3)
; CHECK: extractvalue { double, double } %[[D]], 0
; CHECK: extractvalue { double, double } %[[D]], 1
; CHECK-LABEL: define internal { double, double } @fwddiffe2_f(double %x, double %"x'0", double %"x'1", double %y, double %"y'0", double %"y'1", i32 %k)
; CHECK-NOT: sitofp{{.*}}'
; CHECK: ret { double, double }
