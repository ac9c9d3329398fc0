; Markers as metadata strings (older rustc, hand-written IR).
; RUN: %autodiff-opt %s -O0 --derivative-fast-math=none -S -o - | FileCheck %s

define double @square(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

declare double @__enzyme_fwddiff(...)

define double @caller(double %x, double %dx) {
  %r = call double (...) @__enzyme_fwddiff(ptr @square, metadata !"enzyme_dup", double %x, double %dx)
  ret double %r
}

; CHECK-LABEL: define double @caller(
; CHECK: %r = call double @fwddiffe_square(double %x, double %dx)
; CHECK: ret double %r
; CHECK-NOT: __enzyme_fwddiff
; CHECK-LABEL: define internal double @fwddiffe_square(double %x, double %"x'")
; CHECK: %m = fmul double %x, %x
; CHECK: %[[A:.*]] = fmul double %"x'", %x
; CHECK: %[[B:.*]] = fmul double %"x'", %x
; CHECK: %[[T:.*]] = fadd double %[[A]], %[[B]]
; CHECK: ret double %[[T]]
