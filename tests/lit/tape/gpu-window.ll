; A stencil marching along z with a sliding window in registers (lo = mid,
; mid = hi, hi = u[c + plane]): the loop-carried values are loads of
; earlier iterations, read again at those iterations' addresses in the
; reverse sweep (CarriedLoads.cpp), so nothing is cached per z step (before:
; 16 bytes per step, on the device heap beyond 64 steps). The reads happen
; behind a branch on the iteration (`carried.read`). From clang-22 -x cuda
; --cuda-device-only -nocudalib -O2 of:
;
;   __device__ void zmarch(const double *__restrict__ u,
;                          double *__restrict__ un, int nx, int ny, int nz) {
;     int ix = blockIdx.x * blockDim.x + threadIdx.x;
;     int iy = blockIdx.y * blockDim.y + threadIdx.y;
;     if (ix < 1 || iy < 1 || ix >= nx - 1 || iy >= ny - 1) return;
;     long plane = (long)nx * ny, c = (long)iy * nx + ix;
;     double lo = u[c], mid = u[c + plane];
;     c += plane;
;     for (int z = 1; z < nz - 1; ++z, c += plane) {
;       double hi = u[c + plane];
;       double lap = u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] + lo + hi
;                    - 6.0 * mid;
;       un[c] = mid + 0.1 * lap + 0.2 * mid * (1.0 - mid * mid);
;       lo = mid;
;       mid = hi;
;     }
;   }
;
; UNSUPPORTED: sanitizers
; RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-tape>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; RUN: %autodiff-opt %s -O0 -S -o - | FileCheck %s --check-prefix=IR
; CHECK-LABEL: tape of diffe__Z6zmarchPKdPdiii
; CHECK-NEXT: loop %bb{{[0-9]+}} (depth 1): nothing cached per iteration
; IR-LABEL: define internal void @diffe__Z6zmarchPKdPdiii(
; IR: carried.read:
; IR: load double, ptr %{{[0-9]+}}, align 8
; IR: carried:

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@enzyme_dup = external dso_local local_unnamed_addr addrspace(1) global i32, align 4
@enzyme_const = external dso_local local_unnamed_addr addrspace(1) global i32, align 4

; Function Attrs: mustprogress nofree norecurse nosync nounwind memory(argmem: readwrite)
define dso_local void @_Z6zmarchPKdPdiii(ptr noalias noundef readonly captures(none) %0, ptr noalias noundef writeonly captures(none) %1, i32 noundef %2, i32 noundef %3, i32 noundef %4) #0 {
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %8 = mul i32 %6, %7
  %9 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %10 = add i32 %8, %9
  %11 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %12 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %13 = mul nuw nsw i32 %11, %12
  %14 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %15 = add nuw nsw i32 %13, %14
  %16 = icmp sgt i32 %10, 0
  %17 = icmp ne i32 %15, 0
  %18 = and i1 %16, %17
  %19 = add nsw i32 %2, -1
  %20 = icmp slt i32 %10, %19
  %21 = select i1 %18, i1 %20, i1 false
  %22 = add nsw i32 %3, -1
  %23 = icmp slt i32 %15, %22
  %24 = select i1 %21, i1 %23, i1 false
  br i1 %24, label %25, label %76

25:                                               ; preds = %5
  %26 = sext i32 %2 to i64
  %27 = sext i32 %3 to i64
  %28 = mul nsw i64 %27, %26
  %29 = icmp sgt i32 %4, 2
  br i1 %29, label %30, label %76

30:                                               ; preds = %25
  %31 = zext nneg i32 %15 to i64
  %32 = mul nsw i64 %26, %31
  %33 = zext nneg i32 %10 to i64
  %34 = add nsw i64 %32, %33
  %35 = add nsw i64 %34, %28
  %36 = getelementptr inbounds double, ptr %0, i64 %35
  %37 = load double, ptr %36, align 8, !tbaa !8
  %38 = getelementptr inbounds double, ptr %0, i64 %34
  %39 = load double, ptr %38, align 8, !tbaa !8
  %40 = add nsw i32 %4, -2
  br label %41

41:                                               ; preds = %30, %41
  %42 = phi i64 [ %46, %41 ], [ %35, %30 ]
  %43 = phi i32 [ %74, %41 ], [ 1, %30 ]
  %44 = phi double [ %48, %41 ], [ %37, %30 ]
  %45 = phi double [ %44, %41 ], [ %39, %30 ]
  %46 = add nsw i64 %42, %28
  %47 = getelementptr inbounds double, ptr %0, i64 %46
  %48 = load double, ptr %47, align 8, !tbaa !8
  %49 = getelementptr double, ptr %0, i64 %42
  %50 = getelementptr i8, ptr %49, i64 -8
  %51 = load double, ptr %50, align 8, !tbaa !8
  %52 = getelementptr i8, ptr %49, i64 8
  %53 = load double, ptr %52, align 8, !tbaa !8
  %54 = fadd contract double %51, %53
  %55 = sub nsw i64 %42, %26
  %56 = getelementptr inbounds double, ptr %0, i64 %55
  %57 = load double, ptr %56, align 8, !tbaa !8
  %58 = fadd contract double %54, %57
  %59 = getelementptr double, ptr %49, i64 %26
  %60 = load double, ptr %59, align 8, !tbaa !8
  %61 = fadd contract double %58, %60
  %62 = fadd contract double %45, %61
  %63 = fadd contract double %48, %62
  %64 = fmul contract double %44, 6.000000e+00
  %65 = fsub contract double %63, %64
  %66 = fmul contract double %65, 1.000000e-01
  %67 = fadd contract double %44, %66
  %68 = fmul contract double %44, 2.000000e-01
  %69 = fmul contract double %44, %44
  %70 = fsub contract double 1.000000e+00, %69
  %71 = fmul contract double %68, %70
  %72 = fadd contract double %71, %67
  %73 = getelementptr inbounds double, ptr %1, i64 %42
  store double %72, ptr %73, align 8, !tbaa !8
  %74 = add nuw nsw i32 %43, 1
  %75 = icmp eq i32 %43, %40
  br i1 %75, label %76, label %41, !llvm.loop !10

76:                                               ; preds = %41, %25, %5
  ret void
}

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @gradient(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, i32 noundef %4, i32 noundef %5, i32 noundef %6) local_unnamed_addr #1 {
  %8 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %9 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_const to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_iiiiiiEEvPvDpT_(ptr noundef nonnull @_Z6zmarchPKdPdiii, i32 noundef %8, ptr noundef %0, ptr noundef %1, i32 noundef %8, ptr noundef %2, ptr noundef %3, i32 noundef %9, i32 noundef %4, i32 noundef %9, i32 noundef %5, i32 noundef %9, i32 noundef %6) #4
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiS2_S2_iiiiiiEEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, i32 noundef, i32 noundef, i32 noundef, i32 noundef, i32 noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #3

attributes #0 = { mustprogress nofree norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #1 = { convergent mustprogress noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx88,+sm_90" }
attributes #3 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind }

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
