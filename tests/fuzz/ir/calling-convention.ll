; A derivative keeps the calling convention of its primal (rustc makes
; private helpers `internal fastcc`), and every call to it uses that
; convention: a mismatch is undefined behaviour that the optimizer turns
; into `unreachable`.

define internal fastcc double @helper(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
define double @f(double %x) {
  %h = call fastcc double @helper(double %x)
  %r = fadd double %h, %x
  ret double %r
}
declare double @__enzyme_fwddiff(...)
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

