; Forward mode: a vectorized select between an inactive pointer (no shadow)
; and an active one, then a masked gather, as clang -O3 -march=native makes
; of `y[i] = (i & 1) ? x[i] : z[i]`. The inactive lanes' shadow is the zero
; arena, as for a scalar pointer; it was a null vector, and the gather of
; the tangents read near address 0 (segfault).
; RUN: %autodiff-opt %s -o %t.ll
; RUN: %clang %t.ll -o %t && %t

define void @mix(ptr %x, ptr %z, ptr %y) {
  %x0 = insertelement <4 x ptr> poison, ptr %x, i64 0
  %xs = shufflevector <4 x ptr> %x0, <4 x ptr> poison, <4 x i32> zeroinitializer
  %z0 = insertelement <4 x ptr> poison, ptr %z, i64 0
  %zs = shufflevector <4 x ptr> %z0, <4 x ptr> poison, <4 x i32> zeroinitializer
  %xg = getelementptr double, <4 x ptr> %xs, <4 x i64> <i64 0, i64 1, i64 2, i64 3>
  %zg = getelementptr double, <4 x ptr> %zs, <4 x i64> <i64 0, i64 1, i64 2, i64 3>
  %sel = select <4 x i1> <i1 false, i1 true, i1 false, i1 true>, <4 x ptr> %xg, <4 x ptr> %zg
  %v = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> %sel, i32 8, <4 x i1> splat (i1 true), <4 x double> poison)
  store <4 x double> %v, ptr %y, align 8
  ret void
}

declare <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x double>)
declare void @__enzyme_fwddiff(...)

@enzyme_const = external global i32
@enzyme_dup = external global i32

define i32 @main() {
  %x = alloca [4 x double]
  %z = alloca [4 x double]
  %dz = alloca [4 x double]
  %y = alloca [4 x double]
  %dy = alloca [4 x double]
  store <4 x double> <double 1.5, double 2.5, double 3.5, double 4.5>, ptr %x, align 8
  store <4 x double> <double -1.25, double 0.5, double 2.0, double 7.0>, ptr %z, align 8
  store <4 x double> <double 10.0, double 11.0, double 12.0, double 13.0>, ptr %dz, align 8
  store <4 x double> <double 9.0, double 9.0, double 9.0, double 9.0>, ptr %dy, align 8
  call void (...) @__enzyme_fwddiff(ptr @mix, metadata !"enzyme_const", ptr %x, metadata !"enzyme_dup", ptr %z, ptr %dz, metadata !"enzyme_dup", ptr %y, ptr %dy)
  %t = load <4 x double>, ptr %dy, align 8
  %ok = fcmp oeq <4 x double> %t, <double 10.0, double 0.0, double 12.0, double 0.0>
  %all = call i1 @llvm.vector.reduce.and.v4i1(<4 x i1> %ok)
  %r = select i1 %all, i32 0, i32 1
  ret i32 %r
}

declare i1 @llvm.vector.reduce.and.v4i1(<4 x i1>)
