// The pass plugin: `autodiff-lower` in opt lowers annotations exactly like
// autodiff-opt; in clang (-fpass-plugin) lowering runs at the start of the
// pipeline and differentiation at its end, at -O0 and -O2, for annotated
// functions and direct __enzyme_* calls alike.
// UNSUPPORTED: sanitizers
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.ll
// RUN: %opt -load-pass-plugin=%plugin -passes=autodiff-lower -S %t.ll -o - | FileCheck %s
// RUN: %clang -fpass-plugin=%plugin -O0 %s -o %t.O0 && %t.O0 | FileCheck %s --check-prefix=EXEC
// RUN: %clang -fpass-plugin=%plugin -O2 %s -o %t.O2 && %t.O2 | FileCheck %s --check-prefix=EXEC

// CHECK-NOT:   autodiff_forward(
// CHECK-LABEL: define { double, double } @d_f(double noundef %arg0, double noundef %darg0)
// CHECK-NEXT:  entry:
// CHECK-NEXT:    call { double, double } (...) @__enzyme_fwddiff_d_f(ptr @f, ptr @enzyme_primal_return, ptr @enzyme_dup, double %arg0, double %darg0)

// EXEC: 8 12 27

#include <stdio.h>

typedef struct { double primal, tangent; } D2;

__attribute__((annotate("autodiff_forward(d_f, Dual, Dual)")))
double f(double x) { return x * x * x; }
D2 d_f(double x, double dx);

extern int enzyme_dup;
double __enzyme_fwddiff(void *, ...);
double g(double x) { return __enzyme_fwddiff((void *)f, enzyme_dup, x, 1.0); }

int main(void) {
  D2 r = d_f(2.0, 1.0);
  printf("%g %g %g\n", r.primal, r.tangent, g(3.0));
  return 0;
}
