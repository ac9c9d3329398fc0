// A copy loop that walks pointers moves doubles as raw bits: a memcpy at
// -O0, integer loads and stores once optimized (they were silently zero
// gradients). At -O0 the memcpy's type is that of the pointers its
// pointer phis choose from, and the gradient is right; optimized, the
// integer copies through walking pointers are a diagnostic, with no
// output written.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: %autodiff-opt %t0.ll -o %t0.out.ll && %clang -w %t0.out.ll -o %t0 && %t0
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s --check-prefix=O2
// RUN: not test -e %t2.out.ll
// O2: in function `f` (while generating `diffe_f`), `store`: reverse mode does not yet support an integer access to memory that holds active floating-point data (through a pointer that walks
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double f(const double *x, int n) {
  double w[8];
  double *out = w;
  for (const double *p = x; p < x + 2 * n; p += 2, ++out)
    memcpy(out, p, sizeof(double));
  return w[0] + 2 * w[1];
}
void g(const double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 2);
}
int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  g(x, dx);
  // f = x[0] + 2 x[2].
  return !(dx[0] == 1 && dx[1] == 0 && dx[2] == 2 && dx[3] == 0);
}
