; Markers as metadata strings (older rustc, hand-written IR).

define double @square(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

declare double @__enzyme_fwddiff(...)

define double @caller(double %x, double %dx) {
  %r = call double (...) @__enzyme_fwddiff(ptr @square, metadata !"enzyme_dup", double %x, double %dx)
  ret double %r
}

