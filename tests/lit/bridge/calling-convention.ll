; A derivative keeps the calling convention of its primal (rustc makes
; private helpers `internal fastcc`), and every call to it uses that
; convention: a mismatch is undefined behaviour that the optimizer turns
; into `unreachable`.
; RUN: %autodiff-opt %s -O0 --derivative-fast-math=none -S -o - | FileCheck %s
; RUN: %autodiff-opt %s -O2 --derivative-fast-math=none -S -o - | FileCheck %s --check-prefix=OPT

define internal fastcc double @helper(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
define double @f(double %x) {
  %h = call fastcc double @helper(double %x)
  %r = fadd double %h, %x
  ret double %r
}
declare double @__enzyme_fwddiff(...)
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

; CHECK-LABEL: define internal double @fwddiffe_f(
; CHECK: call fastcc { double, double } @fwddiffe_helper(double %x, double %"x'")
; CHECK-LABEL: define internal fastcc { double, double } @fwddiffe_helper(
; OPT-LABEL: define double @d(
; OPT-NOT: unreachable
; OPT: ret double
