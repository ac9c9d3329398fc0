; Post-optimization leaves the functions differentiation does not reach as
; they came (codegen/SetAside.h) and gives everything back as it was: the
; set-aside functions keep their bodies (the dead `add` stays), linkage,
; comdat, place and name (none for @1); what they use keeps its linkage; the
; derivative still reads @counter, which only set-aside code writes; module
; asm and the constructor list appear once. --postopt-whole-module
; optimizes them too: GlobalOpt then runs the constructor at compile time
; and folds @counter.
; RUN: %autodiff-opt %s -O2 -S -o - | FileCheck %s
; RUN: %autodiff-opt %s -O2 --postopt-whole-module -S -o - \
; RUN:   | FileCheck %s --check-prefix=WHOLE

; CHECK: module asm "# set-aside marker"
; CHECK-NOT: module asm
; CHECK: $tmpl = comdat any
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
; CHECK: @counter = internal global i32 0
; CHECK: @table = private unnamed_addr constant [2 x double]
; CHECK: @0 = private unnamed_addr constant [2 x double]
; CHECK: @sq_alias = alias double (double), ptr @sq

; CHECK: define internal void @init() {
; CHECK-NEXT:  %v = load i32, ptr @counter
; CHECK-NEXT:  %dead = add i32 %v, 2
; CHECK: define linkonce_odr void @tmpl() comdat {
; CHECK: define internal double @1(i32 %i) {
; CHECK: define double @sq(double %x)
; CHECK: define double @f(double %x)
; CHECK: define double @caller(double %x)
; CHECK-NEXT: {{.*}} = load i32, ptr @counter

; WHOLE-NOT: define internal void @init()
; WHOLE: define {{.*}}double @caller(double %x)
; WHOLE-NEXT: ret double 1.000000e+00

module asm "# set-aside marker"

$tmpl = comdat any

@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
@counter = internal global i32 0
@table = private unnamed_addr constant [2 x double] [double 1.0, double 2.0]
@0 = private unnamed_addr constant [2 x double] [double 3.0, double 4.0]
@sink = global double 0.0
@sq_alias = alias double (double), ptr @sq

define internal void @init() {
  %v = load i32, ptr @counter
  %dead = add i32 %v, 2
  %w = add i32 %v, 1
  store i32 %w, ptr @counter
  call void @tmpl()
  %r = call double @1(i32 1)
  store double %r, ptr @sink
  ret void
}

define linkonce_odr void @tmpl() comdat {
  %p = getelementptr [2 x double], ptr @table, i64 0, i64 1
  %t = load double, ptr %p
  store double %t, ptr @sink
  ret void
}

define internal double @1(i32 %i) {
  %p = getelementptr [2 x double], ptr @0, i64 0, i32 %i
  %t = load double, ptr %p
  ret double %t
}

define double @sq(double %x) {
  %m = fmul double %x, %x
  ret double %m
}

define double @f(double %x) {
  %c = load i32, ptr @counter
  %cf = sitofp i32 %c to double
  %m = fmul double %x, %cf
  ret double %m
}

declare double @__enzyme_autodiff(...)

define double @caller(double %x) {
  %d = call double (...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %d
}
