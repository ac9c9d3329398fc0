; A byte address whose base is an integer offset made a pointer and whose
; index is the address (`gep i8, inttoptr(row * 64), ptrtoint(a) + 8 i`),
; as LLVM's address sinking leaves it in Numba's loops over 2-D views:
; both modes put the address back in the base (PutAddressesInBase), so the
; loads through it are active and read the shadow at the same offset.
; Before, the loads counted as reads of no object: a zero derivative.
; RUN: %autodiff-opt %s --no-postopt -S -o - | FileCheck %s
;
; CHECK-LABEL: define internal double @fwddiffe_rowsum(
; CHECK: %[[SB:.*]] = inttoptr i64 %"addr'" to ptr
; CHECK: %"p'" = getelementptr i8, ptr %[[SB]], i64 %rowoff
; CHECK: load double, ptr %"p'"
; CHECK-LABEL: define internal void @diffe_rowsum(
; CHECK: %[[RB:.*]] = inttoptr i64 %"addr'" to ptr
; CHECK: getelementptr i8, ptr %[[RB]], i64 %rowoff

define double @rowsum(ptr %a, i64 %row, i64 %n) {
entry:
  %base = ptrtoint ptr %a to i64
  %rowoff = mul i64 %row, 64
  %off = inttoptr i64 %rowoff to ptr
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %loop ]
  %col = shl i64 %i, 3
  %addr = add i64 %col, %base
  %p = getelementptr i8, ptr %off, i64 %addr
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s.next = fadd double %s, %sq
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s.next
}
declare double @__enzyme_fwddiff(...)
declare void @__enzyme_autodiff(...)
define double @tangent(ptr %a, ptr %da, i64 %row, i64 %n) {
  %t = call double (...) @__enzyme_fwddiff(ptr @rowsum, ptr %a, ptr %da, i64 %row, i64 %n)
  ret double %t
}
define void @gradient(ptr %a, ptr %da, i64 %row, i64 %n) {
  call void (...) @__enzyme_autodiff(ptr @rowsum, ptr %a, ptr %da, i64 %row, i64 %n)
  ret void
}
