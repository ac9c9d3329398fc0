; Malformed requests: every one is reported, each naming the calling
; function and the call, and the tool exits non-zero.

@enzyme_dup = external global ptr
@enzyme_const = external global ptr
@enzyme_out = external global ptr
@enzyme_width = external global ptr
@enzyme_bogus = external global ptr

define double @f(ptr %p, double %x) {
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}
declare double @ext(double)
declare double @__enzyme_fwddiff(...)

define double @unknown_marker(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_bogus, ptr %p, ptr %dp, double %x, double 1.0)
  ret double %r
}

define double @missing_shadow(ptr %p) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr @enzyme_const, double 1.0)
  ret double %r
}

define double @too_few(ptr %p, ptr %dp) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret double %r
}

define double @too_many(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, ptr @enzyme_const, double %x, double 3.0)
  ret double %r
}

define double @out_in_forward(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, ptr @enzyme_out, double %x)
  ret double %r
}

define double @width_not_constant(ptr %p, ptr %dp, double %x, i32 %w) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_width, i32 %w, ptr %p, ptr %dp, double %x, double 1.0)
  ret double %r
}

define double @declaration_only(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @ext, double %x, double 1.0)
  ret double %r
}

define double @not_a_function(ptr %fp, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr %fp, double %x, double 1.0)
  ret double %r
}

