; A metadata operand that is no marker string is a malformed marker, never
; a value (no parameter has the metadata type): the message says which
; operand, what was found and what is expected, instead of a confusing
; "too many arguments" later on.
; RUN: not %autodiff-opt %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="too many" --implicit-check-not="missing shadow"

declare double @__enzyme_fwddiff(...)
define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}

; (The IR parser reads `metadata !{i32 7}` as `metadata i32 7`.)
; CHECK-DAG: in function `int_value`, call to `__enzyme_fwddiff`: malformed marker at operand 3 (the function is operand 0): found `metadata i32 7`, but a marker in metadata form is a string naming it, such as `metadata !"enzyme_dup"`{{$}}
define double @int_value(double %x, double %y) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0, metadata !{i32 7}, double %y)
  ret double %r
}

; CHECK-DAG: in function `tuple`, call to `__enzyme_fwddiff`: malformed marker at operand 1 (the function is operand 0): found `metadata !{i32 7, !"x"}`, but
define double @tuple(double %x, double %y) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, metadata !0, double %x, double 1.0, double %y, double 1.0)
  ret double %r
}
!0 = !{i32 7, !"x"}

; CHECK-DAG: in function `tuple_string`, call to `__enzyme_fwddiff`: malformed marker at operand 1 (the function is operand 0): found `metadata !{!"enzyme_const"}`, but a marker in metadata form is a string naming it, such as `metadata !"enzyme_dup"` (write `metadata !"enzyme_const"`, without the braces)
define double @tuple_string(double %x, double %y) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, metadata !{!"enzyme_const"}, double %x, double %y, double 1.0)
  ret double %r
}

; CHECK-DAG: in function `not_a_marker_name`, call to `__enzyme_fwddiff`: malformed marker at operand 1 (the function is operand 0): found `metadata !"dup"`, but a marker in metadata form is a string naming it, such as `metadata !"enzyme_dup"`; `dup` is not a marker name (markers start with `enzyme_`: enzyme_const, enzyme_dup,
define double @not_a_marker_name(double %x, double %y) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, metadata !"dup", double %x, double 1.0, double %y, double 1.0)
  ret double %r
}

; In a shadow's place (it would otherwise be taken for the shadow).
; CHECK-DAG: in function `in_shadow_place`, call to `__enzyme_fwddiff`: malformed marker at operand 2 (the function is operand 0): found `metadata i32 0`
define double @in_shadow_place(double %x, double %y) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, metadata i32 0, double %y, double 1.0)
  ret double %r
}

; An `enzyme_*` string that is not a known marker keeps its own message.
; CHECK-DAG: in function `unknown_name`, call to `__enzyme_fwddiff`: unknown marker `enzyme_dupe` (operand 1)
define double @unknown_name(double %x, double %y) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, metadata !"enzyme_dupe", double %x, double 1.0, double %y, double 1.0)
  ret double %r
}
