; A source returning nothing: no seed, no primal, the target returns void
; (reverse) or only what forward mode asks for.

; *out = *x * *x
define void @sq_into(ptr %x, ptr %out) {
  %v = load double, ptr %x
  %m = fmul double %v, %v
  store double %m, ptr %out
  ret void
}

; *p = *p * a
define void @scale(ptr %p, double %a) {
  %v = load double, ptr %p
  %m = fmul double %v, %a
  store double %m, ptr %p
  ret void
}



; A void source with an Active scalar still returns its gradient.
