; ModuleID = 'slices'
source_filename = "slices.rs"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; slices::mul
; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable
define noundef double @_ZN6slices3mul17h6f2abde0d315119dE(double noundef %x, double noundef %y) unnamed_addr #0 {
start:
  %_0 = fmul double %x, %y
  ret double %_0
}

; slices::d_mul
; Function Attrs: noinline nounwind nonlazybind uwtable
define void @_ZN6slices5d_mul17h77413147d5e35503E(ptr dead_on_unwind noalias noundef writable writeonly sret([24 x i8]) align 8 captures(none) dereferenceable(24) initializes((0, 24)) %_0, double noundef %x, double noundef %y, double noundef %dret) unnamed_addr #1 {
start:
  %_4 = alloca [24 x i8], align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %_4)
  store double %x, ptr %_4, align 8
  %_5.sroa.4.0._4.sroa_idx = getelementptr inbounds nuw i8, ptr %_4, i64 8
  store double %y, ptr %_5.sroa.4.0._4.sroa_idx, align 8
  %_5.sroa.5.0._4.sroa_idx = getelementptr inbounds nuw i8, ptr %_4, i64 16
  store double %dret, ptr %_5.sroa.5.0._4.sroa_idx, align 8
  call void asm sideeffect "", "r,~{memory}"(ptr nonnull %_4) #8, !srcloc !3
  call void @llvm.lifetime.end.p0(ptr nonnull %_4)
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(24) %_0, i8 0, i64 24, i1 false)
  ret void
}

; slices::scale
; Function Attrs: nofree noinline norecurse nosync nounwind nonlazybind memory(argmem: readwrite) uwtable
define void @_ZN6slices5scale17h7933d504c076de81E(ptr noalias noundef nonnull readonly align 8 captures(none) %x.0, i64 noundef range(i64 0, 1152921504606846976) %x.1, ptr noalias noundef nonnull writeonly align 8 captures(none) %y.0, i64 noundef range(i64 0, 1152921504606846976) %y.1, double noundef %a) unnamed_addr #2 {
start:
  %invariant.umin = tail call i64 @llvm.umin.i64(i64 %x.1, i64 %y.1)
  %or.cond6.not = icmp eq i64 %invariant.umin, 0
  br i1 %or.cond6.not, label %bb8, label %bb5.preheader

bb5.preheader:                                    ; preds = %start
  %min.iters.check = icmp samesign ult i64 %invariant.umin, 4
  br i1 %min.iters.check, label %bb5.preheader9, label %vector.ph

vector.ph:                                        ; preds = %bb5.preheader
  %n.vec = and i64 %invariant.umin, 1152921504606846972
  %broadcast.splatinsert = insertelement <2 x double> poison, double %a, i64 0
  %broadcast.splat = shufflevector <2 x double> %broadcast.splatinsert, <2 x double> poison, <2 x i32> zeroinitializer
  br label %vector.body

vector.body:                                      ; preds = %vector.body, %vector.ph
  %index = phi i64 [ 0, %vector.ph ], [ %index.next, %vector.body ]
  %0 = getelementptr inbounds nuw double, ptr %x.0, i64 %index
  %1 = getelementptr inbounds nuw i8, ptr %0, i64 16
  %wide.load = load <2 x double>, ptr %0, align 8
  %wide.load8 = load <2 x double>, ptr %1, align 8
  %2 = getelementptr inbounds nuw double, ptr %y.0, i64 %index
  %3 = fmul <2 x double> %broadcast.splat, %wide.load
  %4 = fmul <2 x double> %broadcast.splat, %wide.load8
  %5 = getelementptr inbounds nuw i8, ptr %2, i64 16
  store <2 x double> %3, ptr %2, align 8
  store <2 x double> %4, ptr %5, align 8
  %index.next = add nuw i64 %index, 4
  %6 = icmp eq i64 %index.next, %n.vec
  br i1 %6, label %middle.block, label %vector.body, !llvm.loop !4

middle.block:                                     ; preds = %vector.body
  %cmp.n = icmp eq i64 %invariant.umin, %n.vec
  br i1 %cmp.n, label %bb8, label %bb5.preheader9

bb5.preheader9:                                   ; preds = %bb5.preheader, %middle.block
  %i.sroa.0.07.ph = phi i64 [ 0, %bb5.preheader ], [ %n.vec, %middle.block ]
  br label %bb5

bb8:                                              ; preds = %bb5, %middle.block, %start
  ret void

