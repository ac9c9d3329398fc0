; Requests that reach each other recursively: one diagnostic per cycle that
; says so and names the chain, at the cycle's first request, instead of "no
; derivative rule for call to `__enzyme_fwddiff`". A request that is not
; part of a cycle but waits on one is not reported; a nested request that
; does not lead back (dg below) would be differentiated first.

declare double @__enzyme_fwddiff(...)

; f asks for the derivative of g, which asks for the derivative of f.
define double @f(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @g, double %x, double 1.0)
  %m = fmul double %d, %x
  ret double %m
}
define double @g(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  %m = fmul double %d, %x
  ret double %m
}

; A request for the derivative of its own function.
define double @self(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @self, double %x, double 1.0)
  ret double %d
}

; Through plain calls: h asks for the derivative of k, which calls helper,
; which calls h.
define double @h(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @k, double %x, double 1.0)
  ret double %d
}
define double @k(double %x) {
  %y = call double @helper(double %x)
  ret double %y
}
define double @helper(double %x) {
  %y = call double @h(double %x)
  %z = fmul double %y, %x
  ret double %z
}

; Waits on the f/g cycle without being part of it: not reported again.
define double @outer(double %x) {
  %d = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %d
}
