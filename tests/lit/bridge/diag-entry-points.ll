; Enzyme entry points the core does not implement (batching here) are
; refused, one diagnostic per call, and no output is written (before, the
; calls were left in the module and the link failed).
; RUN: rm -f %t.ll
; RUN: not %autodiff-opt %s -o %t.ll 2>&1 | FileCheck %s
; RUN: not test -e %t.ll
; CHECK: in function `batch`, call to `__enzyme_batch`: the Enzyme entry point `__enzyme_batch` is not supported by the differentiation core

define void @sq(ptr %x) {
  %v = load double, ptr %x
  %m = fmul double %v, %v
  store double %m, ptr %x
  ret void
}
declare double @__enzyme_batch(...)
define double @batch(ptr %x) {
  %r = call double (...) @__enzyme_batch(ptr @sq, ptr %x)
  ret double %r
}
