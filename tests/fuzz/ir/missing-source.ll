; The source must be defined in the module; the message names source and
; target.


; Every failing request is reported, one line each.



; Nothing is written when lowering fails.

declare double @ext(double)

define double @f(double %x) {
  ret double %x
}

define double @va(double %x, ...) {
  ret double %x
}
