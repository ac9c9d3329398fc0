; Versioning on disjoint arguments in GPU device code: a pair loop reading
; px and m and writing ax and ay after it gets a copy of its body taken
; when, in this thread, the bytes read and written do not overlap (the
; ranges use the thread's own index, read at the entry); there nothing is
; cached per iteration. A body with a barrier is left as it is: threads
; could take different copies, and a barrier must be reached by all (its
; loads are cached: the stores after the loop may change them; the barrier
; itself writes nothing).
; From clang-22 -x cuda --cuda-device-only -nocudalib -O2 of:
;
;   __device__ void pairs(const float *px, const float *m, float *ax,
;                         float *ay, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i >= n) return;
;     float f = 0.f, g = 0.f;
;     for (int j = 0; j < n; ++j) {
;       float d = px[j] - px[i];
;       float r = rsqrtf(d * d + 0.25f);
;       f += m[j] * d * r;
;       g += m[j] * r;
;     }
;     ax[i] = f;
;     ay[i] = g;
;   }
;   // pairs_sync: the same loop with __syncthreads() in its body.
;
; UNSUPPORTED: sanitizers
; RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-tape>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; CHECK-LABEL: tape of diffe__Z5pairsPKfS0_PfS1_i
; CHECK-NEXT: versioned on disjoint arguments
; CHECK: loop %bb{{[0-9]+}} (depth 1): nothing cached per iteration
; CHECK-LABEL: tape of diffe__Z10pairs_syncPKfS0_PfS1_i
; CHECK-NOT: versioned
; CHECK: loop %bb{{[0-9]+}} (depth 1): 4 values, 16 bytes per iteration, reserved once per entry (trip count known at entry); in the thread's local memory up to 64 iterations, beyond that on the device heap
; CHECK: because: a later write may change the memory it read: store float

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@enzyme_dup = external dso_local local_unnamed_addr addrspace(1) global i32, align 4
@enzyme_const = external dso_local local_unnamed_addr addrspace(1) global i32, align 4

; Function Attrs: convergent mustprogress nounwind
define dso_local void @_Z5pairsPKfS0_PfS1_i(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2, ptr noundef writeonly captures(none) %3, i32 noundef %4) #0 {
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %8 = mul i32 %6, %7
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %10 = add i32 %8, %9
  %11 = icmp slt i32 %10, %4
  br i1 %11, label %12, label %43

12:                                               ; preds = %5
  %13 = icmp sgt i32 %4, 0
  %14 = sext i32 %10 to i64
  br i1 %13, label %15, label %17

15:                                               ; preds = %12
  %16 = getelementptr inbounds float, ptr %0, i64 %14
  br label %22

17:                                               ; preds = %22, %12
  %18 = phi float [ 0.000000e+00, %12 ], [ %40, %22 ]
  %19 = phi float [ 0.000000e+00, %12 ], [ %38, %22 ]
  %20 = getelementptr inbounds float, ptr %2, i64 %14
  store float %19, ptr %20, align 4, !tbaa !8
  %21 = getelementptr inbounds float, ptr %3, i64 %14
  store float %18, ptr %21, align 4, !tbaa !8
  br label %43

22:                                               ; preds = %15, %22
  %23 = phi float [ 0.000000e+00, %15 ], [ %38, %22 ]
  %24 = phi i32 [ 0, %15 ], [ %41, %22 ]
  %25 = phi float [ 0.000000e+00, %15 ], [ %40, %22 ]
  %26 = zext nneg i32 %24 to i64
  %27 = getelementptr inbounds nuw float, ptr %0, i64 %26
  %28 = load float, ptr %27, align 4, !tbaa !8
  %29 = load float, ptr %16, align 4, !tbaa !8
  %30 = fsub contract float %28, %29
  %31 = fmul contract float %30, %30
  %32 = fadd contract float %31, 2.500000e-01
  %33 = tail call contract noundef float @__nv_rsqrtf(float noundef %32) #5
  %34 = getelementptr inbounds nuw float, ptr %1, i64 %26
  %35 = load float, ptr %34, align 4, !tbaa !8
  %36 = fmul contract float %30, %35
  %37 = fmul contract float %33, %36
  %38 = fadd contract float %23, %37
  %39 = fmul contract float %33, %35
  %40 = fadd contract float %25, %39
  %41 = add nuw nsw i32 %24, 1
  %42 = icmp eq i32 %41, %4
  br i1 %42, label %17, label %22, !llvm.loop !10

