; The request cache: two calls with the same request share one derivative;
; a recursive function is differentiated once and calls itself through the
; cache; a different activity is a different request.
; UNSUPPORTED: sanitizers
; RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-requests>' -disable-output %s | FileCheck %s

define double @pow_rec(double %x, i32 %n) {
entry:
  %z = icmp eq i32 %n, 0
  br i1 %z, label %base, label %rec
base:
  ret double 1.0
rec:
  %n1 = sub i32 %n, 1
  %r = call double @pow_rec(double %x, i32 %n1)
  %m = fmul double %r, %x
  ret double %m
}

declare double @__enzyme_fwddiff(...)
@enzyme_const = external global ptr

define double @a(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @pow_rec, double %x, double 1.0, i32 3)
  ret double %r
}
define double @b(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @pow_rec, double %x, double 2.0, i32 5)
  ret double %r
}
define double @c(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @pow_rec, ptr @enzyme_const, double %x, i32 5)
  ret double %r
}

; CHECK: request in a: fwd(pow_rec)[dup,const]w1+tangent
; CHECK-NEXT: request in b: fwd(pow_rec)[dup,const]w1+tangent
; CHECK-NEXT: request in c: fwd(pow_rec)[const,const]w1+tangent
; The recursive call needs the primal too, so it is its own request; in
; the all-const derivative nothing active reaches it, so it is copied.
; CHECK-NEXT: fwd(pow_rec)[dup,const]w1+tangent -> fwddiffe_pow_rec
; CHECK-NEXT: fwd(pow_rec)[const,const]w1+tangent -> fwddiffe_pow_rec.1
; CHECK-NEXT: fwd(pow_rec)[dup,const]w1+primal+tangent -> fwddiffe_pow_rec.2
; CHECK-NOT: ->
