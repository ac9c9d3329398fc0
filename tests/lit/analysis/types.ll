; Type analysis: from load/store types, constant and variable GEP offsets,
; TBAA tags (an i64 copy of a double), rustc's enzyme_type strings, and
; memcpy between two objects.
; UNSUPPORTED: sanitizers
; RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-types>' -disable-output %s | FileCheck %s

%struct.S = type { i32, double, ptr }

define void @fields(ptr %s) {
  %f = getelementptr %struct.S, ptr %s, i32 0, i32 1
  %v = load double, ptr %f
  %q = getelementptr %struct.S, ptr %s, i32 0, i32 2
  %pp = load ptr, ptr %q
  %n = load i32, ptr %s
  ret void
}
; CHECK-LABEL: types of fields:
; CHECK-NEXT: %s: {[0]:Integer, [8]:Float@double, [16]:Pointer}

define void @tbaa_copy(ptr %dst, ptr %src) {
  %bits = load i64, ptr %src, !tbaa !1
  store i64 %bits, ptr %dst, !tbaa !1
  ret void
}
; CHECK-LABEL: types of tbaa_copy:
; CHECK-NEXT: %src: {[0]:Float@double}
; CHECK-NEXT: %dst: {[0]:Float@double}

define void @rust_slice(ptr "enzyme_type"="{[-1]:Pointer, [-1,-1]:Float@double}" %x, i64 %i) {
  ret void
}
; CHECK-LABEL: types of rust_slice:
; CHECK-NEXT: %x: {[-1]:Float@double}

define void @copy(ptr %a, ptr %b, i64 %i) {
  %e = getelementptr double, ptr %a, i64 %i
  %v = load double, ptr %e
  call void @llvm.memcpy.p0.p0.i64(ptr %b, ptr %a, i64 64, i1 false)
  ret void
}
; CHECK-LABEL: types of copy:
; CHECK-NEXT: %a: {[-1]:Float@double}
; CHECK-NEXT: %b: {[-1]:Float@double}

declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

!0 = !{!"Simple C/C++ TBAA"}
!1 = !{!2, !2, i64 0}
!2 = !{!"double", !3, i64 0}
!3 = !{!"omnipotent char", !0, i64 0}
