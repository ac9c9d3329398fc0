; Dynamic parallelism (a kernel launched from device code) and cooperative
; groups' grid-wide sync (inline assembly on the grid workspace) in reverse
; mode: diagnostics. (clang-22 -x cuda -fgpu-rdc --cuda-device-only -O2.)
; RUN: not %autodiff-opt %s -o %t.bc 2>&1 | FileCheck %s
; RUN: not test -e %t.bc
; CHECK-DAG: error: in function `_Z8launchesPKdPd` (while generating `diffe__Z8launchesPKdPd`), call to `__cudaCDP2GetParameterBuffer`: dynamic parallelism (a kernel launched from device code, `__cudaCDP2GetParameterBuffer`) is not supported
; CHECK-DAG: error: in function `_Z8gridsyncPKdPd` (while generating `diffe__Z8gridsyncPKdPd`), inline assembly: cooperative groups' grid-wide synchronization (inline assembly on the cooperative launch's grid workspace, %envreg) is not supported

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.dim3 = type { i32, i32, i32 }

@enzyme_dup = external dso_local local_unnamed_addr addrspace(1) global i32, align 4

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local ptx_kernel void @_Z5childPd(ptr noundef captures(none) %0) #0 {
  %2 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %3 = zext nneg i32 %2 to i64
  %4 = getelementptr inbounds nuw double, ptr %0, i64 %3
  %5 = load double, ptr %4, align 8, !tbaa !8
  %6 = fmul contract double %5, 2.000000e+00
  store double %6, ptr %4, align 8, !tbaa !8
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define dso_local void @_Z8launchesPKdPd(ptr noundef readonly captures(none) %0, ptr noundef %1) #1 {
  %3 = alloca %struct.dim3, align 8
  %4 = alloca %struct.dim3, align 8
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = zext nneg i32 %5 to i64
  %7 = getelementptr inbounds nuw double, ptr %0, i64 %6
  %8 = load double, ptr %7, align 8, !tbaa !8
  %9 = fmul contract double %8, %8
  %10 = getelementptr inbounds nuw double, ptr %1, i64 %6
  store double %9, ptr %10, align 8, !tbaa !8
  %11 = tail call noundef ptr @__cudaCDP2GetParameterBuffer(i64 noundef 64, i64 noundef 8) #8
  %12 = icmp eq ptr %11, null
  br i1 %12, label %19, label %13

13:                                               ; preds = %2
  store ptr %1, ptr %11, align 64, !tbaa !10
  call void @llvm.lifetime.start.p0(ptr nonnull %4)
  call void @llvm.lifetime.start.p0(ptr nonnull %3)
  store i32 32, ptr %3, align 8
  %14 = getelementptr inbounds nuw i8, ptr %3, i64 4
  store i32 1, ptr %14, align 4
  %15 = getelementptr inbounds nuw i8, ptr %3, i64 8
  store i32 1, ptr %15, align 8
  store i32 1, ptr %4, align 8
  %16 = getelementptr inbounds nuw i8, ptr %4, i64 4
  store i32 1, ptr %16, align 4
  %17 = getelementptr inbounds nuw i8, ptr %4, i64 8
  store i32 1, ptr %17, align 8
  %18 = tail call noundef i32 @__cudaCDP2LaunchDevice(ptr noundef nonnull @_Z5childPd, ptr noundef nonnull %11, ptr noundef nonnull byval(%struct.dim3) align 4 %4, ptr noundef nonnull byval(%struct.dim3) align 4 %3, i32 noundef 0, ptr noundef null) #8
  call void @llvm.lifetime.end.p0(ptr nonnull %4)
  call void @llvm.lifetime.end.p0(ptr nonnull %3)
  br label %19

19:                                               ; preds = %13, %2
  ret void
}

; Function Attrs: convergent mustprogress nounwind
define dso_local void @_Z8gridsyncPKdPd(ptr noundef readonly captures(none) %0, ptr noundef captures(none) %1) #1 {
  %3 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = getelementptr inbounds nuw double, ptr %0, i64 %4
  %6 = load double, ptr %5, align 8, !tbaa !8
  %7 = fmul contract double %6, 3.000000e+00
  %8 = getelementptr inbounds nuw double, ptr %1, i64 %4
  store double %7, ptr %8, align 8, !tbaa !8
  %9 = tail call noundef i32 asm "mov.u32 $0, %envreg2;", "=r"() #9, !srcloc !13
  %10 = zext i32 %9 to i64
  %11 = tail call noundef i32 asm "mov.u32 $0, %envreg1;", "=r"() #9, !srcloc !14
  %12 = zext i32 %11 to i64
  %13 = shl nuw i64 %12, 32
  %14 = or disjoint i64 %13, %10
  %15 = icmp eq i64 %14, 0
  br i1 %15, label %16, label %17

