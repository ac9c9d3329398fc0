; Reverse mode on scalars: Active inputs come back as gradients after the
; primal, Const inputs are passed through, the seed `dret` is passed with
; enzyme_seed, and the target is synthesized.


define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

define float @g(float %a, float %b) {
  %m = fmul float %a, %b
  ret float %m
}

; The enzyme entry points are variadic, noinline and return the leaves.

; ActiveOnly: no primal, so the gradients alone come back.

