; Reverse mode keeps a call to a `noinline` function a call: the forward
; sweep calls the callee's augmented half (which returns the primal result
; and a tape), the reverse sweep its reverse half with that tape; the
; callee's body is not inlined into the derivative. In a module where every
; function is `noinline` (clang -O0's marking), calls are inlined as
; before.
; O0-NOT: @augmented_h
; O0-LABEL: define internal double @diffe_f(
; O0: call {{.*}}@llvm.cos.f64

;--- kept.ll
define double @h(double %x) noinline {
  %s = call double @llvm.sin.f64(double %x)
  %m = fmul double %s, %x
  ret double %m
}
define double @f(double %x) {
  %y = call double @h(double %x)
  %z = fmul double %y, %y
  ret double %z
}
declare double @llvm.sin.f64(double)
declare double @__enzyme_autodiff(...)
define double @caller(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}

;--- o0.ll
define double @h(double %x) noinline {
  %s = call double @llvm.sin.f64(double %x)
  %m = fmul double %s, %x
  ret double %m
}
define double @f(double %x) noinline {
  %y = call double @h(double %x)
  %z = fmul double %y, %y
  ret double %z
}
declare double @llvm.sin.f64(double)
declare double @__enzyme_autodiff(...)
define double @caller(double %x) noinline {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
