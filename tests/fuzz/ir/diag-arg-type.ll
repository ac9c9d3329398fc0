; A value whose type cannot stand for the parameter.

@enzyme_const = external global ptr
define double @f(ptr %p, double %x) {
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}
declare double @__enzyme_fwddiff(...)

define double @wrong_type(ptr %p, ptr %dp) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, ptr @enzyme_const, ptr %p)
  ret double %r
}
