; An existing declaration of the target is given the body; its parameter
; attributes stay, unnamed parameters get the planned names, and callers are
; untouched.

define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

declare { double, double, double } @d_f(double noundef, double noundef, double noundef)

define double @caller(double %x) {
  %r = call { double, double, double } @d_f(double %x, double 2.0, double 1.0)
  %g = extractvalue { double, double, double } %r, 1
  ret double %g
}
