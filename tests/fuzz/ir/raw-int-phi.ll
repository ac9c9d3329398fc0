; Doubles moved as i64 through a loop-carried phi (as optimized C copies
; them): the integer phi carries the raw bits of the tangent. The call
; declares a double result it never uses, as C code with one generic
; `double __enzyme_fwddiff(void *, ...)` declaration does for a void
; function. The program checks the tangents and exits non-zero otherwise.

declare double @__enzyme_fwddiff(...)
; Rotates a[0..n) left by one, moving the doubles as i64 through a phi.
define void @rot(ptr %a, i64 %n) {
entry:
  %first = load i64, ptr %a
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i1, %loop ]
  %carry = phi i64 [ %first, %entry ], [ %v, %loop ]
  %p = getelementptr i64, ptr %a, i64 %i
  %v = load i64, ptr %p
  %q = getelementptr i64, ptr %a, i64 %i
  %prev = getelementptr i64, ptr %q, i64 -1
  store i64 %v, ptr %prev
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %last = getelementptr i64, ptr %a, i64 %n
  %lastm1 = getelementptr i64, ptr %last, i64 -1
  store i64 %carry, ptr %lastm1
  ret void
}
define i32 @main() {
  %a = alloca [3 x double]
  %da = alloca [3 x double]
  store [3 x double] [double 1.0, double 2.0, double 3.0], ptr %a
  store [3 x double] [double 10.0, double 20.0, double 30.0], ptr %da
  call double (...) @__enzyme_fwddiff(ptr @rot, ptr %a, ptr %da, i64 3)
  ; rotating left by one, with the last element taking the carry of a[n-2]
  %e0 = load double, ptr %da
  %p2 = getelementptr double, ptr %da, i64 2
  %e2 = load double, ptr %p2
  %o0 = fcmp oeq double %e0, 20.0
  %o2 = fcmp oeq double %e2, 20.0
  %ok = and i1 %o0, %o2
  %rc = select i1 %ok, i32 0, i32 1
  ret i32 %rc
}
