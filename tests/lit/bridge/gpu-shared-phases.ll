; Shared-memory accesses no other thread of the block touches between the
; same two barriers get plain adjoint updates (when the block is
; one-dimensional, checked at run time), others atomic ones
; (enzyme_bridge/GpuSharedAccesses.h). From clang-22 -x cuda
; --cuda-device-only -nocudalib -O2 of:
;
;   __device__ void tree(const double *x, double *y) {
;     __shared__ double a[128];
;     unsigned t = threadIdx.x;
;     a[t] = x[t] * x[t];
;     __syncthreads();
;     for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
;       if (t < s) a[t] += a[t + s];
;       __syncthreads();
;     }
;     if (t == 0) *y = a[0];
;   }
;   // `loaded`: the same step once with `unsigned s = *sp;` (not known to
;   // be the same in every thread); `everyone`: `c[t] = x[t];
;   // __syncthreads(); y[t] = c[0] * x[t];` (every thread reads c[0]).
;
; RUN: %autodiff-opt %s -S --no-postopt -o - | FileCheck %s
;
; The tree's a[t + s] and a[t] under `t < s`, and a[0] read by thread 0
; alone: three plain updates.
; The check is on the block's shape only (the array is the block's own).
; CHECK-LABEL: define internal void @diffe__Z4treePKdPd(
; CHECK-NOT: nctaid
; CHECK: %one.dimensional = icmp eq i32
; CHECK: accumulate.plain:
; CHECK: accumulate.plain{{[0-9]+}}:
; CHECK: accumulate.plain{{[0-9]+}}:
; A stride loaded from memory: a[t + s] and a[t] are atomic; a[0] under
; `t == 0` is still thread 0's.
; CHECK-LABEL: define internal void @diffe__Z6loadedPKdPdPKj(
; CHECK: accumulate.plain:
; CHECK-NOT: accumulate.plain{{[0-9]+}}:
; Every thread reads c[0]: atomic (warp-aggregated), nothing plain.
; CHECK-LABEL: define internal void @diffe__Z8everyonePKdPd(
; CHECK-NOT: accumulate.plain
; CHECK: call void @__autodiff_warp_fadd.f64.p0(ptr
; CHECK-LABEL: define internal void @diffe__Z4treePKdPd.tape.reserve.0(
; The stride loop's tape stays in the thread's local buffers unless it
; outgrows them: the heap arrays are freed only then, with no call of
; free(null) by every thread.
; CHECK-LABEL: define internal void @diffe__Z4treePKdPd.tape.release.0(
; CHECK: %[[LOCAL:[0-9]+]] = icmp eq i64 %{{[0-9]+}}, 64
; CHECK-NEXT: br i1 %[[LOCAL]], label %freed, label %free.heap
; CHECK: free.heap:
; CHECK-NEXT: call void @free(ptr

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ4treePKdPdE1a = internal unnamed_addr addrspace(3) global [128 x double] undef, align 8
@_ZZ6loadedPKdPdPKjE1b = internal unnamed_addr addrspace(3) global [128 x double] undef, align 8
@_ZZ8everyonePKdPdE1c = internal unnamed_addr addrspace(3) global [128 x double] undef, align 8
@enzyme_dup = external dso_local local_unnamed_addr addrspace(1) global i32, align 4
@enzyme_const = external dso_local local_unnamed_addr addrspace(1) global i32, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z4treePKdPd(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw double, ptr %0, i64 %4
  %6 = load double, ptr %5, align 8, !tbaa !8
  %7 = fmul contract double %6, %6
  %8 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ4treePKdPdE1a to ptr), i64 %4
  store double %7, ptr %8, align 8, !tbaa !8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %10 = lshr i32 %9, 1
  %11 = icmp eq i32 %10, 0
  br i1 %11, label %12, label %14

12:                                               ; preds = %24, %2
  %13 = icmp eq i32 %3, 0
  br i1 %13, label %27, label %29

14:                                               ; preds = %2, %24
  %15 = phi i32 [ %25, %24 ], [ %10, %2 ]
  %16 = icmp samesign ult i32 %3, %15
  br i1 %16, label %17, label %24

17:                                               ; preds = %14
  %18 = add nuw nsw i32 %15, %3
  %19 = zext nneg i32 %18 to i64
  %20 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ4treePKdPdE1a to ptr), i64 %19
  %21 = load double, ptr %20, align 8, !tbaa !8
  %22 = load double, ptr %8, align 8, !tbaa !8
  %23 = fadd contract double %21, %22
  store double %23, ptr %8, align 8, !tbaa !8
  br label %24

24:                                               ; preds = %17, %14
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %25 = lshr i32 %15, 1
  %26 = icmp eq i32 %25, 0
  br i1 %26, label %12, label %14, !llvm.loop !10

27:                                               ; preds = %12
  %28 = load double, ptr addrspacecast (ptr addrspace(3) @_ZZ4treePKdPdE1a to ptr), align 8, !tbaa !8
  store double %28, ptr %1, align 8, !tbaa !8
  br label %29

29:                                               ; preds = %27, %12
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z6loadedPKdPdPKj(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, ptr noundef readonly captures(none) %2) #0 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %5 = zext nneg i32 %4 to i64
  %6 = getelementptr inbounds nuw double, ptr %0, i64 %5
  %7 = load double, ptr %6, align 8, !tbaa !8
  %8 = fmul contract double %7, %7
  %9 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ6loadedPKdPdPKjE1b to ptr), i64 %5
  store double %8, ptr %9, align 8, !tbaa !8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %10 = load i32, ptr %2, align 4, !tbaa !4
  %11 = icmp ult i32 %4, %10
  br i1 %11, label %12, label %19

12:                                               ; preds = %3
  %13 = add i32 %10, %4
  %14 = zext i32 %13 to i64
  %15 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ6loadedPKdPdPKjE1b to ptr), i64 %14
  %16 = load double, ptr %15, align 8, !tbaa !8
  %17 = load double, ptr %9, align 8, !tbaa !8
  %18 = fadd contract double %16, %17
  store double %18, ptr %9, align 8, !tbaa !8
  br label %19

19:                                               ; preds = %12, %3
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %20 = icmp eq i32 %4, 0
  br i1 %20, label %21, label %23

21:                                               ; preds = %19
  %22 = load double, ptr addrspacecast (ptr addrspace(3) @_ZZ6loadedPKdPdPKjE1b to ptr), align 8, !tbaa !8
  store double %22, ptr %1, align 8, !tbaa !8
  br label %23

23:                                               ; preds = %21, %19
  ret void
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z8everyonePKdPd(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) #0 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw double, ptr %0, i64 %4
  %6 = load double, ptr %5, align 8, !tbaa !8
  %7 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ8everyonePKdPdE1c to ptr), i64 %4
  store double %6, ptr %7, align 8, !tbaa !8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %8 = load double, ptr addrspacecast (ptr addrspace(3) @_ZZ8everyonePKdPdE1c to ptr), align 8, !tbaa !8
  %9 = load double, ptr %5, align 8, !tbaa !8
  %10 = fmul contract double %8, %9
  %11 = getelementptr inbounds nuw double, ptr %1, i64 %4
  store double %10, ptr %11, align 8, !tbaa !8
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z2k1PKdPdS1_S1_(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #2 {
  %5 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef nonnull @_Z4treePKdPd, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #5
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef) local_unnamed_addr #3

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z2k2PKdPdS1_S1_PKj(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4) local_unnamed_addr #2 {
  %6 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %7 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_const to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_iPKjEEvPvDpT_(ptr noundef nonnull @_Z6loadedPKdPdPKj, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, i32 noundef %7, ptr noundef %4) #5
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_iPKjEEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef) local_unnamed_addr #3

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @_Z2k3PKdPdS1_S1_(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #2 {
  %5 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef nonnull @_Z8everyonePKdPd, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #5
  ret void
}

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
!10 = distinct !{!10, !11}
!11 = !{!"llvm.loop.mustprogress"}
