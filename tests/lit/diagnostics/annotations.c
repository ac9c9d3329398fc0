// Errors in annotate-attribute requests name the C file and line of the
// annotation; every bad annotation is reported, and nothing is lowered.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.ll
// RUN: not %autodiff-opt %t.ll --stop-after-lowering -o %t.out.ll 2>&1 | FileCheck %s
// RUN: not ls %t.out.ll

// CHECK: autodiff-opt: error: {{.*}}annotations.c:[[@LINE+1]]: in annotation `autodiff_reverse(d_a, Active, Bogus)` on `a`: did not recognize Activity: `Bogus`
__attribute__((annotate("autodiff_reverse(d_a, Active, Bogus)"))) double a(double x) { return x; }

// CHECK-NEXT: autodiff-opt: error: {{.*}}annotations.c:[[@LINE+1]]: in autodiff of `b`: expected 2 activities, but found 1
__attribute__((annotate("autodiff_reverse(d_b, Active)"))) double b(double x) { return x; }

// CHECK-NEXT: autodiff-opt: error: {{.*}}annotations.c:[[@LINE+1]]: in autodiff of `c`: Duplicated can not be used for this type: parameter {{.*}} has type `f64`; only pointers, references and slices can be Duplicated
__attribute__((annotate("autodiff_reverse(d_c, Duplicated, Active)"))) double c(double x) { return x; }

// CHECK-NEXT: autodiff-opt: error: {{.*}}annotations.c:[[@LINE+1]]: in autodiff of `d`: Active can not be used for this type: parameter {{.*}} has type `*mut {{.*}}`; only floating-point values can be Active
__attribute__((annotate("autodiff_reverse(d_d, Active, Active)"))) double d(double *x) { return *x; }

// CHECK-NEXT: autodiff-opt: error: {{.*}}annotations.c:[[@LINE+1]]: in autodiff of `e`: Dual can not be used in Reverse Mode
__attribute__((annotate("autodiff_reverse(d_e, Dual, Active)"))) double e(double x) { return x; }

// CHECK-NEXT: autodiff-opt: error: {{.*}}annotations.c:[[@LINE+1]]: annotation `autodiff_forward(d_v, Dual)` must be on a function
__attribute__((annotate("autodiff_forward(d_v, Dual)"))) double v = 1.0;

// Other annotations are not ours.
__attribute__((annotate("hot path"))) double ok(double x) { return x; }
// CHECK-NOT: error
