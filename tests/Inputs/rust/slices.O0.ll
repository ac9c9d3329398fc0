; ModuleID = 'slices'
source_filename = "slices.rs"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@alloc_63229798ca6e8b951457aeba9b1c6cb4 = private unnamed_addr constant [10 x i8] c"slices.rs\00", align 1
@alloc_927ceab7cc698eaac8bdd1b7f5d81365 = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_63229798ca6e8b951457aeba9b1c6cb4, [16 x i8] c"\09\00\00\00\00\00\00\00\17\00\00\00\14\00\00\00" }>, align 8
@alloc_4f020dac8af715bf5068d290fbda94eb = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_63229798ca6e8b951457aeba9b1c6cb4, [16 x i8] c"\09\00\00\00\00\00\00\00\17\00\00\00\09\00\00\00" }>, align 8
@alloc_876eac987cb5ee54c8e688b86fabd612 = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_63229798ca6e8b951457aeba9b1c6cb4, [16 x i8] c"\09\00\00\00\00\00\00\00\18\00\00\00\09\00\00\00" }>, align 8
@alloc_a816e246e4e67c687d98d3b15922253b = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_63229798ca6e8b951457aeba9b1c6cb4, [16 x i8] c"\09\00\00\00\00\00\00\00\0C\00\00\00\0E\00\00\00" }>, align 8
@alloc_7b275910bcfa5a455bdecd89cde0712a = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_63229798ca6e8b951457aeba9b1c6cb4, [16 x i8] c"\09\00\00\00\00\00\00\00\0C\00\00\00\15\00\00\00" }>, align 8
@alloc_acd16e368be5a6235da73430f80b3b54 = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_63229798ca6e8b951457aeba9b1c6cb4, [16 x i8] c"\09\00\00\00\00\00\00\00\0D\00\00\00\09\00\00\00" }>, align 8

; core::hint::black_box
; Function Attrs: inlinehint nounwind nonlazybind uwtable
define void @_ZN4core4hint9black_box17he05b9277ca3f01d8E(ptr sret([24 x i8]) align 8 %_0, ptr align 8 %dummy) unnamed_addr #0 {
start:
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %_0, ptr align 8 %dummy, i64 24, i1 false)
  call void asm sideeffect "", "r,~{memory}"(ptr %_0), !srcloc !3
  ret void
}

; core::hint::black_box
; Function Attrs: inlinehint nounwind nonlazybind uwtable
define void @_ZN4core4hint9black_box17hee3314922edcde4cE(ptr sret([40 x i8]) align 8 %_0, ptr align 8 %dummy) unnamed_addr #0 {
start:
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %_0, ptr align 8 %dummy, i64 40, i1 false)
  call void asm sideeffect "", "r,~{memory}"(ptr %_0), !srcloc !3
  ret void
}

; slices::mul
; Function Attrs: noinline nounwind nonlazybind uwtable
define double @_ZN6slices3mul17h6f2abde0d315119dE(double %x, double %y) unnamed_addr #1 {
start:
  %_0 = fmul double %x, %y
  ret double %_0
}

; slices::d_mul
; Function Attrs: noinline nounwind nonlazybind uwtable
define void @_ZN6slices5d_mul17h77413147d5e35503E(ptr sret([24 x i8]) align 8 %_0, double %x, double %y, double %dret) unnamed_addr #1 {
start:
  %_5 = alloca [24 x i8], align 8
  %_4 = alloca [24 x i8], align 8
  store double %x, ptr %_5, align 8
  %0 = getelementptr inbounds i8, ptr %_5, i64 8
  store double %y, ptr %0, align 8
  %1 = getelementptr inbounds i8, ptr %_5, i64 16
  store double %dret, ptr %1, align 8
; call core::hint::black_box
  call void @_ZN4core4hint9black_box17he05b9277ca3f01d8E(ptr sret([24 x i8]) align 8 %_4, ptr align 8 %_5) #5
  store double 0.000000e+00, ptr %_0, align 8
  %2 = getelementptr inbounds i8, ptr %_0, i64 8
  store double 0.000000e+00, ptr %2, align 8
  %3 = getelementptr inbounds i8, ptr %_0, i64 16
  store double 0.000000e+00, ptr %3, align 8
  ret void
}

