; A request whose declared result holds other floating-point types than the
; derivative returns is a diagnostic, even when the sizes agree: here a
; float gradient would be read as the upper half of a double. Same-size
; results of another shape (an ABI coercion to an integer) stay accepted.

define double @mixprec(double %x, float %y) {
  %e = fpext float %y to double
  %r = fmul double %x, %e
  ret double %r
}
define float @twofloat(float %x, float %y) {
  %r = fmul float %x, %y
  ret float %r
}
declare { double, double } @__enzyme_autodiff(...)
declare i64 @__enzyme_autodiff_i64(...)
define { double, double } @bad(double %x, float %y) {
  %r = call { double, double } (...) @__enzyme_autodiff(ptr @mixprec, double %x, float %y)
  ret { double, double } %r
}
define i64 @coerced(float %x, float %y) {
  %r = call i64 (...) @__enzyme_autodiff_i64(ptr @twofloat, float %x, float %y)
  ret i64 %r
}