bb5:                                              ; preds = %bb5.preheader9, %bb5
  %i.sroa.0.07 = phi i64 [ %10, %bb5 ], [ %i.sroa.0.07.ph, %bb5.preheader9 ]
  %7 = getelementptr inbounds nuw double, ptr %x.0, i64 %i.sroa.0.07
  %_11 = load double, ptr %7, align 8, !noundef !7
  %8 = getelementptr inbounds nuw double, ptr %y.0, i64 %i.sroa.0.07
  %9 = fmul double %a, %_11
  store double %9, ptr %8, align 8
  %10 = add nuw nsw i64 %i.sroa.0.07, 1
  %exitcond.not = icmp eq i64 %10, %invariant.umin
  br i1 %exitcond.not, label %bb8, label %bb5, !llvm.loop !8
}

; slices::sum_sq
; Function Attrs: nofree noinline norecurse nosync nounwind nonlazybind memory(argmem: read) uwtable
define noundef double @_ZN6slices6sum_sq17h0d3672b2c534eff2E(ptr noalias noundef nonnull readonly align 8 captures(none) %x.0, i64 noundef range(i64 0, 1152921504606846976) %x.1) unnamed_addr #3 {
start:
  %_36.not = icmp eq i64 %x.1, 0
  br i1 %_36.not, label %bb5, label %bb4.preheader

bb4.preheader:                                    ; preds = %start
  %xtraiter = and i64 %x.1, 3
  %0 = icmp samesign ult i64 %x.1, 4
  br i1 %0, label %bb4.epil.preheader, label %bb4.preheader.new

bb4.preheader.new:                                ; preds = %bb4.preheader
  %unroll_iter = and i64 %x.1, 1152921504606846972
  br label %bb4

bb5.loopexit.unr-lcssa:                           ; preds = %bb4
  %lcmp.mod.not = icmp eq i64 %xtraiter, 0
  br i1 %lcmp.mod.not, label %bb5, label %bb4.epil.preheader

bb4.epil.preheader:                               ; preds = %bb5.loopexit.unr-lcssa, %bb4.preheader
  %s.sroa.0.08.epil.init = phi double [ 0.000000e+00, %bb4.preheader ], [ %14, %bb5.loopexit.unr-lcssa ]
  %i.sroa.0.07.epil.init = phi i64 [ 0, %bb4.preheader ], [ %15, %bb5.loopexit.unr-lcssa ]
  %lcmp.mod10 = icmp ne i64 %xtraiter, 0
  tail call void @llvm.assume(i1 %lcmp.mod10)
  br label %bb4.epil

bb4.epil:                                         ; preds = %bb4.epil, %bb4.epil.preheader
  %s.sroa.0.08.epil = phi double [ %2, %bb4.epil ], [ %s.sroa.0.08.epil.init, %bb4.epil.preheader ]
  %i.sroa.0.07.epil = phi i64 [ %3, %bb4.epil ], [ %i.sroa.0.07.epil.init, %bb4.epil.preheader ]
  %epil.iter = phi i64 [ %epil.iter.next, %bb4.epil ], [ 0, %bb4.epil.preheader ]
  %1 = getelementptr inbounds nuw double, ptr %x.0, i64 %i.sroa.0.07.epil
  %_7.epil = load double, ptr %1, align 8, !noundef !7
  %_6.epil = fmul double %_7.epil, %_7.epil
  %2 = fadd double %s.sroa.0.08.epil, %_6.epil
  %3 = add nuw nsw i64 %i.sroa.0.07.epil, 1
  %epil.iter.next = add i64 %epil.iter, 1
  %epil.iter.cmp.not = icmp eq i64 %epil.iter.next, %xtraiter
  br i1 %epil.iter.cmp.not, label %bb5, label %bb4.epil, !llvm.loop !9

bb5:                                              ; preds = %bb5.loopexit.unr-lcssa, %bb4.epil, %start
  %s.sroa.0.0.lcssa = phi double [ 0.000000e+00, %start ], [ %14, %bb5.loopexit.unr-lcssa ], [ %2, %bb4.epil ]
  ret double %s.sroa.0.0.lcssa

