; Storing an active value into memory that has no shadow would drop the
; derivative: a diagnostic.
; RUN: not %autodiff-opt %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: in function `leak` (while generating `fwddiffe_leak`), `store`: the stored value is active but the destination has no shadow memory (it is not derived from a duplicated argument, a local variable or a heap allocation); give the global `global` a shadow (a global `d_global` of the same type): in C, `void *__enzyme_shadow_global_global[2] = {&global, &d_global};`; in IR, `!enzyme_shadow !{ptr @d_global}` on `@global`
; CHECK-NEXT: {{^}}  instruction: store double %m, ptr @global, align 8{{$}}

@global = global double 0.0
declare double @__enzyme_fwddiff(...)

define double @leak(double %x) {
  %m = fmul double %x, %x
  store double %m, ptr @global
  ret double %m
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @leak, double %x, double 1.0)
  ret double %r
}
