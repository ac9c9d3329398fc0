; Addresses computed on integers, as Numba's strided views do:
; inttoptr(ptrtoint(p) + (i << 4)) reads every other double. Forward and
; reverse mode do the same arithmetic on the shadow's address (both were
; silently zero: the integer add dropped the activity).
; p = {3, _, 5, _}: f = sum of squares of p[0], p[2]; grad = {6, 10},
; tangent along dp = {1, _, 1, _} = 16.

;--- f.ll
define double @f(ptr %p, i64 %n) {
entry:
  %b = ptrtoint ptr %p to i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %off = shl i64 %i, 4
  %a = add i64 %b, %off
  %q = inttoptr i64 %a to ptr
  %v = load double, ptr %q
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

;--- fwd.ll
declare double @__enzyme_fwddiff(...)
define double @h(ptr %p, ptr %dp, i64 %n) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr %p, ptr %dp, i64 %n)
  ret double %r
}
define i32 @main() {
  %p = alloca [4 x double]
  %dp = alloca [4 x double]
  store double 3.0, ptr %p
  %p2 = getelementptr double, ptr %p, i64 2
  store double 5.0, ptr %p2
  store double 1.0, ptr %dp
  %dp2 = getelementptr double, ptr %dp, i64 2
  store double 1.0, ptr %dp2
  %r = call double @h(ptr %p, ptr %dp, i64 2)
  %ok = fcmp oeq double %r, 16.0
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}

;--- rev.ll
declare double @__enzyme_autodiff(...)
define double @g(ptr %p, ptr %dp, i64 %n) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, i64 %n)
  ret double 0.0
}
define i32 @main() {
  %p = alloca [4 x double]
  %dp = alloca [4 x double]
  store double 3.0, ptr %p
  %p2 = getelementptr double, ptr %p, i64 2
  store double 5.0, ptr %p2
  store double 0.0, ptr %dp
  %dp2 = getelementptr double, ptr %dp, i64 2
  store double 0.0, ptr %dp2
  %r = call double @g(ptr %p, ptr %dp, i64 2)
  %d0 = load double, ptr %dp
  %d2 = load double, ptr %dp2
  %ok0 = fcmp oeq double %d0, 6.0
  %ok2 = fcmp oeq double %d2, 10.0
  %ok = and i1 %ok0, %ok2
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
