; Split reverse mode is not available yet: each call is a diagnostic
; (before, the calls were left in place and the program failed to link).
; RUN: not %autodiff-opt %s -o /dev/null 2>&1 | FileCheck %s
; CHECK: autodiff-opt: error: in function `split`, call to `__enzyme_augmentfwd`: split reverse mode (__enzyme_augmentfwd, __enzyme_reverse, __enzyme_augmentsize) is not yet supported by the differentiation core
; CHECK-NEXT: {{^}}  instruction: %t = call ptr (...) @__enzyme_augmentfwd(ptr @v, ptr %p, ptr %dp){{$}}
; CHECK-NEXT: autodiff-opt: error: in function `split`, call to `__enzyme_reverse`: split reverse mode
; CHECK-NEXT: {{^}}  instruction: call void (...) @__enzyme_reverse(
; CHECK-NEXT: autodiff-opt: error: in function `size`, call to `__enzyme_augmentsize`: split reverse mode

declare ptr @__enzyme_augmentfwd(...)
declare void @__enzyme_reverse(...)
declare i64 @__enzyme_augmentsize(...)
define void @v(ptr %p) {
  ret void
}
define void @split(ptr %p, ptr %dp) {
  %t = call ptr (...) @__enzyme_augmentfwd(ptr @v, ptr %p, ptr %dp)
  call void (...) @__enzyme_reverse(ptr @v, ptr %p, ptr %dp, ptr %t)
  ret void
}
define i64 @size() {
  %n = call i64 (...) @__enzyme_augmentsize(ptr @v, metadata !"enzyme_dup")
  ret i64 %n
}
