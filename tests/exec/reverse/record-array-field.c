// RUN: sh %testlib/run-c.sh %s
//
// Records with an array field indexed at run time beside an int, copied
// whole: `{double t; int n; double h[4]}` by assignment (a 48-byte memcpy
// at -O0/-O1). The analysis knows "doubles somewhere" (h[k]), the double
// at 0 and the int at 8; the int was taken to cover every byte up to the
// end, so h's adjoints were dropped, silently (found by a hunt: 1 for 11).
// An integer now covers no more than an integer's bytes when floats lie
// somewhere, and the record's declared fields that agree with "doubles
// somewhere" fill the rest. Gradients against the analytic values.
#include <stdlib.h>
#include "enzyme.h"
#include "fdcheck.h"

struct S { double t; int n; double h[4]; };

static double local_copy(double x) {
  struct S s;
  s.t = x;
  s.n = 0;
  for (int k = 0; k < 4; ++k) s.h[k] = x * (k + 1);
  struct S s2 = s;
  double e = s2.t;
  for (int k = 0; k < 4; ++k) e += s2.h[k];
  return e;
}

__attribute__((noinline)) static void copy_all(struct S *dst, const struct S *src, int m) {
  for (int i = 0; i < m; ++i) dst[i] = src[i];
}
static double heap_copies(const double *x, int m) {
  struct S *a = malloc(sizeof(struct S) * m), *b = malloc(sizeof(struct S) * m);
  for (int i = 0; i < m; ++i) {
    a[i].t = x[i];
    a[i].n = i;
    for (int k = 0; k < 4; ++k) a[i].h[k] = x[i] * (k + 1);
  }
  copy_all(b, a, m);
  double e = 0;
  for (int i = 0; i < m; ++i) {
    e += b[i].t * b[i].n;
    for (int k = 0; k < 4; ++k) e += b[i].h[k] * b[i].h[k];
  }
  free(a);
  free(b);
  return e;
}

int main(void) {
  CHECK_CLOSE(11.0, __enzyme_autodiff((void *)local_copy, enzyme_out, 0.7));
  double x[3] = {0.7, -0.4, 1.3}, dx[3] = {0};
  __enzyme_autodiff((void *)heap_copies, enzyme_dup, x, dx, enzyme_const, 3);
  /* e = sum_i i x_i + 30 x_i^2 */
  for (int i = 0; i < 3; ++i) CHECK_CLOSE(i + 60 * x[i], dx[i]);
  return fd_report();
}
