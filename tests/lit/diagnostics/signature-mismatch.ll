; A Rust-like signature must describe the LLVM function: a slice is a
; pointer then an integer, scalars need their exact LLVM type, and the
; parameter count must match.
; RUN: not %autodiff-opt %s --autodiff 'sum(x: &[f64], n: usize) -> f64=autodiff_reverse(d_sum, Duplicated, Const, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=COUNT
; COUNT: autodiff-opt: error: in autodiff of `sum` into `d_sum`: the signature has 2 parameters taking 3 LLVM parameters, but LLVM function `sum` has 2

; RUN: not %autodiff-opt %s --autodiff 'sum(x: f64, y: f64) -> f64=autodiff_reverse(d_sum, Active, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TYPE
; TYPE: autodiff-opt: error: in autodiff of `sum` into `d_sum`: parameter `x` of type `f64` needs LLVM type(s) double, but LLVM function `sum` has ptr at parameter 0

; RUN: not %autodiff-opt %s --autodiff 'pair(x: &[f64]) -> f64=autodiff_reverse(d_pair, Duplicated, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SLICE
; SLICE: autodiff-opt: error: in autodiff of `pair` into `d_pair`: parameter `x` of type `&[f64]` needs LLVM type(s) ptr, an integer, but LLVM function `pair` has ptr, ptr at parameter 0

; RUN: not %autodiff-opt %s --autodiff 'sum(x: &[f32]) -> f32=autodiff_reverse(d_sum, Duplicated, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RET
; RET: autodiff-opt: error: in autodiff of `sum` into `d_sum`: the signature returns `f32`, but LLVM function `sum` returns double

; RUN: not %autodiff-opt %s --autodiff 'sum(x: &[f64])=autodiff_reverse(d_sum, Duplicated)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=UNIT
; UNIT: autodiff-opt: error: in autodiff of `sum` into `d_sum`: the signature returns `()`, but LLVM function `sum` returns double

; RUN: not %autodiff-opt %s --autodiff 'half(x: f32) -> f32=autodiff_reverse(d_half, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=WIDTH
; WIDTH: autodiff-opt: error: in autodiff of `half` into `d_half`: parameter `x` of type `f32` needs LLVM type(s) float, but LLVM function `half` has double at parameter 0

define double @sum(ptr %x.0, i64 %x.1) {
  ret double 0.0
}

define double @pair(ptr %a, ptr %b) {
  ret double 0.0
}

define double @half(double %x) {
  ret double %x
}
