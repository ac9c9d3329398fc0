// A target declared in C that cannot hold the derivative: the error names
// the annotation's file and line, then the source and the target.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.ll
// RUN: not %autodiff-opt %t.ll --stop-after-lowering -o /dev/null 2>&1 | FileCheck %s

// CHECK: autodiff-opt: error: {{.*}}annotation-target.c:[[@LINE+2]]: in autodiff of `f` into `d_f`: target `d_f` returns double, but the derivative returns { double, double }
__attribute__((annotate("autodiff_reverse(d_f, Active, Active)")))
double f(double x) { return x * x; }

// Returns the primal and the gradient, so a double is too small.
double d_f(double x, double dret);
double use(double x) { return d_f(x, 1.0); }