43:                                               ; preds = %5, %17
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define dso_local void @_Z10pairs_syncPKfS0_PfS1_i(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2, ptr noundef writeonly captures(none) %3, i32 noundef %4) #0 {
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %8 = mul i32 %6, %7
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %10 = add i32 %8, %9
  %11 = icmp sgt i32 %4, 0
  %12 = sext i32 %10 to i64
  br i1 %11, label %13, label %15

13:                                               ; preds = %5
  %14 = getelementptr inbounds float, ptr %0, i64 %12
  br label %20

15:                                               ; preds = %20, %5
  %16 = phi float [ 0.000000e+00, %5 ], [ %38, %20 ]
  %17 = phi float [ 0.000000e+00, %5 ], [ %36, %20 ]
  %18 = getelementptr inbounds float, ptr %2, i64 %12
  store float %17, ptr %18, align 4, !tbaa !8
  %19 = getelementptr inbounds float, ptr %3, i64 %12
  store float %16, ptr %19, align 4, !tbaa !8
  ret void

20:                                               ; preds = %13, %20
  %21 = phi float [ 0.000000e+00, %13 ], [ %36, %20 ]
  %22 = phi float [ 0.000000e+00, %13 ], [ %38, %20 ]
  %23 = phi i32 [ 0, %13 ], [ %39, %20 ]
  %24 = zext nneg i32 %23 to i64
  %25 = getelementptr inbounds nuw float, ptr %0, i64 %24
  %26 = load float, ptr %25, align 4, !tbaa !8
  %27 = load float, ptr %14, align 4, !tbaa !8
  %28 = fsub contract float %26, %27
  %29 = fmul contract float %28, %28
  %30 = fadd contract float %29, 2.500000e-01
  %31 = tail call contract noundef float @__nv_rsqrtf(float noundef %30) #5
  %32 = getelementptr inbounds nuw float, ptr %1, i64 %24
  %33 = load float, ptr %32, align 4, !tbaa !8
  %34 = fmul contract float %28, %33
  %35 = fmul contract float %31, %34
  %36 = fadd contract float %21, %35
  %37 = fmul contract float %31, %33
  %38 = fadd contract float %22, %37
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %39 = add nuw nsw i32 %23, 1
  %40 = icmp eq i32 %39, %4
  br i1 %40, label %15, label %20, !llvm.loop !12
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z2k1PKfPfS0_S1_S1_S1_S1_S1_i(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr noundef %5, ptr noundef %6, ptr noundef %7, i32 noundef %8) local_unnamed_addr #2 {
  %10 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %11 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_const to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKfPfiS1_S2_iS2_S2_iS2_S2_iiEEvPvDpT_(ptr noundef nonnull @_Z5pairsPKfS0_PfS1_i, i32 noundef %10, ptr noundef %0, ptr noundef %1, i32 noundef %10, ptr noundef %2, ptr noundef %3, i32 noundef %10, ptr noundef %4, ptr noundef %5, i32 noundef %10, ptr noundef %6, ptr noundef %7, i32 noundef %11, i32 noundef %8) #5
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKfPfiS1_S2_iS2_S2_iS2_S2_iiEEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, i32 noundef) local_unnamed_addr #3

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z2k2PKfPfS0_S1_S1_S1_S1_S1_i(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr noundef %5, ptr noundef %6, ptr noundef %7, i32 noundef %8) local_unnamed_addr #2 {
  %10 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %11 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_const to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKfPfiS1_S2_iS2_S2_iS2_S2_iiEEvPvDpT_(ptr noundef nonnull @_Z10pairs_syncPKfS0_PfS1_i, i32 noundef %10, ptr noundef %0, ptr noundef %1, i32 noundef %10, ptr noundef %2, ptr noundef %3, i32 noundef %10, ptr noundef %4, ptr noundef %5, i32 noundef %10, ptr noundef %6, ptr noundef %7, i32 noundef %11, i32 noundef %8) #5
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4

; Function Attrs: convergent nounwind
declare dso_local float @__nv_rsqrtf(float noundef) local_unnamed_addr #3

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
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
!9 = !{!"float", !6, i64 0}
!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.mustprogress"}
!12 = distinct !{!12, !11}
