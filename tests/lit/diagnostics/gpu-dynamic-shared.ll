; Dynamic shared memory (`extern __shared__ double buf[]`, sized by the
; launch) holding floats: its shadow would be a zero-sized array the
; launch gives no memory for (the derivative read and wrote the primal's
; own elements). A diagnostic in both modes, no output. From clang-22 -x
; cuda --cuda-device-only -nocudalib -O2 of:
;
;   __device__ void body(const double *x, double *y) {
;     extern __shared__ double buf[];
;     unsigned t = threadIdx.x;
;     buf[t] = x[t] * x[t];
;     __syncthreads();
;     y[t] = buf[(t + 1) % blockDim.x] * 3.0;
;   }
;
; RUN: not %autodiff-opt %s -o %t.bc 2>&1 | FileCheck %s
; RUN: not test -e %t.bc
; CHECK: error: in function `_Z4bodyPKdPd` (while generating `diffe__Z4bodyPKdPd`), `addrspacecast`: dynamic shared memory (`extern __shared__` array @buf) holding floating-point data is not supported
; CHECK: error: in function `_Z4bodyPKdPd` (while generating `fwddiffe__Z4bodyPKdPd`), `addrspacecast`: dynamic shared memory

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = external dso_local local_unnamed_addr addrspace(3) global [0 x double], align 8
@enzyme_dup = external dso_local local_unnamed_addr addrspace(1) global i32, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z4bodyPKdPd(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw double, ptr %0, i64 %4
  %6 = load double, ptr %5, align 8, !tbaa !8
  %7 = fmul contract double %6, %6
  %8 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @buf to ptr), i64 %4
  store double %7, ptr %8, align 8, !tbaa !8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %10 = trunc nuw nsw i32 %3 to i16
  %11 = add nuw nsw i16 %10, 1
  %12 = trunc nuw nsw i32 %9 to i16
  %13 = urem i16 %11, %12
  %14 = zext nneg i16 %13 to i64
  %15 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @buf to ptr), i64 %14
  %16 = load double, ptr %15, align 8, !tbaa !8
  %17 = fmul contract double %16, 3.000000e+00
  %18 = getelementptr inbounds nuw double, ptr %1, i64 %4
  store double %17, ptr %18, align 8, !tbaa !8
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z8gradientPKdPdS1_S1_(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #2 {
  %5 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef nonnull @_Z4bodyPKdPd, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #5
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef) local_unnamed_addr #3

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z7tangentPKdPdS1_S1_(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #2 {
  %5 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %6 = tail call contract noundef double @_Z16__enzyme_fwddiffIJiPKdPdiS2_S2_EEdPvDpT_(ptr noundef nonnull @_Z4bodyPKdPd, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #5
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local noundef double @_Z16__enzyme_fwddiffIJiPKdPdiS2_S2_EEdPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef) local_unnamed_addr #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #4

attributes #0 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #1 = { convergent nocallback nounwind }
attributes #2 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #3 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #4 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #5 = { convergent nounwind }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!llvm.errno.tbaa = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!2 = !{i32 7, !"frame-pointer", i32 2}
!3 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C++ TBAA"}
!8 = !{!9, !9, i64 0}
!9 = !{!"double", !6, i64 0}
