; A variadic function reading an active value with va_arg is not inlined;
; the diagnostic says so (it once called the call recursive).

define internal double @sq1(i32 %n, ...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  %v = va_arg ptr %ap, double
  call void @llvm.va_end.p0(ptr %ap)
  %m = fmul double %v, %v
  ret double %m
}

define double @f(double %x) {
  %r = call double (i32, ...) @sq1(i32 1, double %x)
  ret double %r
}

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare double @__enzyme_autodiff(...)
define double @d(double %x) {
  %g = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}
