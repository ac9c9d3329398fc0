// Versioning on disjoint arguments: normalize `out = x / ||x||` with out
// and x apart, the same buffer, and overlapping by part. The derivative
// takes the copy of the body that reads x again only when the run-time
// check finds them apart; each case against central differences (the
// shadow of overwritten memory holds the adjoint of what was there).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>
#include <string.h>
#define N 8
__attribute__((noinline)) void normalize(double *out, const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i) s += x[i] * x[i];
  double norm = sqrt(s);
  for (long i = 0; i < n; ++i) out[i] = x[i] / norm;
}
static double loss(const double *w, const double *out) {
  double l = 0;
  for (int i = 0; i < N; i++) l += w[i] * out[i];
  return l;
}
int main(void) {
  double w[N] = {1, 2, -1, 0.5, 3, -2, 0.25, 1};
  double x0[N] = {0.3, -1.2, 2, 0.7, -0.4, 1.1, 0.9, -2};
  /* disjoint buffers */
  {
    double x[N], out[N], dx[N] = {0}, dout[N];
    memcpy(x, x0, sizeof x);
    memcpy(dout, w, sizeof dout);
    __enzyme_autodiff_void((void *)normalize, enzyme_dup, out, dout, enzyme_dup, x, dx, enzyme_const, (long)N);
    for (int k = 0; k < N; k++) {
      double h = 1e-6, o1[N], o2[N];
      x[k] = x0[k] + h; normalize(o1, x, N);
      x[k] = x0[k] - h; normalize(o2, x, N);
      x[k] = x0[k];
      CHECK_CLOSE((loss(w, o1) - loss(w, o2)) / (2 * h), dx[k]);
      CHECK_CLOSE(0.0, dout[k]);
    }
  }
  /* in place: out == x */
  {
    double x[N], dx[N];
    memcpy(x, x0, sizeof x);
    memcpy(dx, w, sizeof dx);
    __enzyme_autodiff_void((void *)normalize, enzyme_dup, x, dx, enzyme_dup, x, dx, enzyme_const, (long)N);
    for (int k = 0; k < N; k++) {
      double h = 1e-6, o1[N], o2[N], xx[N];
      memcpy(xx, x0, sizeof xx);
      xx[k] = x0[k] + h; normalize(o1, xx, N);
      xx[k] = x0[k] - h; normalize(o2, xx, N);
      CHECK_CLOSE((loss(w, o1) - loss(w, o2)) / (2 * h), dx[k]);
    }
  }
  /* partial overlap: out = x + 2 (out[i] = x[i+2] for the first n-2) */
  {
    double buf[N + 2], dbuf[N + 2] = {0};
    memcpy(buf, x0, sizeof x0);
    buf[N] = buf[N + 1] = 0;
    double wpad[N + 2] = {0};
    memcpy(wpad + 2, w, sizeof w);
    memcpy(dbuf, wpad, sizeof dbuf);
    __enzyme_autodiff_void((void *)normalize, enzyme_dup, buf + 2, dbuf + 2, enzyme_dup, buf, dbuf, enzyme_const, (long)N);
    /* reference: the loss sum_i w[i] * out[i] of the primal on a copy */
    for (int k = 0; k < N; k++) {
      double h = 1e-6, b1[N + 2], b2[N + 2];
      memcpy(b1, x0, sizeof x0); b1[N] = b1[N + 1] = 0;
      memcpy(b2, b1, sizeof b1);
      b1[k] += h; b2[k] -= h;
      normalize(b1 + 2, b1, N);
      normalize(b2 + 2, b2, N);
      double l1 = 0, l2 = 0;
      for (int i = 0; i < N; i++) { l1 += w[i] * b1[i + 2]; l2 += w[i] * b2[i + 2]; }
      /* seeds of buf[0], buf[1] are 0; buf[k] for k >= 2 was overwritten
         (its shadow's seed consumed), so dbuf[k] is d loss / d buf[k] */
      CHECK_CLOSE((l1 - l2) / (2 * h), dbuf[k]);
    }
  }
  return fd_report();
}
