// Versioning on disjoint arguments (DisjointArguments.cpp): normalize reads
// x, then writes out, which may be x. The body gets a second copy, taken
// when a run-time check finds that the bytes out and x reach do not
// overlap; there loads of x are read again by the reverse sweep (its loops
// cache nothing), and the original copy caches as before. A gather through
// an index array has no computable range: not versioned, cached.
// UNSUPPORTED: sanitizers
// RUN: %clang -S -emit-llvm -O2 -fno-unroll-loops -fno-vectorize %s -o %t.ll
// RUN: %opt -load-pass-plugin=%plugin -passes='print<autodiff-tape>' \
// RUN:   -disable-output %t.ll 2>&1 | FileCheck %s
#include <math.h>
extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

void normalize(double *out, const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i] * x[i];
  double norm = sqrt(s);
  for (long i = 0; i < n; ++i)
    out[i] = x[i] / norm;
}

// CHECK-LABEL: tape of diffe_normalize
// CHECK-NEXT: versioned on disjoint arguments %1 %0: the copy of the body taken when they do not overlap reads them again
// CHECK-NEXT: loop %{{.*}} (depth 1): 1 value, 8 bytes per iteration
// CHECK: loop %{{.*}} (depth 1): 1 value, 8 bytes per iteration
// CHECK: loop %{{.*}} (depth 1): nothing cached per iteration
// CHECK-NEXT: loop %{{.*}} (depth 1): nothing cached per iteration
// CHECK-NEXT: outside loops:
void g(double *out, double *dout, const double *x, double *dx, long n) {
  __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, x,
                    dx, enzyme_const, n);
}

void gather(double *out, const double *x, const int *idx, long n) {
  for (long i = 0; i < n; ++i)
    out[i] = x[idx[i]] * x[i];
}

// CHECK-LABEL: tape of diffe_gather
// CHECK-NOT: versioned
// CHECK-NEXT: loop %{{.*}} (depth 1): 2 values, 16 bytes per iteration
void h(double *out, double *dout, const double *x, double *dx, const int *idx,
       long n) {
  __enzyme_autodiff((void *)gather, enzyme_dup, out, dout, enzyme_dup, x, dx,
                    enzyme_const, idx, enzyme_const, n);
}
