; Markers as loads of C globals (`extern int enzyme_dup;`), as clang emits
; them; at -O2 one load feeds several markers. Also enzyme_width with a
; constant operand, and results returned as a struct of two doubles.

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

