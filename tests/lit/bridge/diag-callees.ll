; Calls with active arguments that nothing can differentiate, where the
; callee has no name one could register a derivative for: each has its own
; message, never "register __enzyme_register_derivative_<something odd>".
; DEFINE: %{check} = FileCheck %s --implicit-check-not=register_derivative_inline --implicit-check-not=register_derivative___ --implicit-check-not=register_derivative_)
; RUN: split-file %s %t
; RUN: not %autodiff-opt %t/asm.ll -o /dev/null 2>&1 | %{check} --check-prefix=ASM
; RUN: not %autodiff-opt %t/entry.ll -o /dev/null 2>&1 | %{check} --check-prefix=ENTRY
; RUN: not %autodiff-opt %t/unnamed.ll -o /dev/null 2>&1 | %{check} --check-prefix=UNNAMED
; RUN: not %autodiff-opt %t/intrinsic.ll -o /dev/null 2>&1 | %{check} --check-prefix=INTRINSIC
; RUN: %autodiff-opt %t/barrier.ll -O0 -S -o - | FileCheck %s --check-prefix=BARRIER

;--- asm.ll
; Inline assembly on active data, even an empty one that passes its input
; through (it launders x into r).
; ASM: autodiff-opt: error: in function `f` (while generating `fwddiffe_f`), inline assembly: inline assembly on active data cannot be differentiated; move it into a function and register a custom derivative for that function with __enzyme_register_derivative_NAME, or mark that function inactive
; ASM-NEXT: {{^}}  instruction: %r = call double asm "", "=x,0"(double %x){{$}}
declare double @__enzyme_fwddiff(...)
define double @f(double %x) {
  %r = call double asm "", "=x,0"(double %x)
  ret double %r
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

;--- barrier.ll
; An empty asm without results is a compiler barrier: nothing to do.
; BARRIER: define internal double @fwddiffe_f(
declare double @__enzyme_fwddiff(...)
define double @f(double %x) {
  call void asm sideeffect "", "~{memory}"()
  %m = fmul double %x, %x
  ret double %m
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

;--- entry.ll
; Another entry point of the Enzyme interface inside differentiated code.
; ENTRY: autodiff-opt: error: in function `f` (while generating `fwddiffe_f`), call to `__enzyme_iter`: `__enzyme_iter` is part of the Enzyme interface, not a function to differentiate; it is not supported inside code being differentiated
declare double @__enzyme_fwddiff(...)
declare double @__enzyme_iter(...)
define double @g(double %x) {
  ret double %x
}
define double @f(double %x) {
  %t = call double (...) @__enzyme_iter(ptr @g, double %x)
  ret double %t
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

;--- unnamed.ll
; UNNAMED: autodiff-opt: error: in function `f` (while generating `fwddiffe_f`), call to an unnamed function: no derivative rule for a call to an unnamed function, which receives active values; if it cannot affect derivatives, mark it inactive (the "enzyme_inactive" attribute or __enzyme_inactivefn), or give its definition to the module{{$}}
declare double @__enzyme_fwddiff(...)
declare double @0(double)
define double @f(double %x) {
  %r = call double @0(double %x)
  ret double %r
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

;--- intrinsic.ll
; An intrinsic without a rule: no registration advice (one cannot register
; a derivative for an intrinsic).
; INTRINSIC: autodiff-opt: error: in function `f` (while generating `fwddiffe_f`), call to `llvm.arithmetic.fence.f64`: no derivative rule for intrinsic `llvm.arithmetic.fence.f64`{{$}}
declare double @__enzyme_fwddiff(...)
declare double @llvm.arithmetic.fence.f64(double)
define double @f(double %x) {
  %r = call double @llvm.arithmetic.fence.f64(double %x)
  ret double %r
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}
