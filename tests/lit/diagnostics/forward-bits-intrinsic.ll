; Forward mode: integer intrinsics on the bits of an active double. A
; funnel shift by whole bytes and a byte swap move the tangent's bytes the
; same way (two byte swaps give the tangent back: d/dx of x*x is 2x = 3);
; a funnel shift by 3 bits whose result is a double again has no
; derivative: a diagnostic (the tangent was silently dropped before, as
; for the `fshl` by 32 that packs `struct {int; float;}` at -O2).
; RUN: %autodiff-opt %s -o %t.ll
; RUN: %clang %t.ll -o %t && %t
; RUN: sed 's/i64 0)$/i64 3)/' %s > %t.bad.ll
; RUN: not %autodiff-opt %t.bad.ll -o %t.bad.out.ll 2>&1 | FileCheck %s
; RUN: not test -e %t.bad.out.ll
; CHECK: in function `sq`{{.*}}integer intrinsic `llvm.fshl.i64` on the bits of an active floating-point value, used as a floating-point value again, cannot be differentiated

define double @sq(double %x) {
  %b = bitcast double %x to i64
  %s = call i64 @llvm.bswap.i64(i64 %b)
  %t = call i64 @llvm.bswap.i64(i64 %s)
  %u = call i64 @llvm.fshl.i64(i64 %t, i64 %t, i64 0)
  %y = bitcast i64 %u to double
  %r = fmul double %y, %x
  ret double %r
}

; d/dx (x * x) at 1.5 is 3.
define i32 @main() {
  %d = call double (ptr, ...) @__enzyme_fwddiff(ptr @sq, double 1.5, double 1.0)
  %ok = fcmp oeq double %d, 3.0
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}

declare double @__enzyme_fwddiff(ptr, ...)
declare i64 @llvm.bswap.i64(i64)
declare i64 @llvm.fshl.i64(i64, i64, i64)
