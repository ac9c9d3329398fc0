; Operations the forward emitter cannot differentiate on active data get a
; diagnostic, never a silently dropped tangent: integer arithmetic on the
; bits of an active double that become a double again, integer atomics on
; such bits, and instructions without a derivative (va_arg here) on active
; values.
; RUN: split-file %s %t
; RUN: not %autodiff-opt %t/add-bits.ll -o %t/out1.ll 2>&1 | FileCheck %s --check-prefix=ADD
; RUN: not test -e %t/out1.ll
; RUN: not %autodiff-opt %t/store-bits.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=STORE
; RUN: not %autodiff-opt %t/atomic-bits.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=ATOMIC
; RUN: not %autodiff-opt %t/va-arg.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=VAARG
; RUN: not %autodiff-opt %t/sitofp-bits.ll -o /dev/null 2>&1 | FileCheck %s --check-prefix=SITOFP
; RUN: %autodiff-opt %t/exponent.ll --derivative-fast-math=none --no-postopt -S -o - | FileCheck %s --check-prefix=EXPONENT

;--- add-bits.ll
; nextafter-like: one ulp up, on the bits.
; ADD: in function `next_up`{{.*}}integer `add` on the bits of an active floating-point value
define double @next_up(double %x) {
  %b = bitcast double %x to i64
  %n = add i64 %b, 1
  %y = bitcast i64 %n to double
  ret double %y
}
declare double @__enzyme_fwddiff(...)
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @next_up, double %x, double 1.0)
  ret double %r
}

;--- store-bits.ll
; The shifted bits are stored into memory typed as double.
; STORE: in function `halve_bits`{{.*}}integer `lshr` on the bits of an active floating-point value
define void @halve_bits(ptr %p) {
  %b = load i64, ptr %p, align 8, !tbaa !0
  %n = lshr i64 %b, 1
  store i64 %n, ptr %p, align 8, !tbaa !0
  ret void
}
declare void @__enzyme_fwddiff(...)
define void @d(ptr %p, ptr %dp) {
  call void (...) @__enzyme_fwddiff(ptr @halve_bits, metadata !"enzyme_dup", ptr %p, ptr %dp)
  ret void
}
!0 = !{!1, !1, i64 0}
!1 = !{!"double", !2, i64 0}
!2 = !{!"omnipotent char", !3, i64 0}
!3 = !{!"Simple C/C++ TBAA"}

;--- atomic-bits.ll
; ATOMIC: in function `or_bits`{{.*}}integer atomic `or` on memory that holds active floating-point data cannot be differentiated
define void @or_bits(ptr %p, double %x) {
  %b = bitcast double %x to i64
  %old = atomicrmw or ptr %p, i64 %b seq_cst, align 8
  ret void
}
declare void @__enzyme_fwddiff(...)
define void @d(ptr %p, ptr %dp, double %x) {
  call void (...) @__enzyme_fwddiff(ptr @or_bits, metadata !"enzyme_dup", ptr %p, ptr %dp, double %x, double 1.0)
  ret void
}

;--- va-arg.ll
; VAARG: in function `first_vararg`{{.*}}no derivative rule for instruction `va_arg`
define double @first_vararg(ptr %ap) {
  %v = va_arg ptr %ap, double
  ret double %v
}
declare double @__enzyme_fwddiff(...)
define double @d(ptr %ap, ptr %dap) {
  %r = call double (...) @__enzyme_fwddiff(ptr @first_vararg, metadata !"enzyme_dup", ptr %ap, ptr %dap)
  ret double %r
}

;--- exponent.ll
; Reading the exponent bits only to branch is fine: no diagnostic, and the
; derivative is the branch's.
; EXPONENT-LABEL: define internal double @fwddiffe_scale_big
; EXPONENT: %[[S:.*]] = select i1 %big, double 5.000000e-01, double 2.000000e+00
; EXPONENT: %[[T:.*]] = fmul double %"x'", %[[S]]
; EXPONENT: ret double %[[T]]
define double @scale_big(double %x) {
  %b = bitcast double %x to i64
  %e = lshr i64 %b, 52
  %big = icmp ugt i64 %e, 1030
  %s = select i1 %big, double 0.5, double 2.0
  %y = fmul double %x, %s
  ret double %y
}
declare double @__enzyme_fwddiff(...)
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @scale_big, double %x, double 1.0)
  ret double %r
}

;--- sitofp-bits.ll
; A fast log2 reads the bits of a float as a number.
; SITOFP: in function `fast_log2`{{.*}}`sitofp` reads the bits of an active floating-point value as a number
define float @fast_log2(float %x) {
  %b = bitcast float %x to i32
  %n = sitofp i32 %b to float
  %y = fmul float %n, 0x3E80000000000000
  ret float %y
}
declare float @__enzyme_fwddiff(...)
define float @d(float %x) {
  %r = call float (...) @__enzyme_fwddiff(ptr @fast_log2, float %x, float 1.0)
  ret float %r
}
