; A swap of two doubles as rustc -O3 writes it: a <2 x i64> load, a
; shufflevector and a store. Forward mode moves the tangents' bits the
; same way (they were dropped: zero tangents); reverse mode, which cannot
; yet reverse raw-bit moves through vectors, says so (it gave swapped
; gradients without a word).

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
