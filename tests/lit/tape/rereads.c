// Writes that no longer make loads cached, and caches reserved once for a
// loop nest (-O2, not unrolled or vectorized):
//  - the result written through a pointer at the end (`*out = s`) may be
//    the memory the loop reads, but the reverse sweep undoes that store:
//    nothing is cached per iteration;
//  - a temporary freed at the end: the free moves to the reverse sweep,
//    and the loop reading it caches nothing;
//  - a call that does not return (abort) changes no load;
//  - a recurrence in an inner loop whose trip count every outer iteration
//    shares is reserved at the inner loop's first entry for the whole
//    nest; the inner trip count and the guard's decision are computed
//    again, not cached.
// UNSUPPORTED: sanitizers
// RUN: %clang -S -emit-llvm -O2 -fno-unroll-loops -fno-vectorize %s -o %t.ll
// RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-tape>' \
// RUN:   -disable-output %t.ll 2>&1 | FileCheck %s
#include <math.h>
#include <stdlib.h>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;

void sum_sq_out(const double *x, int n, double *out) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  *out = s;
}

// CHECK-LABEL: tape of diffe_sum_sq_out
// CHECK-NEXT:    loop %{{.*}} (depth 1): nothing cached per iteration
// CHECK-NEXT:    outside loops:
void g_out(const double *x, double *dx, int n, double *out, double *dout) {
  __enzyme_autodiff((void *)sum_sq_out, enzyme_dup, x, dx, enzyme_const, n,
                    enzyme_dupnoneed, out, dout);
}

double temp_dot(const double *x, int n) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    t[i] = sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * x[i];
  free(t);
  return s;
}

// CHECK-LABEL: tape of diffe_temp_dot
// CHECK-NEXT:    loop %{{.*}} (depth 1): nothing cached per iteration
// CHECK-NEXT:    loop %{{.*}} (depth 1): nothing cached per iteration
// CHECK-NEXT:    outside loops:
void g_temp(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)temp_dot, enzyme_dup, x, dx, enzyme_const,
                           n);
}

double nest(const double *a, int n, int m) {
  double s = 0.5;
  for (int i = 0; i < n; ++i)
    if (m > 0)
      for (int j = 0; j < m; ++j)
        s = s * a[j] + 0.25;
  return s;
}

// CHECK-LABEL: tape of diffe_nest
// CHECK-NEXT:    loop %[[OUTER:[a-z0-9.]+]] (depth 1):
// CHECK-NOT:     trips
// CHECK-NOT:     which predecessor
// CHECK:         loop %{{.*}} (depth 2): 1 value, 8 bytes per iteration, reserved at an entry for the rest of loop %[[OUTER]] (trip counts known at entry)
// CHECK-NEXT:      phi double
// CHECK-NEXT:        because: a value carried from one iteration to the next
// CHECK-NEXT:    outside loops:
void g_nest(const double *a, double *da, int n, int m) {
  __enzyme_autodiff((void *)nest, enzyme_dup, a, da, enzyme_const, n,
                           enzyme_const, m);
}

// The result stored at the end and also returned: the loads are still read
// again (the sum is a phi, cached at the exit; only a load whose value is
// recomputed after the store would have to be cached).
double sum_sq_out_used(const double *x, int n, double *out) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  *out = s;
  return s * s;
}

// CHECK-LABEL: tape of diffe_sum_sq_out_used
// CHECK-NEXT:    loop %{{.*}} (depth 1): nothing cached per iteration
void g_out_used(const double *x, double *dx, int n, double *out,
                double *dout) {
  __enzyme_autodiff((void *)sum_sq_out_used, enzyme_dup, x, dx, enzyme_const,
                    n, enzyme_dup, out, dout);
}

// A call that does not return (abort, a failed assertion, a Rust panic)
// writes nothing the reverse sweep reads: it runs after no load that the
// reverse sweep reads again.
double checked_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i] * x[i];
    if (s > 1e300)
      abort();
  }
  return s;
}

// CHECK-LABEL: tape of diffe_checked_sum
// CHECK-NEXT:    loop %{{.*}} (depth 1): nothing cached per iteration
void g_checked(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)checked_sum, enzyme_dup, x, dx, enzyme_const, n);
}
