; Set-aside code and what it uses come back as they were, in the cases a
; helper hunt found broken (each linked or ran wrongly with the first
; version of codegen/SetAside):
; - an unnamed external global that set-aside code uses keeps its
;   definition (it came back `external`: undefined reference at link time);
; - a set-aside function taking the address of a block of a reached one is
;   not set aside (linking failed: "Never resolved function from
;   blockaddress");
; - a linkonce (interposable) function both sides call is neither inlined
;   into the derivative's caller nor given attributes from its body (a
;   strong definition elsewhere must win at link time);
; - a comdat keeps the global it shares with a set-aside function (it was
;   deleted: another object's references to it became null);
; - a set-aside static named like a library function (`exp2`) keeps its
;   name, so the optimizer does not create libm's `exp2` for `pow(2, x)`
;   only to have it bound to the static (a wrong gradient at -O0).
; RUN: %autodiff-opt %s -O2 -S -o - | FileCheck %s

; CHECK: $grp = comdat any
; CHECK: @grp_data = linkonce_odr global i32 7, comdat($grp)
; CHECK: @0 = global double 3.000000e+00
; CHECK-NOT: @llvm.compiler.used
; CHECK: define {{.*}}i32 @dispatch(ptr %l)
; CHECK: define linkonce i32 @g(i32 %x){{( local_unnamed_addr)?}} {
; CHECK: define weak_odr i32 @grp(i32 %x) comdat {
; CHECK: define internal i32 @exp2(i32 %v) {
; CHECK: define double @grad(double %x)
; CHECK-NOT: define
; CHECK: call i32 @g(i32 5)
; CHECK: define i32 @other()
; CHECK: define i32 @unrelated() {
; CHECK-NEXT: %e = call i32 @exp2(i32 3)
; CHECK: define i32 @main() {
; CHECK-NOT: @exp2(double

$grp = comdat any

@0 = global double 3.0
@grp_data = linkonce_odr global i32 7, comdat($grp)

define i32 @dispatch(ptr %l) {
entry:
  indirectbr ptr %l, [label %a, label %b]
a:
  ret i32 1
b:
  ret i32 2
}

define linkonce i32 @g(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

define weak_odr i32 @grp(i32 %x) comdat {
  ret i32 %x
}

define internal i32 @exp2(i32 %v) {
  %r = mul i32 %v, 1000
  ret i32 %r
}

define double @f(double %x) {
  %s = load double, ptr @0
  %p = call double @pow(double 2.0, double %x)
  %a = fmul double %p, %s
  ret double %a
}

declare double @pow(double, double)
declare double @__enzyme_autodiff(ptr, ...)

define double @grad(double %x) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  %i = call i32 @dispatch(ptr blockaddress(@dispatch, %a))
  %j = call i32 @g(i32 5)
  %k = add i32 %i, %j
  %kf = sitofp i32 %k to double
  %s = fadd double %r, %kf
  ret double %s
}

define i32 @other() {
  %i = call i32 @dispatch(ptr blockaddress(@dispatch, %b))
  %j = call i32 @g(i32 5)
  %s = add i32 %i, %j
  ret i32 %s
}

define i32 @unrelated() {
  %e = call i32 @exp2(i32 3)
  %u = call i32 @grp(i32 %e)
  ret i32 %u
}

define i32 @main() {
  store double 5.0, ptr @0
  %d = call double @grad(double 2.0)
  %o = call i32 @other()
  %u = call i32 @unrelated()
  %t = add i32 %o, %u
  ret i32 %t
}
