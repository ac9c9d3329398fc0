; Derivatives keep the primal's inlining attributes, so post-optimization
; inlines no more than the primal pipeline would: a noinline helper gets a
; noinline derivative that stays a call after -O2, an alwaysinline one an
; alwaysinline derivative. clang's -O0 pair `noinline optnone` is dropped:
; derivatives are optimized whatever the primal's level.
; RUN: %autodiff-opt %s --no-postopt -S -o - | FileCheck %s --check-prefix=ATTRS
; RUN: %autodiff-opt %s -O2 -S -o - | FileCheck %s --check-prefix=O2

; ATTRS-DAG: define internal { double, double } @fwddiffe_helper(double %x, double %"x'") #[[NOINL:[0-9]+]]
; ATTRS-DAG: define internal { double, double } @fwddiffe_always(double %x, double %"x'") #[[ALWAYS:[0-9]+]]
; ATTRS-DAG: define internal { double, double } @fwddiffe_at_O0(double %x, double %"x'") #[[O0:[0-9]+]]
; ATTRS-DAG: attributes #[[NOINL]] = { noinline
; ATTRS-DAG: attributes #[[ALWAYS]] = { alwaysinline
; ATTRS-DAG: attributes #[[O0]] = { memory(readwrite) "autodiff-primal"="at_O0" }

; O2: define double @d(
; O2: call {{.*}}@fwddiffe_helper(
; O2-NOT: @fwddiffe_always

define double @helper(double %x) noinline {
  %y = fmul double %x, %x
  ret double %y
}

define double @always(double %x) alwaysinline {
  %y = fmul double %x, 3.0
  ret double %y
}

define double @at_O0(double %x) noinline optnone {
  %y = fadd double %x, %x
  ret double %y
}

define double @top(double %x) {
  %a = call double @helper(double %x)
  %b = call double @always(double %a)
  %c = call double @at_O0(double %b)
  ret double %c
}

declare double @__enzyme_fwddiff(...)
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @top, double %x, double 1.0)
  ret double %r
}
