// --no-undo-log: reverse mode caches the loads that later stores overwrite
// instead of logging the stores (the log's replay helper is not made). The
// same option is accepted by the C API's options (runtime tests).
// UNSUPPORTED: sanitizers
// RUN: %clang -S -emit-llvm -O2 -fno-unroll-loops -fno-vectorize %s -o %t.ll
// RUN: %autodiff-opt %t.ll -O0 -S -o - | FileCheck %s --check-prefix=LOG
// RUN: %autodiff-opt %t.ll -O0 --no-undo-log -S -o - | FileCheck %s --check-prefix=NOLOG
#include <math.h>

extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

double sweeps(double *x, const double *b, int n, int count) {
  for (int s = 0; s < count; ++s)
    for (int i = 1; i + 1 < n; ++i)
      x[i] = 0.25 * (b[i] + x[i - 1] * x[i + 1]) + 0.1 * sin(x[i]) * x[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * b[i];
  return r;
}

// LOG: define internal void @diffe_sweeps.undo.replay(
// NOLOG-NOT: undo.replay
// NOLOG-NOT: undo.log
void g_sweeps(double *x, double *dx, const double *b, double *db, int n,
              int count) {
  __enzyme_autodiff((void *)sweeps, enzyme_dup, x, dx, enzyme_dup, b, db,
                    enzyme_const, n, enzyme_const, count);
}
