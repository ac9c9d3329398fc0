; A registered forward derivative (`__enzyme_register_derivative_NAME`)
; whose signature does not fit its function: a diagnostic naming the rule
; and what was expected, and no output.

define double @sq(double %x) noinline {
  %r = fmul double %x, %x
  ret double %r
}
declare { double, double } @sq_fwd(double)
@__enzyme_register_derivative_sq = global [2 x ptr] [ptr @sq, ptr @sq_fwd]
define double @cube(double %x) noinline {
  %s = fmul double %x, %x
  %r = fmul double %s, %x
  ret double %r
}
declare { double, double } @cube_fwd(double, float)
@__enzyme_register_derivative_cube = global [2 x ptr] [ptr @cube, ptr @cube_fwd]
define double @f(double %x) {
  %y = call double @sq(double %x)
  ret double %y
}
define double @g(double %x) {
  %y = call double @cube(double %x)
  ret double %y
}
declare double @__enzyme_fwddiff(...)
define void @caller(double %x) {
  %a = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  %b = call double (...) @__enzyme_fwddiff(ptr @g, double %x, double 1.0)
  ret void
}
