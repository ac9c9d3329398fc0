; Activities checked against the signature, with rustc's wording.
; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(d_f, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=COUNT
; COUNT: autodiff-opt: error: in autodiff of `f`: expected 4 activities, but found 2

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(d_f, Dual, Const, Const, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DUAL
; DUAL: autodiff-opt: error: in autodiff of `f`: Dual can not be used in Reverse Mode

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_forward(d_f, Active, Const, Const, Dual)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ACTIVE-FWD
; ACTIVE-FWD: autodiff-opt: error: in autodiff of `f`: Active can not be used in Forward Mode

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(d_f, Active, Const, Const, Duplicated)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RET
; RET: autodiff-opt: error: in autodiff of `f`: invalid return activity Duplicated in Reverse Mode

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(d_f, Active, Active, Const, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ACTIVE-PTR
; ACTIVE-PTR: autodiff-opt: error: in autodiff of `f`: Active can not be used for this type: parameter `p` has type `*mut {{.*}}`; only floating-point values can be Active

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(d_f, Duplicated, Const, Const, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DUP-FLOAT
; DUP-FLOAT: autodiff-opt: error: in autodiff of `f`: Duplicated can not be used for this type: parameter `x` has type `f64`; only pointers, references and slices can be Duplicated

; With a Rust signature the types are the declared ones.
; RUN: not %autodiff-opt %s --autodiff 'f(x: f64, p: &[f64]) -> f64=autodiff_reverse(d_f, Active, Active, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ACTIVE-SLICE
; ACTIVE-SLICE: autodiff-opt: error: in autodiff of `f`: Active can not be used for this type: parameter `p` has type `&[f64]`; only floating-point values can be Active

; RUN: not %autodiff-opt %s --autodiff 'f=autodiff_reverse(d_f, 65, Active, Const, Const, Active)' 2>&1 \
; RUN:   | FileCheck %s --check-prefix=REV-WIDTH
; REV-WIDTH: autodiff-opt: error: in autodiff of `f`: width 65 is larger than the supported maximum of 64

define double @f(double %x, ptr %p, i64 %n) {
  ret double %x
}
