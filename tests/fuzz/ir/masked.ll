; Masked loads and stores, gathers and scatters act on the shadows under
; the same mask, keeping their alignment attributes.

declare void @__enzyme_fwddiff(...)

define void @k(ptr %y, ptr %x, <4 x i1> %m, <4 x i64> %idx) {
  %v = call <4 x double> @llvm.masked.load.v4f64.p0(ptr align 8 %x, <4 x i1> %m, <4 x double> zeroinitializer)
  %sq = fmul <4 x double> %v, %v
  call void @llvm.masked.store.v4f64.p0(<4 x double> %sq, ptr align 8 %y, <4 x i1> %m)
  %ps = getelementptr double, ptr %x, <4 x i64> %idx
  %g = call <4 x double> @llvm.masked.gather.v4f64.v4p0(<4 x ptr> align 8 %ps, <4 x i1> %m, <4 x double> poison)
  %pd = getelementptr double, ptr %y, <4 x i64> %idx
  call void @llvm.masked.scatter.v4f64.v4p0(<4 x double> %g, <4 x ptr> align 8 %pd, <4 x i1> %m)
  ret void
}

define void @d(ptr %y, ptr %dy, ptr %x, ptr %dx, <4 x i1> %m, <4 x i64> %idx) {
  call void (...) @__enzyme_fwddiff(ptr @k, ptr %y, ptr %dy, ptr %x, ptr %dx, metadata !"enzyme_const", <4 x i1> %m, metadata !"enzyme_const", <4 x i64> %idx)
  ret void
}

