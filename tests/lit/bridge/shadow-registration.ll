; `void *__enzyme_shadow_global_NAME[2] = {&global, &shadow}` (the C form
; of `!enzyme_shadow`) is translated into the metadata, and the derivative
; uses the shadow, also through constant-expression addresses into the
; global. Rust's form (`#[no_mangle] static mut
; __enzyme_shadow_global_NAME: [*const T; 2]`, which rustc emits as a
; packed struct of two pointers) is accepted too. Malformed registrations
; are diagnosed.
; RUN: split-file %s %t
; RUN: %autodiff-opt %t/ok.ll -O0 -S -o - | FileCheck %s --check-prefix=OK
; RUN: %autodiff-opt %t/rust.ll -O0 -S -o - | FileCheck %s --check-prefix=RUST
; RUN: not %autodiff-opt %t/bad.ll -O0 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

;--- ok.ll
; OK: @table = global [2 x double] [double 1.000000e+00, double 2.000000e+00], !enzyme_shadow ![[S:[0-9]+]]
; OK: @__enzyme_shadow_global_table = global [2 x ptr] [ptr @table, ptr @d_table]
; OK-LABEL: define internal double @fwddiffe_f(
; OK: %[[A:.*]] = getelementptr inbounds i8, ptr @table, i64 8
; OK: load double, ptr %[[A]]
; OK: load double, ptr getelementptr inbounds (i8, ptr @d_table, i64 8)
; OK: ![[S]] = !{ptr @d_table}
@table = global [2 x double] [double 1.0, double 2.0]
@d_table = global [2 x double] zeroinitializer
@__enzyme_shadow_global_table = global [2 x ptr] [ptr @table, ptr @d_table]
declare double @__enzyme_fwddiff(...)
define double @f(double %x) {
  %t = load double, ptr getelementptr inbounds (i8, ptr @table, i64 8)
  %m = fmul double %t, %x
  ret double %m
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

;--- rust.ll
; RUST: @GRID = global [2 x double] [double 1.000000e+00, double 2.000000e+00], !enzyme_shadow ![[S:[0-9]+]]
; RUST-LABEL: define internal double @fwddiffe_f(
; RUST: load double, ptr getelementptr inbounds (i8, ptr @d_GRID, i64 8)
; RUST: ![[S]] = !{ptr @d_GRID}
@GRID = global [2 x double] [double 1.0, double 2.0]
@d_GRID = global [2 x double] zeroinitializer
@__enzyme_shadow_global_GRID = global <{ ptr, ptr }> <{ ptr @GRID, ptr @d_GRID }>
declare double @__enzyme_fwddiff(...)
define double @f(double %x) {
  %t = load double, ptr getelementptr inbounds (i8, ptr @GRID, i64 8)
  %m = fmul double %t, %x
  ret double %m
}
define double @d(double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, double %x, double 1.0)
  ret double %r
}

;--- bad.ll
; BAD-DAG: autodiff-opt: error: `__enzyme_shadow_global_one` must be `void *__enzyme_shadow_global_one[2] = {&global, &shadow};`{{$}}
; BAD-DAG: autodiff-opt: error: `__enzyme_shadow_global_fn` must be `void *__enzyme_shadow_global_fn[2] = {&global, &shadow};` (both elements the addresses of global variables)
; BAD-DAG: autodiff-opt: error: `__enzyme_shadow_global_self`: `a` cannot be its own shadow
; BAD-DAG: autodiff-opt: error: `__enzyme_shadow_global_const`: `c` is constant, so its loads may be folded away and it cannot carry a derivative; declare it without const
; BAD-DAG: autodiff-opt: error: `__enzyme_shadow_global_size`: the shadow `small` has 4 bytes, but `a` has 8; it must have the same type
; BAD-DAG: autodiff-opt: error: `__enzyme_shadow_global_twice`: `b` already has the shadow `db`
; BAD-DAG: autodiff-opt: error: `__enzyme_shadow_global_decl` is only declared; it must be `void *__enzyme_shadow_global_decl[2] = {&global, &shadow};`
@a = global double 1.0
@b = global double 1.0, !enzyme_shadow !0
@db = global double 0.0
@other = global double 0.0
@c = constant double 1.0
@dc = global double 0.0
@small = global float 0.0
@__enzyme_shadow_global_one = global [1 x ptr] [ptr @a]
@__enzyme_shadow_global_fn = global [2 x ptr] [ptr @a, ptr @f]
@__enzyme_shadow_global_self = global [2 x ptr] [ptr @a, ptr @a]
@__enzyme_shadow_global_const = global [2 x ptr] [ptr @c, ptr @dc]
@__enzyme_shadow_global_size = global [2 x ptr] [ptr @a, ptr @small]
@__enzyme_shadow_global_twice = global [2 x ptr] [ptr @b, ptr @other]
@__enzyme_shadow_global_decl = external global [2 x ptr]
define double @f(double %x) {
  ret double %x
}
!0 = !{ptr @db}
