// What the reverse sweep's tape holds, for three loop kernels at -O2 (not
// unrolled or vectorized, so that each loop appears once):
//  - a loop that only reads its input array caches nothing per iteration
//    (the loads are executed again in the reverse sweep);
//  - an in-place update x[i] = f(x[i]) caches the overwritten value;
//  - a loop-carried scalar recurrence caches one value per iteration.
// UNSUPPORTED: sanitizers
// RUN: %clang -S -emit-llvm -O2 -fno-unroll-loops -fno-vectorize %s -o %t.ll
// RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-tape>' \
// RUN:   -disable-output %t.ll | FileCheck %s
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_out;

double weighted_squares(const double *x, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * x[i] * x[i];
  return s;
}

void square_in_place(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * x[i];
}

double logistic(double x, double r, int n) {
  for (int k = 0; k < n; ++k)
    x = r * x * (1 - x);
  return x;
}

// CHECK-LABEL: tape of diffe_weighted_squares
// CHECK-NEXT:    loop %{{.*}} (depth 1): nothing cached per iteration
// CHECK-NEXT:    outside loops:
void g_squares(const double *x, double *dx, const double *w, int n) {
  __enzyme_autodiff((void *)weighted_squares, enzyme_dup, x, dx, enzyme_const,
                    w, enzyme_const, n);
}

// CHECK-LABEL: tape of diffe_square_in_place
// CHECK-NEXT:    loop %{{.*}} (depth 1): 1 value, 8 bytes per iteration, reserved once per entry (trip count known at entry)
// CHECK-NEXT:      load double
// CHECK-NEXT:        because: a later write may change the memory it read: store double
// CHECK-NEXT:    outside loops:
void g_square(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)square_in_place, enzyme_dup, x, dx, enzyme_const,
                    n);
}

// CHECK-LABEL: tape of diffe_logistic
// CHECK-NEXT:    loop %{{.*}} (depth 1): 1 value, 8 bytes per iteration, reserved once per entry (trip count known at entry)
// CHECK-NEXT:      phi double
// CHECK-NEXT:        because: a value carried from one iteration to the next
// CHECK-NEXT:    outside loops:
double g_logistic(double x, double r, int n) {
  return __enzyme_autodiff((void *)logistic, enzyme_out, x, enzyme_const, r,
                           enzyme_const, n);
}
