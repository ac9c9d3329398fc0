; A variadic function reading an active value with va_arg is not inlined;
; the diagnostic says so (it once called the call recursive).
; RUN: not %autodiff-opt %s -o %t.ll 2>&1 | FileCheck %s
; RUN: not test -e %t.ll
; CHECK: error: in function `f` (while generating `diffe_f`), call to `sq1`: reverse mode does not yet support a call with active arguments to the variadic function `sq1` (va_arg on active values is not differentiated)
; CHECK-NEXT: {{^}}  instruction: %r = call double (i32, ...) @sq1(i32 1, double %x)

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
