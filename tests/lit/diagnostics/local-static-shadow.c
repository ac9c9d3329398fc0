// A lazily filled workspace in a function-local `static` that holds active
// data: C cannot register a shadow for it (clang names it `smooth.work`,
// and the old advice spelled `__enzyme_shadow_global_smooth.work`, which
// is not C). The diagnostic says to move it to file scope; at -O1 it was a
// bare "select between an active pointer and one without shadow memory".
// No output is written.
// RUN: rm -f %t0.out.ll %t1.out.ll %t2.out.ll
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t1.ll
// RUN: not %autodiff-opt %t1.ll -o %t1.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t1.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t2.out.ll
// CHECK: in function `loss` (while generating `diffe_loss`)
// CHECK-SAME: `smooth.work{{(.body)?}}` belongs to the static variable `work` local to function `smooth`, which C and C++ code cannot register a shadow for: declare `work` at file scope and register it there
#include <stdlib.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

static double smooth(const double *x, int n) {
  static double *work = 0;
  if (!work)
    work = malloc(64 * sizeof(double));
  for (int i = 0; i < n; ++i)
    work[i] = x[i] * x[i];
  double s = 0;
  for (int i = 1; i < n; ++i)
    s += work[i] - work[i - 1];
  return s;
}

double loss(const double *x, int n) { return smooth(x, n) * 2; }

void gradient(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, n);
}
