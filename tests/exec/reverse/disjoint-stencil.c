// Versioning on disjoint arguments: a three-point stencil and a dense
// layer y = tanh(A x), called with the output apart from the input, the
// same buffer, shifted by one to four elements either way, and adjacent.
// Every element of the buffer that holds both against central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>
#include <string.h>
#define N 10
/* out[i] = f(x[i-1], x[i], x[i+1]) for 1 <= i < n-1 */
__attribute__((noinline)) void smooth(double *out, const double *x, int n) {
  for (int i = 1; i < n - 1; ++i)
    out[i] = x[i] * sin(x[i - 1]) + x[i + 1] * x[i + 1];
}
/* y = tanh(A x), A m-by-n row-major */
__attribute__((noinline)) void layer(double *y, const double *a,
                                     const double *x, int m, int n) {
  for (int i = 0; i < m; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j) s += a[i * n + j] * x[j];
    y[i] = tanh(s);
  }
}
static double x0[N + 4], a0[N * N];
/* loss = sum w[i] * buf[i] after the call, buf all memory involved */
static double run_smooth(double *buf, int out_off, int x_off) {
  smooth(buf + out_off, buf + x_off, N);
  double l = 0;
  for (int i = 0; i < N + 4; i++) l += (i + 1) * 0.1 * buf[i];
  return l;
}
static void check_smooth(int out_off, int x_off) {
  double buf[N + 4], dbuf[N + 4];
  memcpy(buf, x0, sizeof buf);
  for (int i = 0; i < N + 4; i++) dbuf[i] = (i + 1) * 0.1;
  __enzyme_autodiff_void((void *)smooth, enzyme_dup, buf + out_off,
                         dbuf + out_off, enzyme_dup, buf + x_off,
                         dbuf + x_off, enzyme_const, N);
  for (int k = 0; k < N + 4; k++) {
    double h = 1e-6, b1[N + 4], b2[N + 4];
    memcpy(b1, x0, sizeof b1); memcpy(b2, x0, sizeof b2);
    b1[k] += h; b2[k] -= h;
    CHECK_CLOSE((run_smooth(b1, out_off, x_off) -
                 run_smooth(b2, out_off, x_off)) / (2 * h), dbuf[k]);
  }
}
static double run_layer(double *buf, int y_off, int x_off, const double *a) {
  layer(buf + y_off, a, buf + x_off, 4, 4);
  double l = 0;
  for (int i = 0; i < N + 4; i++) l += (i + 1) * 0.1 * buf[i];
  return l;
}
static void check_layer(int y_off, int x_off) {
  double buf[N + 4], dbuf[N + 4], a[16], da[16] = {0};
  memcpy(buf, x0, sizeof buf);
  memcpy(a, a0, sizeof a);
  for (int i = 0; i < N + 4; i++) dbuf[i] = (i + 1) * 0.1;
  __enzyme_autodiff_void((void *)layer, enzyme_dup, buf + y_off,
                         dbuf + y_off, enzyme_dup, a, da, enzyme_dup,
                         buf + x_off, dbuf + x_off, enzyme_const, 4,
                         enzyme_const, 4);
  for (int k = 0; k < N + 4; k++) {
    double h = 1e-6, b1[N + 4], b2[N + 4];
    memcpy(b1, x0, sizeof b1); memcpy(b2, x0, sizeof b2);
    b1[k] += h; b2[k] -= h;
    CHECK_CLOSE((run_layer(b1, y_off, x_off, a0) -
                 run_layer(b2, y_off, x_off, a0)) / (2 * h), dbuf[k]);
  }
  for (int k = 0; k < 16; k++) {
    double h = 1e-6, b1[N + 4], b2[N + 4], a1[16], a2[16];
    memcpy(b1, x0, sizeof b1); memcpy(b2, x0, sizeof b2);
    memcpy(a1, a0, sizeof a1); memcpy(a2, a0, sizeof a2);
    a1[k] += h; a2[k] -= h;
    CHECK_CLOSE((run_layer(b1, y_off, x_off, a1) -
                 run_layer(b2, y_off, x_off, a2)) / (2 * h), da[k]);
  }
}
int main(void) {
  for (int i = 0; i < N + 4; i++) x0[i] = 0.3 + 0.7 * sin(1.3 * i);
  for (int i = 0; i < N * N; i++) a0[i] = 0.5 * cos(0.7 * i);
  check_smooth(0, 4);   /* disjoint */
  check_smooth(0, 0);   /* in place */
  check_smooth(1, 0);   /* out one element after x */
  check_smooth(0, 2);   /* out two elements before x */
  check_smooth(4, 0);   /* out four after: overlapping tails */
  check_layer(0, 8);    /* disjoint */
  check_layer(0, 0);    /* in place: y == x */
  check_layer(2, 0);    /* y overlaps the end of x */
  check_layer(0, 3);    /* y overlaps the start of x */
  check_layer(4, 0);    /* y just after x: adjacent, not overlapping */
  return fd_report();
}
