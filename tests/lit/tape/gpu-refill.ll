; Stores executed again by the reverse sweep (RefilledStores.cpp): a tiled
; matrix product fills two shared-memory tiles at the top of each tile step;
; the reverse sweep fills them again at the start of each reverse step, so
; the 32 loads of the unrolled inner loop are read again instead of cached
; (before: 256 bytes per step). The tiles' values come from loads of A and
; B, which only the tile stores could change if an argument pointed into a
; tile: the entry checks that none does (stopping with a message if one
; does). From clang-22 -x cuda --cuda-device-only -nocudalib -O2 of:
;
;   #define TILE 16
;   __device__ void matmul(const double *A, const double *B, double *C,
;                          int n) {
;     __shared__ double As[TILE][TILE], Bs[TILE][TILE];
;     int tx = threadIdx.x, ty = threadIdx.y;
;     int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
;     double c = 0.0;
;     for (int t = 0; t < n / TILE; ++t) {
;       As[ty][tx] = A[row * n + t * TILE + tx];
;       Bs[ty][tx] = B[(t * TILE + ty) * n + col];
;       __syncthreads();
;       for (int k = 0; k < TILE; ++k)
;         c += As[ty][k] * Bs[k][tx];
;       __syncthreads();
;     }
;     C[row * n + col] = c * c;
;   }
;
; UNSUPPORTED: sanitizers
; RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-tape>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; RUN: %autodiff-opt %s -O0 -S -o - | FileCheck %s --check-prefix=IR
; CHECK-LABEL: tape of diffe__Z6matmulPKdS0_Pdi
; CHECK-NEXT: refilled at each reverse iteration of loop %bb{{[0-9]+}} (32 loads read again instead of cached):
; CHECK-NEXT: store double %v{{[0-9]+}}, ptr %v{{[0-9]+}}
; CHECK-NEXT: store double %v{{[0-9]+}}, ptr %v{{[0-9]+}}
; CHECK-NEXT: checked at the entry not to point into shared arrays the function writes: %{{[0-2]}} %{{[0-2]}} %{{[0-2]}}
; CHECK-NEXT: loop %bb{{[0-9]+}} (depth 1): nothing cached per iteration
; IR-LABEL: define internal void @diffe__Z6matmulPKdS0_Pdi(
; IR: call void @diffe__Z6matmulPKdS0_Pdi.shared_arguments(i1
; IR-LABEL: define internal void @diffe__Z6matmulPKdS0_Pdi.shared_arguments(i1
; IR: call i32 @vprintf
; IR: call void @llvm.trap()

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_ZZ6matmulPKdS0_PdiE2As = internal unnamed_addr addrspace(3) global [16 x [16 x double]] undef, align 8
@_ZZ6matmulPKdS0_PdiE2Bs = internal unnamed_addr addrspace(3) global [16 x [16 x double]] undef, align 8
@enzyme_dup = external dso_local local_unnamed_addr addrspace(1) global i32, align 4
@enzyme_const = external dso_local local_unnamed_addr addrspace(1) global i32, align 4

; Function Attrs: convergent mustprogress norecurse nounwind
define dso_local void @_Z6matmulPKdS0_Pdi(ptr noundef readonly captures(none) %0, ptr noundef readonly captures(none) %1, ptr noundef writeonly captures(none) %2, i32 noundef %3) #0 {
  %5 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %6 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %7 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %8 = shl nuw nsw i32 %7, 4
  %9 = add nuw nsw i32 %8, %6
  %10 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %11 = shl i32 %10, 4
  %12 = add i32 %11, %5
  %13 = sdiv i32 %3, 16
  %14 = icmp sgt i32 %3, 15
  %15 = mul nsw i32 %3, %9
  br i1 %14, label %16, label %57

16:                                               ; preds = %4
  %17 = add nuw i32 %15, %5
  %18 = zext nneg i32 %6 to i64
  %19 = getelementptr inbounds nuw [16 x double], ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKdS0_PdiE2As to ptr), i64 %18
  %20 = zext nneg i32 %5 to i64
  %21 = getelementptr inbounds nuw double, ptr %19, i64 %20
  %22 = getelementptr inbounds nuw [16 x double], ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKdS0_PdiE2Bs to ptr), i64 %18
  %23 = getelementptr inbounds nuw double, ptr %22, i64 %20
  %24 = getelementptr inbounds nuw double, ptr addrspacecast (ptr addrspace(3) @_ZZ6matmulPKdS0_PdiE2Bs to ptr), i64 %20
  %25 = getelementptr inbounds nuw i8, ptr %19, i64 8
  %26 = getelementptr inbounds nuw i8, ptr %24, i64 128
  %27 = getelementptr inbounds nuw i8, ptr %19, i64 16
  %28 = getelementptr inbounds nuw i8, ptr %24, i64 256
  %29 = getelementptr inbounds nuw i8, ptr %19, i64 24
  %30 = getelementptr inbounds nuw i8, ptr %24, i64 384
  %31 = getelementptr inbounds nuw i8, ptr %19, i64 32
  %32 = getelementptr inbounds nuw i8, ptr %24, i64 512
  %33 = getelementptr inbounds nuw i8, ptr %19, i64 40
  %34 = getelementptr inbounds nuw i8, ptr %24, i64 640
  %35 = getelementptr inbounds nuw i8, ptr %19, i64 48
  %36 = getelementptr inbounds nuw i8, ptr %24, i64 768
  %37 = getelementptr inbounds nuw i8, ptr %19, i64 56
  %38 = getelementptr inbounds nuw i8, ptr %24, i64 896
  %39 = getelementptr inbounds nuw i8, ptr %19, i64 64
  %40 = getelementptr inbounds nuw i8, ptr %24, i64 1024
  %41 = getelementptr inbounds nuw i8, ptr %19, i64 72
  %42 = getelementptr inbounds nuw i8, ptr %24, i64 1152
  %43 = getelementptr inbounds nuw i8, ptr %19, i64 80
  %44 = getelementptr inbounds nuw i8, ptr %24, i64 1280
  %45 = getelementptr inbounds nuw i8, ptr %19, i64 88
  %46 = getelementptr inbounds nuw i8, ptr %24, i64 1408
  %47 = getelementptr inbounds nuw i8, ptr %19, i64 96
  %48 = getelementptr inbounds nuw i8, ptr %24, i64 1536
  %49 = getelementptr inbounds nuw i8, ptr %19, i64 104
  %50 = getelementptr inbounds nuw i8, ptr %24, i64 1664
  %51 = getelementptr inbounds nuw i8, ptr %19, i64 112
  %52 = getelementptr inbounds nuw i8, ptr %24, i64 1792
  %53 = getelementptr inbounds nuw i8, ptr %19, i64 120
  %54 = getelementptr inbounds nuw i8, ptr %24, i64 1920
  br label %62

55:                                               ; preds = %62
  %56 = fmul contract double %139, %139
  br label %57

57:                                               ; preds = %4, %55
  %58 = phi double [ %56, %55 ], [ 0.000000e+00, %4 ]
  %59 = add nsw i32 %15, %12
  %60 = sext i32 %59 to i64
  %61 = getelementptr inbounds double, ptr %2, i64 %60
  store double %58, ptr %61, align 8, !tbaa !8
  ret void

62:                                               ; preds = %16, %62
  %63 = phi i32 [ 0, %16 ], [ %140, %62 ]
  %64 = phi double [ 0.000000e+00, %16 ], [ %139, %62 ]
  %65 = shl nsw i32 %63, 4
  %66 = add i32 %17, %65
  %67 = sext i32 %66 to i64
  %68 = getelementptr inbounds double, ptr %0, i64 %67
  %69 = load double, ptr %68, align 8, !tbaa !8
  store double %69, ptr %21, align 8, !tbaa !8
  %70 = add nuw nsw i32 %65, %6
  %71 = mul nuw nsw i32 %70, %3
  %72 = add nsw i32 %71, %12
  %73 = sext i32 %72 to i64
  %74 = getelementptr inbounds double, ptr %1, i64 %73
  %75 = load double, ptr %74, align 8, !tbaa !8
  store double %75, ptr %23, align 8, !tbaa !8
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %76 = load double, ptr %19, align 8, !tbaa !8
  %77 = load double, ptr %24, align 8, !tbaa !8
  %78 = fmul contract double %76, %77
  %79 = fadd contract double %64, %78
  %80 = load double, ptr %25, align 8, !tbaa !8
  %81 = load double, ptr %26, align 8, !tbaa !8
  %82 = fmul contract double %80, %81
  %83 = fadd contract double %79, %82
  %84 = load double, ptr %27, align 8, !tbaa !8
  %85 = load double, ptr %28, align 8, !tbaa !8
  %86 = fmul contract double %84, %85
  %87 = fadd contract double %83, %86
  %88 = load double, ptr %29, align 8, !tbaa !8
  %89 = load double, ptr %30, align 8, !tbaa !8
  %90 = fmul contract double %88, %89
  %91 = fadd contract double %87, %90
  %92 = load double, ptr %31, align 8, !tbaa !8
  %93 = load double, ptr %32, align 8, !tbaa !8
  %94 = fmul contract double %92, %93
  %95 = fadd contract double %91, %94
  %96 = load double, ptr %33, align 8, !tbaa !8
  %97 = load double, ptr %34, align 8, !tbaa !8
  %98 = fmul contract double %96, %97
  %99 = fadd contract double %95, %98
  %100 = load double, ptr %35, align 8, !tbaa !8
  %101 = load double, ptr %36, align 8, !tbaa !8
  %102 = fmul contract double %100, %101
  %103 = fadd contract double %99, %102
  %104 = load double, ptr %37, align 8, !tbaa !8
  %105 = load double, ptr %38, align 8, !tbaa !8
  %106 = fmul contract double %104, %105
  %107 = fadd contract double %103, %106
  %108 = load double, ptr %39, align 8, !tbaa !8
  %109 = load double, ptr %40, align 8, !tbaa !8
  %110 = fmul contract double %108, %109
  %111 = fadd contract double %107, %110
  %112 = load double, ptr %41, align 8, !tbaa !8
  %113 = load double, ptr %42, align 8, !tbaa !8
  %114 = fmul contract double %112, %113
  %115 = fadd contract double %111, %114
  %116 = load double, ptr %43, align 8, !tbaa !8
  %117 = load double, ptr %44, align 8, !tbaa !8
  %118 = fmul contract double %116, %117
  %119 = fadd contract double %115, %118
  %120 = load double, ptr %45, align 8, !tbaa !8
  %121 = load double, ptr %46, align 8, !tbaa !8
  %122 = fmul contract double %120, %121
  %123 = fadd contract double %119, %122
  %124 = load double, ptr %47, align 8, !tbaa !8
  %125 = load double, ptr %48, align 8, !tbaa !8
  %126 = fmul contract double %124, %125
  %127 = fadd contract double %123, %126
  %128 = load double, ptr %49, align 8, !tbaa !8
  %129 = load double, ptr %50, align 8, !tbaa !8
  %130 = fmul contract double %128, %129
  %131 = fadd contract double %127, %130
  %132 = load double, ptr %51, align 8, !tbaa !8
  %133 = load double, ptr %52, align 8, !tbaa !8
  %134 = fmul contract double %132, %133
  %135 = fadd contract double %131, %134
  %136 = load double, ptr %53, align 8, !tbaa !8
  %137 = load double, ptr %54, align 8, !tbaa !8
  %138 = fmul contract double %136, %137
  %139 = fadd contract double %135, %138
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %140 = add nuw nsw i32 %63, 1
  %141 = icmp eq i32 %140, %13
  br i1 %141, label %55, label %62, !llvm.loop !10
}

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

; Function Attrs: convergent mustprogress noinline norecurse nounwind
define dso_local ptx_kernel void @gradient(ptr noundef %0, ptr noundef %1, ptr noundef %2, ptr noundef %3, ptr noundef %4, ptr noundef %5, i32 noundef %6) local_unnamed_addr #2 {
  %8 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_dup to ptr), align 4, !tbaa !4
  %9 = load i32, ptr addrspacecast (ptr addrspace(1) @enzyme_const to ptr), align 4, !tbaa !4
  tail call void @_Z17__enzyme_autodiffIJiPKdPdiS1_S2_iS2_S2_iiEEvPvDpT_(ptr noundef nonnull @_Z6matmulPKdS0_Pdi, i32 noundef %8, ptr noundef %0, ptr noundef %1, i32 noundef %8, ptr noundef %2, ptr noundef %3, i32 noundef %8, ptr noundef %4, ptr noundef %5, i32 noundef %9, i32 noundef %6) #5
  ret void
}

; Function Attrs: convergent nounwind
declare dso_local void @_Z17__enzyme_autodiffIJiPKdPdiS1_S2_iS2_S2_iiEEvPvDpT_(ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, ptr noundef, ptr noundef, i32 noundef, i32 noundef) local_unnamed_addr #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #4

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
