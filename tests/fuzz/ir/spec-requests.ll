; autodiff square=autodiff_reverse(d_square, Active, Active)
; autodiff sum_sq(x: &[f64]) -> f64=autodiff_reverse(d_sum_sq, Duplicated, Active)
; autodiff dot(a: &[f64], b: &[f64]) -> f64=autodiff_forward(d_dot, Dual, Const, Dual)

define double @square(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @sum_sq(ptr %x, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %sum, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %vv = fmul double %v, %v
  %sum = fadd double %s, %vv
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done

done:
  %result = phi double [ 0.0, %entry ], [ %sum, %loop ]
  ret double %result
}

define double @dot(ptr %a, i64 %na, ptr %b, i64 %nb) {
entry:
  %empty = icmp eq i64 %na, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %s = phi double [ 0.0, %entry ], [ %sum, %loop ]
  %pa = getelementptr inbounds double, ptr %a, i64 %i
  %pb = getelementptr inbounds double, ptr %b, i64 %i
  %va = load double, ptr %pa
  %vb = load double, ptr %pb
  %ab = fmul double %va, %vb
  %sum = fadd double %s, %ab
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %na
  br i1 %more, label %loop, label %done

done:
  %result = phi double [ 0.0, %entry ], [ %sum, %loop ]
  ret double %result
}
