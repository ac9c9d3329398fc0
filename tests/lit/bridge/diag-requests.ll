; Malformed requests: every one is reported, each naming the calling
; function and the call, and the tool exits non-zero.
; RUN: not %autodiff-opt %s -o /dev/null 2>&1 | FileCheck %s

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
; CHECK-DAG: in function `unknown_marker`, call to `__enzyme_fwddiff`: unknown marker `enzyme_bogus` (operand 1)
; CHECK-DAG: {{^}}  instruction: %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_bogus, {{.*}}

define double @missing_shadow(ptr %p) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr @enzyme_const, double 1.0)
  ret double %r
}
; CHECK-DAG: in function `missing_shadow`{{.*}}: missing shadow 1 of 1 for parameter 0 of `f`

define double @too_few(ptr %p, ptr %dp) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr %dp)
  ret double %r
}
; CHECK-DAG: in function `too_few`{{.*}}: too few arguments: `f` takes 2 parameters, the call passes 1

define double @too_many(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, ptr @enzyme_const, double %x, double 3.0)
  ret double %r
}
; CHECK-DAG: in function `too_many`{{.*}}: too many arguments: `f` takes 2 parameters; extra operand `double 3.000000e+00`

define double @out_in_forward(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, ptr @enzyme_out, double %x)
  ret double %r
}
; CHECK-DAG: in function `out_in_forward`{{.*}}: enzyme_out is not valid in forward mode (parameter 1 of `f`)

define double @width_not_constant(ptr %p, ptr %dp, double %x, i32 %w) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_width, i32 %w, ptr %p, ptr %dp, double %x, double 1.0)
  ret double %r
}
; CHECK-DAG: in function `width_not_constant`{{.*}}: enzyme_width must be followed by a constant between 1 and 64

define double @declaration_only(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @ext, double %x, double 1.0)
  ret double %r
}
; CHECK-DAG: in function `declaration_only`{{.*}}: cannot differentiate `ext`: it is only declared in this module (no body)

define double @not_a_function(ptr %fp, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr %fp, double %x, double 1.0)
  ret double %r
}
; CHECK-DAG: in function `not_a_function`{{.*}}: the first argument of __enzyme_fwddiff must be a function, found `ptr %fp`

