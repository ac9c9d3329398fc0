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

// Other spellings of a mode with an argument list are requests too: the
// parser names the modes it knows.
// CHECK: autodiff-opt: error: {{.*}}annotation-forms.c:[[@LINE+1]]: in annotation `autodiff_fwd(d_n, Dual, Dual)` on `n`: expected autodiff_forward or autodiff_reverse, found `autodiff_fwd`
__attribute__((annotate("autodiff_fwd(d_n, Dual, Dual)"))) double n(double x) { return x; }

// CHECK: autodiff-opt: error: {{.*}}annotation-forms.c:[[@LINE+1]]: in annotation `AUTODIFF_FORWARD(d_o, Dual, Dual)` on `o`: expected autodiff_forward or autodiff_reverse, found `AUTODIFF_FORWARD`
__attribute__((annotate("AUTODIFF_FORWARD(d_o, Dual, Dual)"))) double o(double x) { return x; }

// An annotation that only starts with the word, without arguments, is
// someone else's.
// CHECK-NOT: annotation-forms.c:[[@LINE+1]]:
__attribute__((annotate("autodiffable"))) double p(double x) { return x; }
