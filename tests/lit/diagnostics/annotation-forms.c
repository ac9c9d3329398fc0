// Annotations that look like autodiff requests but are malformed are
// reported, not silently ignored; a space before the parenthesis is fine.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.ll
// RUN: not %autodiff-opt %t.ll --stop-after-lowering -o %t.out.ll 2>&1 | FileCheck %s

// CHECK-NOT: annotation-forms.c:[[@LINE+1]]:
__attribute__((annotate("autodiff_forward (d_j, Dual, Dual)"))) double j(double x) { return x; }

// CHECK: autodiff-opt: error: {{.*}}annotation-forms.c:[[@LINE+1]]:
__attribute__((annotate("autodiff_forward"))) double k(double x) { return x; }

// CHECK: autodiff-opt: error: {{.*}}annotation-forms.c:[[@LINE+1]]:
__attribute__((annotate("autodiff_forwardX(d_l, Dual, Dual)"))) double l(double x) { return x; }

// CHECK: autodiff-opt: error: {{.*}}annotation-forms.c:[[@LINE+1]]: in autodiff of `m`: width 65 is larger than the supported maximum of 64
__attribute__((annotate("autodiff_forward(d_m, 65, Dual, Dual)"))) double m(double x) { return x; }
