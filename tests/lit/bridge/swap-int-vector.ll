; A swap of two doubles as rustc -O3 writes it: a <2 x i64> load, a
; shufflevector and a store. Forward mode moves the tangents' bits the
; same way (they were dropped: zero tangents). Reverse mode gives the
; integer copy the type the memory holds (<2 x double>, from the loads of
; the same bytes as double) and moves the adjoints back the same way (it
; once gave swapped gradients without a word, then refused).
; RUN: split-file %s %t
; RUN: cat %t/f.ll %t/fwd.ll > %t/a.ll
; RUN: %autodiff-opt %t/a.ll -O0 -o %t/a.o.ll && %clang -w %t/a.o.ll -o %t/a && %t/a
; RUN: %autodiff-opt %t/a.ll -O2 -o %t/a2.o.ll && %clang -w %t/a2.o.ll -o %t/a2 && %t/a2
; RUN: cat %t/f.ll %t/rev.ll > %t/b.ll
; RUN: %autodiff-opt %t/b.ll -O0 -o %t/b.o.ll && %clang -w %t/b.o.ll -o %t/b && %t/b
; RUN: %autodiff-opt %t/b.ll -O2 -o %t/b2.o.ll && %clang -w %t/b2.o.ll -o %t/b2 && %t/b2
; RUN: %autodiff-opt %t/b.ll --no-postopt -S -o - | FileCheck %s
; The reverse sweep's swap is of doubles:
; CHECK: define internal void @diffe_f(
; CHECK: shufflevector <2 x double>

;--- f.ll
define void @f(ptr %y) {
  %v0 = load <2 x i64>, ptr %y, align 8
  %v1 = shufflevector <2 x i64> %v0, <2 x i64> poison, <2 x i32> <i32 1, i32 0>
  store <2 x i64> %v1, ptr %y, align 8
  %a = load double, ptr %y, align 8
  %p1 = getelementptr double, ptr %y, i64 1
  %b = load double, ptr %p1, align 8
  %a2 = fmul double %a, %a
  %b2 = fmul double %b, %b
  store double %a2, ptr %y
  store double %b2, ptr %p1
  ret void
}

;--- rev.ll
declare void @__enzyme_autodiff(...)
define void @g(ptr %y, ptr %dy) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %y, ptr %dy)
  ret void
}
; y = (0.5, 3), seed (1, 10): f makes (y1^2, y0^2), so dy = (10 * 2 * 0.5,
; 1 * 2 * 3) = (10, 6).
define i32 @main() {
  %y = alloca [2 x double]
  %dy = alloca [2 x double]
  store double 0.5, ptr %y
  %y1 = getelementptr double, ptr %y, i64 1
  store double 3.0, ptr %y1
  store double 1.0, ptr %dy
  %dy1 = getelementptr double, ptr %dy, i64 1
  store double 10.0, ptr %dy1
  call void @g(ptr %y, ptr %dy)
  %d0 = load double, ptr %dy
  %d1 = load double, ptr %dy1
  %ok0 = fcmp oeq double %d0, 10.0
  %ok1 = fcmp oeq double %d1, 6.0
  %ok = and i1 %ok0, %ok1
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}

;--- fwd.ll
declare void @__enzyme_fwddiff(...)
define void @h(ptr %y, ptr %dy) {
  call void (...) @__enzyme_fwddiff(ptr @f, ptr %y, ptr %dy)
  ret void
}
define i32 @main() {
  %y = alloca [2 x double]
  %dy = alloca [2 x double]
  store double 0.5, ptr %y
  %y1 = getelementptr double, ptr %y, i64 1
  store double 3.0, ptr %y1
  store double 1.0, ptr %dy
  %dy1 = getelementptr double, ptr %dy, i64 1
  store double 10.0, ptr %dy1
  call void @h(ptr %y, ptr %dy)
  %d0 = load double, ptr %dy
  %d1 = load double, ptr %dy1
  %ok0 = fcmp oeq double %d0, 60.0
  %ok1 = fcmp oeq double %d1, 1.0
  %ok = and i1 %ok0, %ok1
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
