// A running sum stored through a pointer that may alias the input, then
// used again after the store (`*out = s; return s * s + sin(s)`): the
// store is undone by the reverse sweep and the loop's loads are read again
// (the sum is a phi, whose value is cached, not recomputed from them).
// With out apart from x and out = &x[2], &x[5]: gradients of the result
// plus weighted memory against central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>
#include <string.h>
#define N 6
/* A running sum stored through a pointer that may alias the input, then
   used again: the loop's loads are read again (the store is undone), the
   phi's value is the cached one. */
__attribute__((noinline)) double sum_store(double *x, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  *out = s;
  return s * s + sin(s);
}
static double x0[N] = {0.3, -0.5, 0.8, 0.1, -0.4, 0.6};
/* loss of the whole buffer after the call: the result plus weighted memory */
static double run(const double *init, int out_at) {
  double x[N];
  memcpy(x, init, sizeof x);
  double scratch = 0;
  double r = sum_store(x, out_at < 0 ? &scratch : &x[out_at], N);
  double l = r;
  for (int i = 0; i < N; i++) l += 0.5 * (i + 1) * x[i];
  return l + 0.25 * scratch;
}
int main(void) {
  for (int out_at = -1; out_at < N; out_at += 3) {
    double x[N], dx[N], scratch = 0, dscratch = 0.25;
    memcpy(x, x0, sizeof x);
    for (int i = 0; i < N; i++) dx[i] = 0.5 * (i + 1);
    double *out = out_at < 0 ? &scratch : &x[out_at];
    double *dout = out_at < 0 ? &dscratch : &dx[out_at];
    __enzyme_autodiff_void((void *)sum_store, enzyme_dup, x, dx, enzyme_dup,
                           out, dout, enzyme_const, N);
    for (int k = 0; k < N; k++) {
      double a[N], b[N], h = 1e-6;
      memcpy(a, x0, sizeof a); memcpy(b, x0, sizeof b);
      a[k] += h; b[k] -= h;
      CHECK_CLOSE((run(a, out_at) - run(b, out_at)) / (2 * h), dx[k]);
    }
  }
  return fd_report();
}
