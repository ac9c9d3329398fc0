; Split reverse mode and other Enzyme entry points (batching here) the core does not
; implement are refused, one diagnostic per call, and no output is written
; (before, the calls were left in the module and the link failed).
; RUN: rm -f %t.ll
; RUN: not %autodiff-opt %s -o %t.ll 2>&1 | FileCheck %s
; RUN: not test -e %t.ll
; CHECK: in function `split`, call to `__enzyme_augmentfwd`: split reverse mode (__enzyme_augmentfwd, __enzyme_reverse, __enzyme_augmentsize) is not yet supported by the differentiation core
; CHECK: in function `split`, call to `__enzyme_reverse`: split reverse mode
; CHECK: in function `size`, call to `__enzyme_augmentsize`: split reverse mode
; CHECK: in function `batch`, call to `__enzyme_batch`: the Enzyme entry point `__enzyme_batch` is not supported by the differentiation core

define void @sq(ptr %x) {
  %v = load double, ptr %x
  %m = fmul double %v, %v
  store double %m, ptr %x
  ret void
}
declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
declare i64 @__enzyme_augmentsize(...)
declare double @__enzyme_batch(...)
define void @split(ptr %x, ptr %dx) {
  %tape = call ptr (...) @__enzyme_augmentfwd(ptr @sq, metadata !"enzyme_dup", ptr %x, ptr %dx)
  call void (...) @__enzyme_reverse(ptr @sq, metadata !"enzyme_dup", ptr %x, ptr %dx, ptr %tape)
  ret void
}
define i64 @size() {
  %n = call i64 (...) @__enzyme_augmentsize(ptr @sq, metadata !"enzyme_dup")
  ret i64 %n
}
define double @batch(ptr %x) {
  %r = call double (...) @__enzyme_batch(ptr @sq, ptr %x)
  ret double %r
}
