; Derivatives keep the primal's inlining attributes, so post-optimization
; inlines no more than the primal pipeline would: a noinline helper gets a
; noinline derivative that stays a call after -O2, an alwaysinline one an
; alwaysinline derivative. clang's -O0 pair `noinline optnone` is dropped:
; derivatives are optimized whatever the primal's level.


; O2: define double @d(
; O2: call {{.*}}@fwddiffe_helper(
; O2-NOT: @fwddiffe_always

define double @helper(double %x) noinline {
  %y = fmul double %x, %x
  ret double %y
}

define double @always(double %x) alwaysinline {
  %y = fmul double %x, 3.0
  ret double %y
}

define double @at_O0(double %x) noinline optnone {
  %y = fadd double %x, %x
  ret double %y
}

define double @top(double %x) {
  %a = call double @helper(double %x)
  %b = call double @always(double %a)
  %c = call double @at_O0(double %b)
  ret double %c
}

declare double @__enzyme_fwddiff(...)
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @top, double %x, double 1.0)
  ret double %r
}