; slices::scale
; Function Attrs: noinline nounwind nonlazybind uwtable
define void @_ZN6slices5scale17h7933d504c076de81E(ptr align 8 %x.0, i64 %x.1, ptr align 8 %y.0, i64 %y.1, double %a) unnamed_addr #1 {
start:
  %i = alloca [8 x i8], align 8
  store i64 0, ptr %i, align 8
  br label %bb1

bb1:                                              ; preds = %bb6, %start
  %_6 = load i64, ptr %i, align 8
  %_5 = icmp ult i64 %_6, %x.1
  br i1 %_5, label %bb2, label %bb7

bb7:                                              ; preds = %bb2, %bb1
  ret void

bb2:                                              ; preds = %bb1
  %_9 = load i64, ptr %i, align 8
  %_8 = icmp ult i64 %_9, %y.1
  br i1 %_8, label %bb3, label %bb7

bb3:                                              ; preds = %bb2
  %_13 = load i64, ptr %i, align 8
  %_15 = icmp ult i64 %_13, %x.1
  br i1 %_15, label %bb4, label %panic

bb4:                                              ; preds = %bb3
  %0 = getelementptr inbounds nuw double, ptr %x.0, i64 %_13
  %_12 = load double, ptr %0, align 8
  %_16 = load i64, ptr %i, align 8
  %_19 = icmp ult i64 %_16, %y.1
  br i1 %_19, label %bb5, label %panic1

panic:                                            ; preds = %bb3
; call core::panicking::panic_bounds_check
  call void @_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_bounds_check(i64 %_13, i64 %x.1, ptr align 8 @alloc_927ceab7cc698eaac8bdd1b7f5d81365) #6
  unreachable

bb5:                                              ; preds = %bb4
  %1 = getelementptr inbounds nuw double, ptr %y.0, i64 %_16
  %2 = fmul double %a, %_12
  store double %2, ptr %1, align 8
  %3 = load i64, ptr %i, align 8
  %_20.0 = add i64 %3, 1
  %_20.1 = icmp ult i64 %_20.0, %3
  br i1 %_20.1, label %panic2, label %bb6

panic1:                                           ; preds = %bb4
; call core::panicking::panic_bounds_check
  call void @_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_bounds_check(i64 %_16, i64 %y.1, ptr align 8 @alloc_4f020dac8af715bf5068d290fbda94eb) #6
  unreachable

bb6:                                              ; preds = %bb5
  store i64 %_20.0, ptr %i, align 8
  br label %bb1

panic2:                                           ; preds = %bb5
; call core::panicking::panic_const::panic_const_add_overflow
  call void @_RNvNtNtCsgEmfK2I1SDS_4core9panicking11panic_const24panic_const_add_overflow(ptr align 8 @alloc_876eac987cb5ee54c8e688b86fabd612) #6
  unreachable
}

; slices::sum_sq
; Function Attrs: noinline nounwind nonlazybind uwtable
define double @_ZN6slices6sum_sq17h0d3672b2c534eff2E(ptr align 8 %x.0, i64 %x.1) unnamed_addr #1 {
start:
  %i = alloca [8 x i8], align 8
  %s = alloca [8 x i8], align 8
  store double 0.000000e+00, ptr %s, align 8
  store i64 0, ptr %i, align 8
  br label %bb1

bb1:                                              ; preds = %bb5, %start
  %_5 = load i64, ptr %i, align 8
  %_4 = icmp ult i64 %_5, %x.1
  br i1 %_4, label %bb2, label %bb6

bb6:                                              ; preds = %bb1
  %_0 = load double, ptr %s, align 8
  ret double %_0

bb2:                                              ; preds = %bb1
  %_9 = load i64, ptr %i, align 8
  %_11 = icmp ult i64 %_9, %x.1
  br i1 %_11, label %bb3, label %panic

