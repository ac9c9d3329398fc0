; A Const return: the primal comes back but is not differentiated, so
; there is no seed (reverse) and no tangent (forward).

define double @f(double %x) {
  %m = fmul double %x, %x
  ret double %m
}



; Dual return: primal and tangent; DualOnly: the tangent alone.
