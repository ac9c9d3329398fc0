; A broadcast whose lanes 2 and 3 are poison (mask <0, 0, poison, poison>),
; multiplied by infinities there, then dropped by a shuffle before the
; sum: f(s) = 2s + 3s. The reverse sweep gave the dead lanes (defined as
; copies of lane 0 before differentiation) adjoints of 0 * inf = NaN and
; summed them into ds: NaN. A shuffle's poison lanes now pass no adjoint.
; A vector.reduce.fmul: g(s) = s * (1 * s * 2 * 3) = 6 s^2, dg = 12 s.
; RUN: %autodiff-opt %s -O0 -o %t.o.ll && %clang -w %t.o.ll -o %t && %t
; RUN: %autodiff-opt %s -O2 -o %t2.o.ll && %clang -w %t2.o.ll -o %t2 && %t2
declare double @__enzyme_autodiff(ptr, ...)
declare double @llvm.vector.reduce.fadd.v4f64(double, <4 x double>)
declare double @llvm.vector.reduce.fmul.v4f64(double, <4 x double>)

define double @f(double %s) {
  %b = insertelement <4 x double> poison, double %s, i64 0
  %bc = shufflevector <4 x double> %b, <4 x double> poison, <4 x i32> <i32 0, i32 0, i32 poison, i32 poison>
  %m = fmul <4 x double> %bc, <double 2.0, double 3.0, double 0x7FF0000000000000, double 0x7FF0000000000000>
  %r = shufflevector <4 x double> %m, <4 x double> zeroinitializer, <4 x i32> <i32 0, i32 1, i32 6, i32 7>
  %red = call double @llvm.vector.reduce.fadd.v4f64(double 0.0, <4 x double> %r)
  ret double %red
}

define double @g(double %s) {
  %v = insertelement <4 x double> <double 1.0, double 0.0, double 2.0, double 3.0>, double %s, i64 1
  %p = call double @llvm.vector.reduce.fmul.v4f64(double %s, <4 x double> %v)
  ret double %p
}

define i32 @main() {
  %df = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 1.5)
  %dg = call double (ptr, ...) @__enzyme_autodiff(ptr @g, double 1.5)
  %okf = fcmp oeq double %df, 5.0
  %okg = fcmp oeq double %dg, 18.0
  %ok = and i1 %okf, %okg
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
