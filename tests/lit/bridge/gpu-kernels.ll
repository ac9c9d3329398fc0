; NVPTX device code from clang-22 -x cuda --cuda-device-only -nocudalib -O2
; (tests/exec/gpu runs such kernels; this checks the IR without the toolkit).
; RUN: %autodiff-opt %s -S --no-postopt -o - | FileCheck %s
;
; libdevice math: the rule of sin calls __nv_cos, rsqrt has its own.
; CHECK-LABEL: define internal {{.*}}@diffe__Z3mapPKdPdi(
; CHECK: call {{.*}}double @__nv_cos(double
; Thread-private x[i]: plain when the launch is one-dimensional.
; CHECK: %one.dimensional{{[0-9]*}} = icmp eq i32
; CHECK: accumulate.atomic{{[0-9]*}}:
; CHECK-NEXT: call void @__autodiff_warp_fadd.f64.p0(ptr
;
; Forward mode: tangents through libdevice math.
; CHECK-LABEL: define internal {{.*}}@fwddiffe__Z3mapPKdPdi(
; CHECK: call {{.*}}double @__nv_cos(double
; The gather: x[idx[i]] repeats, so its adjoint is added atomically.
; CHECK-LABEL: define internal {{.*}}@diffe__Z6gatherPKdPKiPdi(
; CHECK-NOT: one.dimensional
; CHECK: call void @__autodiff_warp_fadd.f64.p0(ptr
;
; Shared memory: its shadow is zeroed at entry; the barrier is mirrored;
; atomicAdd(out, a) gives a the adjoint of *out.
; CHECK-LABEL: define internal {{.*}}@diffe__Z8blocksumPKdPd(
; CHECK: call void @_ZZ8blocksumPKdPdE1s_shadow_zero()
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: %atomic.adjoint = load double
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
;
; CHECK: define internal void @_ZZ8blocksumPKdPdE1s_shadow_zero()
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-NOT: @__autodiff_release_tapes

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ8blocksumPKdPdE1s = internal unnamed_addr addrspace(3) global [128 x double] undef, align 8
@enzyme_dup = external dso_local local_unnamed_addr addrspace(1) global i32, align 4
@enzyme_const = external dso_local local_unnamed_addr addrspace(1) global i32, align 4

; Function Attrs: convergent mustprogress nounwind
define dso_local void @_Z3mapPKdPdi(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1, i32 noundef %2) #0 {
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %6 = mul i32 %4, %5
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %8 = add i32 %6, %7
  %9 = icmp slt i32 %8, %2
  br i1 %9, label %10, label %19

10:                                               ; preds = %3
  %11 = sext i32 %8 to i64
  %12 = getelementptr inbounds double, ptr %0, i64 %11
  %13 = load double, ptr %12, align 8, !tbaa !8
  %14 = tail call contract noundef double @__nv_sin(double noundef %13) #9
  %15 = load double, ptr %12, align 8, !tbaa !8
  %16 = tail call contract noundef double @__nv_rsqrt(double noundef %15) #9
  %17 = fadd contract double %14, %16
  %18 = getelementptr inbounds double, ptr %1, i64 %11
  store double %17, ptr %18, align 8, !tbaa !8
  br label %19

19:                                               ; preds = %10, %3
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z6gatherPKdPKiPdi(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2, i32 noundef %3) #1 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %7 = mul i32 %5, %6
  %8 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = add i32 %7, %8
  %10 = icmp slt i32 %9, %3
  br i1 %10, label %11, label %20

11:                                               ; preds = %4
  %12 = sext i32 %9 to i64
  %13 = getelementptr inbounds i32, ptr %1, i64 %12
  %14 = load i32, ptr %13, align 4, !tbaa !4
  %15 = sext i32 %14 to i64
  %16 = getelementptr inbounds double, ptr %0, i64 %15
  %17 = load double, ptr %16, align 8, !tbaa !8
  %18 = fmul contract double %17, %17
  %19 = getelementptr inbounds double, ptr %2, i64 %12
  store double %18, ptr %19, align 8, !tbaa !8
  br label %20

20:                                               ; preds = %11, %4
  ret void
}

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z8blocksumPKdPd(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1) #2 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %6 = mul i32 %4, %5
  %7 = add i32 %6, %3
  %8 = zext i32 %7 to i64
  %9 = getelementptr inbounds nuw double, ptr %0, i64 %8
  %10 = load double, ptr %9, align 8, !tbaa !8
  %11 = zext nneg i32 %3 to i64
  %12 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ8blocksumPKdPdE1s to ptr), i64 %11
  store double %10, ptr %12, align 8, !tbaa !8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %13 = icmp eq i32 %3, 0
  br i1 %13, label %16, label %44

14:                                               ; preds = %16
  %15 = atomicrmw fadd ptr %1, double %41 seq_cst, align 8
  br label %44

16:                                               ; preds = %2, %16
  %17 = phi i32 [ %42, %16 ], [ 0, %2 ]
  %18 = phi double [ %41, %16 ], [ 0.000000e+00, %2 ]
  %19 = zext nneg i32 %17 to i64
  %20 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ8blocksumPKdPdE1s to ptr), i64 %19
  %21 = load double, ptr %20, align 8, !tbaa !8
  %22 = fmul contract double %21, %21
  %23 = fadd contract double %18, %22
  %24 = zext nneg i32 %17 to i64
  %25 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ8blocksumPKdPdE1s to ptr), i64 %24
  %26 = getelementptr inbounds nuw i8, ptr %25, i64 8
  %27 = load double, ptr %26, align 8, !tbaa !8
  %28 = fmul contract double %27, %27
  %29 = fadd contract double %23, %28
  %30 = zext nneg i32 %17 to i64
  %31 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ8blocksumPKdPdE1s to ptr), i64 %30
  %32 = getelementptr inbounds nuw i8, ptr %31, i64 16
  %33 = load double, ptr %32, align 8, !tbaa !8
  %34 = fmul contract double %33, %33
  %35 = fadd contract double %29, %34
  %36 = zext nneg i32 %17 to i64
  %37 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ8blocksumPKdPdE1s to ptr), i64 %36
  %38 = getelementptr inbounds nuw i8, ptr %37, i64 24
  %39 = load double, ptr %38, align 8, !tbaa !8
  %40 = fmul contract double %39, %39
  %41 = fadd contract double %35, %40
  %42 = add nuw nsw i32 %17, 4
  %43 = icmp eq i32 %42, 128
  br i1 %43, label %14, label %16, !llvm.loop !10

44:                                               ; preds = %14, %2
  ret void
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: convergent mustprogress norecurse nounwind memory(argmem: readwrite, inaccessiblemem: readwrite)
define dso_local void @_Z7shufflePKdPd(ptr noundef readonly captures(none) %0, ptr noundef writeonly captures(none) %1) local_unnamed_addr #4 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw double, ptr %0, i64 %4
  %6 = load i64, ptr %5, align 8, !tbaa !8
  %7 = trunc i64 %6 to i32
  %8 = lshr i64 %6, 32
  %9 = trunc nuw i64 %8 to i32
  %10 = tail call noundef i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %7, i32 1, i32 31)
  %11 = tail call noundef i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %9, i32 1, i32 31)
  %12 = zext i32 %11 to i64
  %13 = shl nuw i64 %12, 32
  %14 = zext i32 %10 to i64
  %15 = or disjoint i64 %13, %14
  %16 = getelementptr inbounds nuw double, ptr %1, i64 %4
  store i64 %15, ptr %16, align 8, !tbaa !8
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @d_map(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) local_unnamed_addr #5 {
  %6 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %7 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_const to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_iiEEvPvDpT_(ptr noundef nonnull @_Z3mapPKdPdi, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, i32 noundef %7, i32 noundef %4) #9
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_iiEEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, i32 noundef) local_unnamed_addr #6

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @t_map(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4) local_unnamed_addr #5 {
  %6 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %7 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_const to ptr), align 4, !tbaa !4
  tail call void @_Z16__enzyme_fwddiffIJiPKdPdiS2_S2_iiEEvPvDpT_(ptr noundef nonnull @_Z3mapPKdPdi, i32 noundef %6, ptr noundef %0, ptr noundef %1, i32 noundef %6, ptr noundef %2, ptr noundef %3, i32 noundef %7, i32 noundef %4) #9
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z16__enzyme_fwddiffIJiPKdPdiS2_S2_iiEEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, i32 noundef) local_unnamed_addr #6

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @d_gather(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, i32 noundef %5) local_unnamed_addr #5 {
  %7 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %8 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_const to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiPKiiS2_S2_iiEEvPvDpT_(ptr noundef nonnull @_Z6gatherPKdPKiPdi, i32 noundef %7, ptr noundef %0, ptr noundef %1, i32 noundef %8, ptr noundef %2, i32 noundef %7, ptr noundef %3, ptr noundef %4, i32 noundef %8, i32 noundef %5) #9
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiPKiiS2_S2_iiEEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, i32 noundef) local_unnamed_addr #6

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @d_blocksum(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #5 {
  %5 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef nonnull @_Z8blocksumPKdPd, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #9
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef) local_unnamed_addr #6

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #7

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #7

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #7

; Function Attrs: convergent nounwind
declare dso_local double @__nv_sin(double noundef) local_unnamed_addr #6

; Function Attrs: convergent nounwind
declare dso_local double @__nv_rsqrt(double noundef) local_unnamed_addr #6

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32) #8

attributes #0 = { convergent mustprogress nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #2 = { convergent mustprogress norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { convergent mustprogress norecurse nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #5 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #6 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #7 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #8 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #9 = { convergent nounwind }

!llvm.module.flags = !{!0, !1, !2}
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
