// Masked and gathered loads and stores in reverse mode (what the loop
// vectorizer emits for conditional and indirect accesses with AVX-512 and
// -ffast-math, written here with clang's __builtin_masked_* so the program
// runs on any x86-64): a masked load whose off lanes come from an active
// passthru, a masked store over active memory (only its lanes' adjoints
// are taken), a gather with a repeated index (both lanes' adjoints add),
// and a scatter with a repeated address (the last lane's value is what
// memory keeps). Against central differences; forward mode on the gather
// against the reverse gradient.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>
#include <string.h>
typedef double v4 __attribute__((ext_vector_type(4)));
typedef _Bool m4 __attribute__((ext_vector_type(4)));
typedef int i4 __attribute__((ext_vector_type(4)));
/* clang 22 scales __builtin_masked_scatter's indices by the index type's
   size, not the element's: 8-byte indices address doubles right. */
typedef long l4 __attribute__((ext_vector_type(4)));
#define N 8
/* Masked load with an active passthru: lanes off the mask take c's. */
__attribute__((noinline)) double mload(const double *x, const double *c) {
  m4 m = {1, 0, 1, 1};
  v4 pass = {c[0], c[1], c[2], c[3]};
  v4 v = __builtin_masked_load(m, x + 1, pass);
  return v.x * v.y + v.z * v.z * v.w;
}
/* Masked store into memory then read back: lanes off the mask keep the
   old (active) values. */
__attribute__((noinline)) double mstore(double *y, const double *x) {
  m4 m = {0, 1, 1, 0};
  v4 v = {sin(x[0]), x[1] * x[2], x[3] * x[3], x[0] + x[1]};
  __builtin_masked_store(m, v, y);
  return y[0] * y[1] + y[2] * y[3];
}
/* Gather with a repeated index: both lanes' adjoints add up. */
__attribute__((noinline)) double gather(const double *x, const int *idx) {
  m4 m = {1, 1, 1, 0};
  i4 k = {idx[0], idx[1], idx[2], idx[3]};
  v4 pass = {0, 0, 0, 0};
  v4 v = __builtin_masked_gather(m, k, x, pass);
  return v.x * v.y + exp(v.z) + v.w;
}
/* Scatter with a repeated address: the last lane is what memory keeps. */
__attribute__((noinline)) double scatter(double *y, const double *x,
                                         const int *idx) {
  m4 m = {1, 1, 1, 1};
  l4 k = {idx[0], idx[1], idx[2], idx[3]};
  v4 v = {x[0] * x[1], x[1] * x[1], x[2] + x[3], x[3]};
  __builtin_masked_scatter(m, k, v, y);
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] * y[i] * (i + 1);
  return s;
}
static double x0[N] = {0.4, -0.7, 1.2, 0.3, -1.1, 0.8, 0.5, -0.2};
static double c0[4] = {2.0, -1.5, 0.25, 3.0};
static int idx0[4] = {5, 2, 5, 1};
static double F(int which, const double *x, const double *c) {
  double y[N], xx[N];
  memcpy(y, c0, 4 * sizeof(double));
  memcpy(y + 4, x0, 4 * sizeof(double));
  memcpy(xx, x, sizeof xx);
  switch (which) {
  case 0: return mload(xx, c);
  case 1: memcpy(y, x + 4, 4 * sizeof(double)); return mstore(y, xx);
  case 2: return gather(xx, idx0);
  default: memcpy(y, x, sizeof y); return scatter(y, xx, idx0);
  }
}
int main(void) {
  for (int which = 0; which < 4; which++) {
    double x[N], dx[N] = {0}, c[4], dc[4] = {0}, y[N], dy[N] = {0};
    memcpy(x, x0, sizeof x);
    memcpy(c, c0, sizeof c);
    if (which == 0)
      __enzyme_autodiff((void *)mload, enzyme_dup, x, dx, enzyme_dup, c, dc);
    else if (which == 1) {
      /* y's lanes off the mask come from x[4..7]: y's shadow carries
         their adjoints, added to dx[4..7] below */
      memcpy(y, x + 4, 4 * sizeof(double));
      __enzyme_autodiff((void *)mstore, enzyme_dup, y, dy, enzyme_dup, x, dx);
      for (int i = 0; i < 4; i++) dx[4 + i] += dy[i];
    } else if (which == 2)
      __enzyme_autodiff((void *)gather, enzyme_dup, x, dx, enzyme_const, idx0);
    else {
      /* y starts as a copy of x: its shadow's adjoints are x's too */
      memcpy(y, x, sizeof y);
      __enzyme_autodiff((void *)scatter, enzyme_dup, y, dy, enzyme_dup, x, dx,
                        enzyme_const, idx0);
      for (int i = 0; i < N; i++) dx[i] += dy[i];
    }
    for (int k = 0; k < N; k++) {
      double a[N], b[N], h = 1e-6;
      memcpy(a, x0, sizeof a); memcpy(b, x0, sizeof b);
      a[k] += h; b[k] -= h;
      CHECK_CLOSE((F(which, a, c0) - F(which, b, c0)) / (2 * h), dx[k]);
    }
    if (which == 0)
      for (int k = 0; k < 4; k++) {
        double a[4], b[4], h = 1e-6;
        memcpy(a, c0, sizeof a); memcpy(b, c0, sizeof b);
        a[k] += h; b[k] -= h;
        CHECK_CLOSE((F(0, x0, a) - F(0, x0, b)) / (2 * h), dc[k]);
      }
  }
  /* forward mode on the gather: tangent along e_5 against the reverse */
  {
    double x[N], dx[N] = {0}, t[N] = {0};
    memcpy(x, x0, sizeof x);
    __enzyme_autodiff((void *)gather, enzyme_dup, x, dx, enzyme_const, idx0);
    t[5] = 1;
    CHECK_CLOSE(dx[5], __enzyme_fwddiff((void *)gather, enzyme_dup, x, t,
                                        enzyme_const, idx0));
  }
  return fd_report();
}
