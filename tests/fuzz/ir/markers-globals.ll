; Markers as external globals passed by value (current rustc), with a
; duplicated pointer, a const pointer and a const integer.

@enzyme_dup = external global ptr
@enzyme_const = external global ptr

define double @dot(ptr %a, ptr %b, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %pa = getelementptr double, ptr %a, i64 %i
  %pb = getelementptr double, ptr %b, i64 %i
  %va = load double, ptr %pa
  %vb = load double, ptr %pb
  %p = fmul double %va, %vb
  %s1 = fadd double %s, %p
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %s1
}

declare double @__enzyme_fwddiff_dot(...)

define double @caller(ptr %a, ptr %da, ptr %b, i64 %n) {
  %r = call double (...) @__enzyme_fwddiff_dot(ptr @dot, ptr @enzyme_dup, ptr %a, ptr %da, ptr @enzyme_const, ptr %b, ptr @enzyme_const, i64 %n)
  ret double %r
}

; The markers are gone, so the output links without them.
