; Explicit address spaces in NVPTX IR: shadows of global (1) and shared (3)
; memory live in the address space of their primal; a shared array gets a
; shared shadow, zeroed at entry. x[threadIdx.x] repeats across blocks, so
; its adjoint is atomic; so is the shared read at another thread's index.
; The atomic adds are warp-aggregated (a helper per type and address
; space: when the whole warp adds to one address, a shuffle sum and one
; atomic; else one atomic per lane).
; RUN: %autodiff-opt %s -S --no-postopt -o - | FileCheck %s
; CHECK: @shared_shadow = internal addrspace(3) global [64 x double] undef
; CHECK-LABEL: define internal void @diffe_f(ptr addrspace(1) %x, ptr addrspace(1) %"x'", ptr addrspace(1) %y, ptr addrspace(1) %"y'")
; CHECK: call void @shared_shadow_zero()
; CHECK: call void @__autodiff_warp_fadd.f64.p3(ptr addrspace(3)
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: call void @__autodiff_warp_fadd.f64.p1(ptr addrspace(1)
; CHECK-LABEL: define internal void @fwddiffe_f(
; CHECK: %"ps'" = getelementptr inbounds [64 x double], ptr addrspace(3) @shared_shadow
; CHECK: define internal void @__autodiff_warp_fadd.f64.p3(ptr addrspace(3) %0, double %1) #[[WARP:[0-9]+]]
; CHECK: call i32 @llvm.nvvm.activemask()
; CHECK: icmp eq i32 %{{.*}}, -1
; CHECK: whole.warp:
; CHECK: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %{{.*}}, i32 0, i32 31)
; CHECK: call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1
; CHECK: same.address:
; CHECK-COUNT-10: call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1,
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.laneid()
; CHECK: leader:
; CHECK-NEXT: atomicrmw fadd ptr addrspace(3) %0, double %{{.*}} monotonic, align 8
; CHECK: each.lane:
; CHECK-NEXT: atomicrmw fadd ptr addrspace(3) %0, double %1 monotonic, align 8
; CHECK: attributes #[[WARP]] = { alwaysinline convergent nounwind }

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@enzyme_dup = external addrspace(1) global i32
@shared = internal addrspace(3) global [64 x double] undef, align 8

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @__enzyme_autodiff(...)
declare void @__enzyme_fwddiff(...)

define void @f(ptr addrspace(1) %x, ptr addrspace(1) %y) {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %t to i64
  %px = getelementptr inbounds double, ptr addrspace(1) %x, i64 %i
  %v = load double, ptr addrspace(1) %px
  %ps = getelementptr inbounds [64 x double], ptr addrspace(3) @shared, i64 0, i64 %i
  %sq = fmul double %v, %v
  store double %sq, ptr addrspace(3) %ps
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %j = xor i64 %i, 1
  %pn = getelementptr inbounds [64 x double], ptr addrspace(3) @shared, i64 0, i64 %j
  %n = load double, ptr addrspace(3) %pn
  %loc = alloca double, align 8
  store double %n, ptr %loc
  %m = load double, ptr %loc
  %r = fmul double %m, %v
  %py = getelementptr inbounds double, ptr addrspace(1) %y, i64 %i
  store double %r, ptr addrspace(1) %py
  ret void
}

define ptx_kernel void @grad(ptr addrspace(1) %x, ptr addrspace(1) %dx, ptr addrspace(1) %y, ptr addrspace(1) %dy) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr addrspace(1) %x, ptr addrspace(1) %dx, ptr addrspace(1) %y, ptr addrspace(1) %dy)
  ret void
}
define ptx_kernel void @tan(ptr addrspace(1) %x, ptr addrspace(1) %dx, ptr addrspace(1) %y, ptr addrspace(1) %dy) {
  call void (...) @__enzyme_fwddiff(ptr @f, ptr addrspace(1) %x, ptr addrspace(1) %dx, ptr addrspace(1) %y, ptr addrspace(1) %dy)
  ret void
}
