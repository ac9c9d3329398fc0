; Activity analysis: integer code, comparisons, values that reach no
; output, and calls to known-inactive functions are inactive; values on a
; path from an active input to the output, and memory they are stored
; into, are active.
; UNSUPPORTED: sanitizers
; RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-activity>' -disable-output %s | FileCheck %s

@.fmt = private constant [4 x i8] c"%f\0A\00"
declare i32 @printf(ptr, ...)

define double @f(double %x, i32 %n) {
entry:
  %tmp = alloca double
  %y = fmul double %x, %x
  store double %y, ptr %tmp
  %unused = fadd double %x, 1.0
  %cmp = fcmp olt double %unused, 0.0
  %call = call i32 (ptr, ...) @printf(ptr @.fmt, double %x)
  %k = mul i32 %n, 3
  %kf = sitofp i32 %k to double
  %back = load double, ptr %tmp
  %r = fmul double %back, %kf
  ret double %r
}

; CHECK-LABEL: activity of f:
; CHECK-NEXT: arg double %x: active
; CHECK-NEXT: arg i32 %n: inactive (does not depend on an active input)
; CHECK-NEXT: %tmp = alloca double, align 8 ; active
; CHECK-NEXT: %y = fmul double %x, %x ; active
; CHECK-NEXT: store double %y, ptr %tmp{{.*}} ; active
; CHECK-NEXT: %unused = fadd double %x, 1.000000e+00 ; inactive (reaches no active output)
; CHECK-NEXT: %cmp = fcmp olt double %unused, 0.000000e+00 ; inactive (does not depend on an active input)
; CHECK-NEXT: %call = call i32 (ptr, ...) @printf(ptr @.fmt, double %x) ; inactive (does not depend on an active input)
; CHECK-NEXT: %k = mul i32 %n, 3 ; inactive (does not depend on an active input)
; CHECK-NEXT: %kf = sitofp i32 %k to double ; inactive (does not depend on an active input)
; CHECK-NEXT: %back = load double, ptr %tmp{{.*}} ; active
; CHECK-NEXT: %r = fmul double %back, %kf ; active

; A pointer loaded from memory that receives active data makes that memory
; (here the local holding the heap pointer) active, and the heap block too.
define void @heap(double %x) {
entry:
  %slot = alloca ptr
  %mem = call ptr @malloc(i64 8)
  store ptr %mem, ptr %slot
  %p = load ptr, ptr %slot
  store double %x, ptr %p
  ret void
}
declare ptr @malloc(i64)

; CHECK-LABEL: activity of heap:
; CHECK: %slot = alloca ptr, align 8 ; active
; CHECK: %mem = call ptr @malloc(i64 8) ; active
; CHECK: %p = load ptr, ptr %slot{{.*}} ; active