bb4:                                              ; preds = %bb4, %bb4.preheader.new
  %s.sroa.0.08 = phi double [ 0.000000e+00, %bb4.preheader.new ], [ %14, %bb4 ]
  %i.sroa.0.07 = phi i64 [ 0, %bb4.preheader.new ], [ %15, %bb4 ]
  %niter = phi i64 [ 0, %bb4.preheader.new ], [ %niter.next.3, %bb4 ]
  %4 = getelementptr inbounds nuw double, ptr %x.0, i64 %i.sroa.0.07
  %_7 = load double, ptr %4, align 8, !noundef !7
  %_6 = fmul double %_7, %_7
  %5 = fadd double %s.sroa.0.08, %_6
  %6 = getelementptr inbounds nuw double, ptr %x.0, i64 %i.sroa.0.07
  %7 = getelementptr inbounds nuw i8, ptr %6, i64 8
  %_7.1 = load double, ptr %7, align 8, !noundef !7
  %_6.1 = fmul double %_7.1, %_7.1
  %8 = fadd double %5, %_6.1
  %9 = getelementptr inbounds nuw double, ptr %x.0, i64 %i.sroa.0.07
  %10 = getelementptr inbounds nuw i8, ptr %9, i64 16
  %_7.2 = load double, ptr %10, align 8, !noundef !7
  %_6.2 = fmul double %_7.2, %_7.2
  %11 = fadd double %8, %_6.2
  %12 = getelementptr inbounds nuw double, ptr %x.0, i64 %i.sroa.0.07
  %13 = getelementptr inbounds nuw i8, ptr %12, i64 24
  %_7.3 = load double, ptr %13, align 8, !noundef !7
  %_6.3 = fmul double %_7.3, %_7.3
  %14 = fadd double %11, %_6.3
  %15 = add nuw nsw i64 %i.sroa.0.07, 4
  %niter.next.3 = add i64 %niter, 4
  %niter.ncmp.3 = icmp eq i64 %niter.next.3, %unroll_iter
  br i1 %niter.ncmp.3, label %bb5.loopexit.unr-lcssa, label %bb4
}

; slices::d_sum_sq
; Function Attrs: noinline nounwind nonlazybind uwtable
define noundef double @_ZN6slices8d_sum_sq17ha9ff6837fbcadae2E(ptr noalias noundef nonnull readonly align 8 captures(address, read_provenance) %x.0, i64 noundef range(i64 0, 1152921504606846976) %x.1, ptr noalias noundef nonnull align 8 %dx.0, i64 noundef range(i64 0, 1152921504606846976) %dx.1, double noundef %dret) unnamed_addr #1 {
start:
  %_4 = alloca [40 x i8], align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %_4)
  store ptr %x.0, ptr %_4, align 8
  %_5.sroa.4.0._4.sroa_idx = getelementptr inbounds nuw i8, ptr %_4, i64 8
  store i64 %x.1, ptr %_5.sroa.4.0._4.sroa_idx, align 8
  %_5.sroa.5.0._4.sroa_idx = getelementptr inbounds nuw i8, ptr %_4, i64 16
  store ptr %dx.0, ptr %_5.sroa.5.0._4.sroa_idx, align 8
  %_5.sroa.6.0._4.sroa_idx = getelementptr inbounds nuw i8, ptr %_4, i64 24
  store i64 %dx.1, ptr %_5.sroa.6.0._4.sroa_idx, align 8
  %_5.sroa.7.0._4.sroa_idx = getelementptr inbounds nuw i8, ptr %_4, i64 32
  store double %dret, ptr %_5.sroa.7.0._4.sroa_idx, align 8
  call void asm sideeffect "", "r,~{memory}"(ptr nonnull %_4) #8, !srcloc !3
  call void @llvm.lifetime.end.p0(ptr nonnull %_4)
  ret double 0.000000e+00
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #4

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #4

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #5

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.umin.i64(i64, i64) #6

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #7

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind nonlazybind willreturn memory(none) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #1 = { noinline nounwind nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #2 = { nofree noinline norecurse nosync nounwind nonlazybind memory(argmem: readwrite) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #3 = { nofree noinline norecurse nosync nounwind nonlazybind memory(argmem: read) uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #4 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #5 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #6 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #7 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }
attributes #8 = { nounwind }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 2, !"RtLibUseGOT", i32 1}
!2 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!3 = !{i64 3682135593260223}
!4 = distinct !{!4, !5, !6}
!5 = !{!"llvm.loop.isvectorized", i32 1}
!6 = !{!"llvm.loop.unroll.runtime.disable"}
!7 = !{}
!8 = distinct !{!8, !6, !5}
!9 = distinct !{!9, !10}
!10 = !{!"llvm.loop.unroll.disable"}