16:                                               ; preds = %2
  tail call void @llvm.trap()
  unreachable

17:                                               ; preds = %2
  %18 = inttoptr i64 %14 to ptr
  %19 = getelementptr inbounds nuw i8, ptr %18, i64 4
  tail call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
  %20 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %21 = add nuw nsw i32 %3, %20
  %22 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.z()
  %23 = sub nsw i32 0, %22
  %24 = icmp eq i32 %21, %23
  br i1 %24, label %25, label %44

25:                                               ; preds = %17
  %26 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %27 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
  %28 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
  %29 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %30 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %31 = add nuw i32 %29, %30
  %32 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.z()
  %33 = sub nsw i32 0, %32
  %34 = icmp eq i32 %31, %33
  %35 = mul i32 %26, %27
  %36 = mul i32 %35, %28
  %37 = sub i32 -2147483647, %36
  %38 = select i1 %34, i32 %37, i32 1
  %39 = tail call i32 asm sideeffect "atom.add.release.gpu.u32 $0,[$1],$2;", "=r,l,r,~{memory}"(ptr nonnull %19, i32 %38) #8, !srcloc !15
  br label %40

40:                                               ; preds = %25, %40
  %41 = tail call i32 asm sideeffect "ld.acquire.gpu.u32 $0,[$1];", "=r,l,~{memory}"(ptr nonnull %19) #8, !srcloc !16
  %42 = xor i32 %41, %39
  %43 = icmp slt i32 %42, 0
  br i1 %43, label %44, label %40, !llvm.loop !17

44:                                               ; preds = %40, %17
  tail call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
  %45 = load double, ptr %0, align 8, !tbaa !8
  %46 = load double, ptr %8, align 8, !tbaa !8
  %47 = fadd contract double %45, %46
  store double %47, ptr %8, align 8, !tbaa !8
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #2

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @d_launches(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #3 {
  %5 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef nonnull @_Z8launchesPKdPd, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #8
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef) local_unnamed_addr #4

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @d_gridsync(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3) local_unnamed_addr #3 {
  %5 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_EEvPvDpT_(ptr noundef nonnull @_Z8gridsyncPKdPd, i32 noundef %5, ptr noundef %0, ptr noundef %1, i32 noundef %5, ptr noundef %2, ptr noundef %3) #8
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #5

; Function Attrs: convergent nounwind
declare dso_local ptr @__cudaCDP2GetParameterBuffer(i64 noundef, i64 noundef) local_unnamed_addr #4

; Function Attrs: convergent nounwind
declare dso_local i32 @__cudaCDP2LaunchDevice(ptr noundef, ptr noundef, ptr noundef byval(%struct.dim3) align 4, ptr noundef byval(%struct.dim3) align 4, i32 noundef, ptr noundef) local_unnamed_addr #4

; Function Attrs: cold noreturn nounwind memory(inaccessiblemem: write)
declare void @llvm.trap() #6

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.all(i32) #7

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 64) i32 @llvm.nvvm.read.ptx.sreg.tid.z() #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 65536) i32 @llvm.nvvm.read.ptx.sreg.nctaid.y() #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 65536) i32 @llvm.nvvm.read.ptx.sreg.nctaid.z() #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.z() #5

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { convergent mustprogress nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #4 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #5 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #6 = { cold noreturn nounwind memory(inaccessiblemem: write) }
attributes #7 = { convergent nocallback nounwind }
attributes #8 = { convergent nounwind }
attributes #9 = { convergent nounwind memory(none) }

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
!10 = !{!11, !11, i64 0}
!11 = !{!"p1 double", !12, i64 0}
!12 = !{!"any pointer", !6, i64 0}
!13 = !{i64 2164750853}
!14 = !{i64 2164750528}
!15 = !{i64 2164817840}
!16 = !{i64 2164830508}
!17 = distinct !{!17, !18}
!18 = !{!"llvm.loop.mustprogress"}
