; Custom reverse rules in IR: `!enzyme_augment` / `!enzyme_gradient` on a
; declaration (here the shape of Numba's BLAS helper numba_xxdot: an i32
; status, the result through a pointer) are called in place of
; differentiating the function; a rule whose signature does not fit is a
; diagnostic naming the parameter and what was expected, with no output;
; so is the built-in rule of numba_xxdot for a constant complex kind.
; RUN: split-file %s %t
; RUN: %autodiff-opt %t/good.ll --no-postopt -S -o - | FileCheck %s --check-prefix=GOOD
; RUN: not %autodiff-opt %t/bad.ll -o %t/out.ll 2>&1 | FileCheck %s --check-prefix=BAD
; RUN: not test -e %t/out.ll
; GOOD-LABEL: define internal void @diffe_f(
; GOOD: %[[AUG:.*]] = call { ptr, i32 } @xxdot_aug(i8 100, i8 0, i64 %n, ptr %x, ptr %[[DX:[^,]*]], ptr %y, ptr %[[DY:[^,]*]], ptr %out, ptr %[[DOUT:[^)]*]])
; GOOD: %tape = extractvalue { ptr, i32 } %[[AUG]], 0
; GOOD: call void @xxdot_rev(i8 100, i8 0, i64 %n, ptr %x, ptr %[[DX]], ptr %y, ptr %[[DY]], ptr %{{.*}}, ptr %{{.*}}, ptr %tape.cached)
; GOOD-NOT: call i32 @xxdot(
; BAD-DAG: in function `g` (while generating `diffe_g`), call to `sq`: the reverse rule registered for `sq` by `__enzyme_register_gradient_sq`: parameter 1 of `sq_rev` is `i32`, expected `ptr` (the shadow of parameter 0 of `sq`)
; BAD-DAG: in function `h` (while generating `diffe_h`), call to `twice`: the reverse rule registered for `twice` by `__enzyme_register_gradient_twice`: `twice_aug` returns `ptr`, expected `{ ptr, double }` (the tape, then `twice`'s result)
; BAD-DAG: in function `k` (while generating `diffe_k`), call to `three`: the reverse rule registered for `three` by `__enzyme_register_gradient_three`: it must name the function, its augmented forward function and its reverse function ({fn, augment, reverse})
; BAD-DAG: in function `m` (while generating `diffe_m`), call to `lin`: the reverse rule registered for `lin` by metadata (!enzyme_augment, !enzyme_gradient): `lin_rev` returns `void`, expected `double` (the gradients of `lin`'s floating-point parameters, in order)
; BAD-DAG: in function `z` (while generating `diffe_z`), call to `numba_xxdot`: the derivative of numba_xxdot for complex numbers (kind 'z') is not built in; register a rule for it
; BAD-DAG: in function `z` (while generating `fwddiffe_z`), call to `numba_xxdot`: the derivative of numba_xxdot for complex numbers (kind 'z') is not built in; register a rule for it
; BAD-DAG: in function `zg` (while generating `diffe_zg`), call to `numba_xxgemm`: the derivative of numba_xxgemm for complex numbers (kind 'c') is not built in; register a rule for it
; BAD-DAG: in function `zn` (while generating `diffe_zn`), call to `numba_xxnrm2`: the derivative of numba_xxnrm2 for complex numbers (kind 'z') is not built in; register a rule for it
; BAD-DAG: in function `p` (while generating `diffe_p`), call to `few`: the reverse rule registered for `few` by `__enzyme_register_gradient_few`: `few_aug` takes 1 parameters, expected 2: ptr (parameter 0 of `few`), ptr (the shadow of parameter 0 of `few`)

;--- good.ll
declare !enzyme_augment !0 !enzyme_gradient !1 i32 @xxdot(i8, i8, i64, ptr, ptr, ptr)
declare { ptr, i32 } @xxdot_aug(i8, i8, i64, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @xxdot_rev(i8, i8, i64, ptr, ptr, ptr, ptr, ptr, ptr, ptr)
!0 = !{ptr @xxdot_aug}
!1 = !{ptr @xxdot_rev}
define double @f(ptr %x, ptr %y, i64 %n) {
  %out = alloca double
  %st = call i32 @xxdot(i8 100, i8 0, i64 %n, ptr %x, ptr %y, ptr %out)
  %ok = icmp eq i32 %st, 0
  br i1 %ok, label %good, label %bad
good:
  %v = load double, ptr %out
  %r = fmul double %v, %v
  ret double %r
bad:
  ret double -1.0
}
declare double @__enzyme_autodiff(...)
define void @caller(ptr %x, ptr %dx, ptr %y, ptr %dy, i64 %n) {
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx, ptr %y, ptr %dy, metadata !"enzyme_const", i64 %n)
  ret void
}

;--- bad.ll
declare double @__enzyme_autodiff(...)
define double @sq(ptr %p) noinline {
  %v = load double, ptr %p
  %r = fmul double %v, %v
  ret double %r
}
declare { ptr, double } @sq_aug(ptr, ptr)
declare void @sq_rev(ptr, i32, double, ptr)
@__enzyme_register_gradient_sq = global [3 x ptr] [ptr @sq, ptr @sq_aug, ptr @sq_rev]
define double @g(ptr %p) {
  %r = call double @sq(ptr %p)
  ret double %r
}
define double @twice(double %x) noinline {
  %r = fmul double %x, 2.0
  ret double %r
}
declare ptr @twice_aug(double)
declare double @twice_rev(double, double, ptr)
@__enzyme_register_gradient_twice = global [3 x ptr] [ptr @twice, ptr @twice_aug, ptr @twice_rev]
define double @h(double %x) {
  %r = call double @twice(double %x)
  ret double %r
}
define double @three(double %x) noinline {
  ret double %x
}
@__enzyme_register_gradient_three = global [2 x ptr] [ptr @three, ptr @twice_aug]
define double @k(double %x) {
  %r = call double @three(double %x)
  ret double %r
}
declare !enzyme_augment !0 !enzyme_gradient !1 double @lin(double)
declare { ptr, double } @lin_aug(double)
declare void @lin_rev(double, double, ptr)
!0 = !{ptr @lin_aug}
!1 = !{ptr @lin_rev}
define double @m(double %x) {
  %r = call double @lin(double %x)
  ret double %r
}
define void @few(ptr %p) noinline {
  store double 1.0, ptr %p
  ret void
}
declare ptr @few_aug(ptr)
declare void @few_rev(ptr, ptr, ptr)
@__enzyme_register_gradient_few = global [3 x ptr] [ptr @few, ptr @few_aug, ptr @few_rev]
define double @p(ptr %q, double %x) {
  store double %x, ptr %q
  call void @few(ptr %q)
  %v = load double, ptr %q
  ret double %v
}
declare i32 @numba_xxdot(i8, i8, i64, ptr, ptr, ptr)
define double @z(ptr %x) {
  %out = alloca [2 x double]
  %st = call i32 @numba_xxdot(i8 122, i8 0, i64 2, ptr %x, ptr %x, ptr %out)
  %v = load double, ptr %out
  ret double %v
}
declare double @__enzyme_fwddiff(...)
declare i32 @numba_xxgemm(i8, i8, i8, i64, i64, i64, ptr, ptr, i64, ptr, i64, ptr, ptr, i64)
define double @zg(ptr %a) {
  %one = alloca double
  store double 1.0, ptr %one
  %c = alloca [2 x double]
  %st = call i32 @numba_xxgemm(i8 99, i8 110, i8 110, i64 1, i64 1, i64 1, ptr %one, ptr %a, i64 1, ptr %a, i64 1, ptr %one, ptr %c, i64 1)
  %v = load double, ptr %c
  ret double %v
}
declare i32 @numba_xxnrm2(i8, i64, ptr, i64, ptr)
define double @zn(ptr %x) {
  %out = alloca double
  %st = call i32 @numba_xxnrm2(i8 122, i64 2, ptr %x, i64 1, ptr %out)
  %v = load double, ptr %out
  ret double %v
}
define void @caller(ptr %p, ptr %dp, double %x) {
  call void (...) @__enzyme_autodiff(ptr @zn, ptr %p, ptr %dp)
  call void (...) @__enzyme_autodiff(ptr @zg, ptr %p, ptr %dp)
  %f = call double (...) @__enzyme_fwddiff(ptr @z, ptr %p, ptr %dp)
  call void (...) @__enzyme_autodiff(ptr @g, ptr %p, ptr %dp)
  %b = call double (...) @__enzyme_autodiff(ptr @h, double %x)
  %c = call double (...) @__enzyme_autodiff(ptr @k, double %x)
  %d = call double (...) @__enzyme_autodiff(ptr @m, double %x)
  %e = call double (...) @__enzyme_autodiff(ptr @p, ptr %p, ptr %dp, double %x)
  call void (...) @__enzyme_autodiff(ptr @z, ptr %p, ptr %dp)
  ret void
}