bb3:                                              ; preds = %bb2
  %0 = getelementptr inbounds nuw double, ptr %x.0, i64 %_9
  %_8 = load double, ptr %0, align 8
  %_13 = load i64, ptr %i, align 8
  %_15 = icmp ult i64 %_13, %x.1
  br i1 %_15, label %bb4, label %panic1

panic:                                            ; preds = %bb2
; call core::panicking::panic_bounds_check
  call void @_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_bounds_check(i64 %_9, i64 %x.1, ptr align 8 @alloc_a816e246e4e67c687d98d3b15922253b) #6
  unreachable

bb4:                                              ; preds = %bb3
  %1 = getelementptr inbounds nuw double, ptr %x.0, i64 %_13
  %_12 = load double, ptr %1, align 8
  %_7 = fmul double %_8, %_12
  %2 = load double, ptr %s, align 8
  %3 = fadd double %2, %_7
  store double %3, ptr %s, align 8
  %4 = load i64, ptr %i, align 8
  %_16.0 = add i64 %4, 1
  %_16.1 = icmp ult i64 %_16.0, %4
  br i1 %_16.1, label %panic2, label %bb5

panic1:                                           ; preds = %bb3
; call core::panicking::panic_bounds_check
  call void @_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_bounds_check(i64 %_13, i64 %x.1, ptr align 8 @alloc_7b275910bcfa5a455bdecd89cde0712a) #6
  unreachable

bb5:                                              ; preds = %bb4
  store i64 %_16.0, ptr %i, align 8
  br label %bb1

panic2:                                           ; preds = %bb4
; call core::panicking::panic_const::panic_const_add_overflow
  call void @_RNvNtNtCsgEmfK2I1SDS_4core9panicking11panic_const24panic_const_add_overflow(ptr align 8 @alloc_acd16e368be5a6235da73430f80b3b54) #6
  unreachable
}

; slices::d_sum_sq
; Function Attrs: noinline nounwind nonlazybind uwtable
define double @_ZN6slices8d_sum_sq17ha9ff6837fbcadae2E(ptr align 8 %x.0, i64 %x.1, ptr align 8 %dx.0, i64 %dx.1, double %dret) unnamed_addr #1 {
start:
  %_5 = alloca [40 x i8], align 8
  %_4 = alloca [40 x i8], align 8
  store ptr %x.0, ptr %_5, align 8
  %0 = getelementptr inbounds i8, ptr %_5, i64 8
  store i64 %x.1, ptr %0, align 8
  %1 = getelementptr inbounds i8, ptr %_5, i64 16
  store ptr %dx.0, ptr %1, align 8
  %2 = getelementptr inbounds i8, ptr %1, i64 8
  store i64 %dx.1, ptr %2, align 8
  %3 = getelementptr inbounds i8, ptr %_5, i64 32
  store double %dret, ptr %3, align 8
; call core::hint::black_box
  call void @_ZN4core4hint9black_box17hee3314922edcde4cE(ptr sret([40 x i8]) align 8 %_4, ptr align 8 %_5) #5
  ret double 0.000000e+00
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #2

; core::panicking::panic_bounds_check
; Function Attrs: cold minsize noinline noreturn nounwind nonlazybind optsize uwtable
declare void @_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_bounds_check(i64, i64, ptr align 8) unnamed_addr #3

; core::panicking::panic_const::panic_const_add_overflow
; Function Attrs: cold noinline noreturn nounwind nonlazybind uwtable
declare void @_RNvNtNtCsgEmfK2I1SDS_4core9panicking11panic_const24panic_const_add_overflow(ptr align 8) unnamed_addr #4

attributes #0 = { inlinehint nounwind nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #1 = { noinline nounwind nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #3 = { cold minsize noinline noreturn nounwind nonlazybind optsize uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #4 = { cold noinline noreturn nounwind nonlazybind uwtable "probe-stack"="inline-asm" "target-cpu"="x86-64" }
attributes #5 = { inlinehint nounwind }
attributes #6 = { noinline noreturn nounwind }

!llvm.module.flags = !{!0, !1}
!llvm.ident = !{!2}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 2, !"RtLibUseGOT", i32 1}
!2 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!3 = !{i64 3682135593260223}
