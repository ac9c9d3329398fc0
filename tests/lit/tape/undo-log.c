// The undo log (-O2, not unrolled or vectorized):
//  - a diffusion stencil whose buffers swap every step: its five loads per
//    point would be cached (a later step writes what they read); the one
//    store is logged instead (16 bytes per point: address and old value),
//    and nothing is cached per point;
//  - Gauss-Seidel sweeps in place: four loads per store (x[i] twice),
//    logged, in both copies of the body versioned on disjoint arguments;
//  - an in-place update with one load per store x[i] = f(x[i]) keeps its
//    cached value (8 bytes against the log's 16);
//  - a store into memory allocated by the function is never logged (the
//    memory is freed before the log's replay);
//  - a linear stencil with a cubic term: only the centre's value is needed
//    (the neighbours enter through sums and fmuladd's addend), so caching
//    it costs less than logging the store.
// UNSUPPORTED: sanitizers
// RUN: %clang -S -emit-llvm -O2 -fno-unroll-loops -fno-vectorize %s -o %t.ll
// RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-tape>' \
// RUN:   -disable-output %t.ll 2>&1 | FileCheck %s
// autodiff-opt --no-undo-log caches instead (no replay helper is made):
// RUN: %autodiff-opt %t.ll -O0 -S -o - | FileCheck %s --check-prefix=LOG
// RUN: %autodiff-opt %t.ll -O0 --no-undo-log -S -o - \
// RUN:   | FileCheck %s --check-prefix=NOLOG
// RUN: %opt -load-pass-plugin=%plugin -passes=autodiff %t.ll -S -o - \
// RUN:   | FileCheck %s --check-prefix=LOG
// RUN: %opt -load-pass-plugin=%plugin -passes=autodiff -autodiff-no-undo-log \
// RUN:   %t.ll -S -o - | FileCheck %s --check-prefix=NOLOG
// LOG: define internal void @diffe_sweeps.undo.replay(
// NOLOG-NOT: undo.replay
// NOLOG-NOT: undo.log
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

static double conductivity(double a, double b) {
  return 1.0 / (1.0 + 0.5 * (a * a + b * b));
}

double diffusion(const double *u0, double *u, double *tmp, long n,
                 long steps) {
  memcpy(u, u0, n * n * sizeof(double));
  memcpy(tmp, u0, n * n * sizeof(double));
  for (long s = 0; s < steps; ++s) {
    for (long i = 1; i + 1 < n; ++i)
      for (long j = 1; j + 1 < n; ++j) {
        long k = i * n + j;
        double c = u[k], e = u[k + 1], w = u[k - 1], no = u[k - n],
               so = u[k + n];
        tmp[k] = c + 0.2 * (conductivity(c, e) * (e - c) -
                            conductivity(w, c) * (c - w) +
                            conductivity(c, so) * (so - c) -
                            conductivity(no, c) * (c - no));
      }
    double *t = u;
    u = tmp;
    tmp = t;
  }
  double r = 0;
  for (long k = 0; k < n * n; ++k)
    r += u[k] * u[k];
  return r;
}

// CHECK-LABEL: tape of diffe_diffusion
// CHECK-NEXT:    undo log: 1 store keeps what it overwrites, entries of address and bytes
// CHECK-NEXT:      store double
// CHECK-NEXT:        16 bytes per execution in loop %{{.*}}; 5 loads read again instead of cached
// CHECK:         loop %{{.*}} (depth 3): nothing cached per iteration
void g_diffusion(const double *u0, double *du0, double *u, double *du,
                 double *tmp, double *dtmp, long n, long steps) {
  __enzyme_autodiff((void *)diffusion, enzyme_dup, u0, du0, enzyme_dup, u, du,
                    enzyme_dup, tmp, dtmp, enzyme_const, n, enzyme_const,
                    steps);
}

double sweeps(double *x, const double *b, int n, int count) {
  for (int s = 0; s < count; ++s)
    for (int i = 1; i + 1 < n; ++i)
      x[i] = 0.25 * (b[i] + x[i - 1] * x[i + 1]) + 0.1 * sin(x[i]) * x[i];
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * b[i];
  return r;
}

// CHECK-LABEL: tape of diffe_sweeps
// CHECK:         undo log: 2 stores keep what they overwrite, entries of address and bytes
// CHECK-NEXT:      store double
// CHECK-NEXT:        16 bytes per execution in loop %{{.*}}; 4 loads read again instead of cached
void g_sweeps(double *x, double *dx, const double *b, double *db, int n,
              int count) {
  __enzyme_autodiff((void *)sweeps, enzyme_dup, x, dx, enzyme_dup, b, db,
                    enzyme_const, n, enzyme_const, count);
}

double square_in_place(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    x[i] = x[i] * x[i];
    s += x[i];
  }
  return s;
}

// CHECK-LABEL: tape of diffe_square_in_place
// CHECK-NOT:     undo log
// CHECK:         loop %{{.*}} (depth 1): 1 value, 8 bytes per iteration
// CHECK-NEXT:      load double
// CHECK-NEXT:        because: a later write may change the memory it read: store double
void g_square(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)square_in_place, enzyme_dup, x, dx, enzyme_const,
                    n);
}

double smooth_copy(const double *x, int n, int steps) {
  double *t = malloc(n * sizeof(double));
  memcpy(t, x, n * sizeof(double));
  for (int s = 0; s < steps; ++s)
    for (int i = 1; i + 1 < n; ++i)
      t[i] = t[i] * t[i - 1] * 0.5 + sin(t[i + 1]) * t[i];
  double r = t[n / 2];
  free(t);
  return r;
}

// CHECK-LABEL: tape of diffe_smooth_copy
// CHECK-NOT:     undo log
// CHECK:         because: a later write may change the memory it read
void g_smooth(const double *x, double *dx, int n, int steps) {
  __enzyme_autodiff((void *)smooth_copy, enzyme_dup, x, dx, enzyme_const, n,
                    enzyme_const, steps);
}

double heat(const double *u0, double *u, double *v, int n, int steps) {
  memcpy(u, u0, sizeof(double) * n * n);
  memcpy(v, u0, sizeof(double) * n * n);
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        double c = u[i * n + j];
        double lap = u[(i - 1) * n + j] + u[(i + 1) * n + j] +
                     u[i * n + j - 1] + u[i * n + j + 1] - 4 * c;
        v[i * n + j] = c + 0.1 * lap - 0.01 * c * c * c;
      }
    double *w = u;
    u = v;
    v = w;
  }
  double e = 0;
  for (int k = 0; k < n * n; k++)
    e += u[k] * u[k];
  return e;
}

// CHECK-LABEL: tape of diffe_heat
// CHECK-NOT:     undo log
// CHECK:         loop %{{.*}} (depth 3): 1 value, 8 bytes per iteration
// CHECK-NEXT:      load double
void g_heat(const double *u0, double *du0, double *u, double *du, double *v,
            double *dv, int n, int steps) {
  __enzyme_autodiff((void *)heat, enzyme_dup, u0, du0, enzyme_dup, u, du,
                    enzyme_dup, v, dv, enzyme_const, n, enzyme_const, steps);
}
