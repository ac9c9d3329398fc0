// A copy loop that walks pointers moves doubles as raw bits: a memcpy of a
// type the analysis cannot see at -O0, integer loads and stores once
// optimized. Both are diagnostics (they were silently zero gradients),
// with no output written.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s --check-prefix=O0
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s --check-prefix=O2
// RUN: not test -e %t2.out.ll
// O0: in function `f` (while generating `diffe_f`), call to `llvm.memcpy.p0.p0.i64`: reverse mode does not yet support a memory copy of active data whose type is mixed or unknown
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
