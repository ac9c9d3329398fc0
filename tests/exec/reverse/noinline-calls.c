// Calls the primal keeps out of line (`noinline`) stay calls in the reverse
// derivative, through the callee's split derivative (its augmented forward
// sweep returns a tape; its reverse sweep takes it), instead of being
// inlined. A scalar helper, an in-place array helper with a loop, a helper
// called in a loop (one tape per call), a chain of helpers, a helper
// returning a pointer into its argument, a helper whose input the caller
// overwrites after the call, and a helper with several returns. Gradients
// against finite differences. (At -O0 clang marks every function
// noinline; there calls are inlined as before: lit/bridge/noinline-split.ll
// checks the calls stay.)
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <string.h>

enum { N = 6 };

__attribute__((noinline)) double smooth(double a, double b) {
  return a * tanh(b) + log1p(a * a);
}

__attribute__((noinline)) void relax(double *v, int n, double w) {
  for (int i = 1; i < n; ++i) v[i] = (1 - w) * v[i] + w * sin(v[i - 1]);
}

__attribute__((noinline)) double stage3(double x) { return exp(0.3 * x) * x; }
__attribute__((noinline)) double stage2(double x) { return stage3(x * x) + cos(x); }
__attribute__((noinline)) double stage1(double x) { return stage2(sqrt(1 + x * x)); }

__attribute__((noinline)) double *middle(double *v, int n) { return v + n / 2; }

__attribute__((noinline)) double pick(const double *v, int k) {
  if (v[k] > 0.5) return v[k] * v[k];
  if (v[k] < -0.5) return -v[k];
  return sin(v[k]);
}

double loss(double *x, int n) {
  double t[N];
  memcpy(t, x, sizeof t);
  relax(t, n, 0.3);
  double s = 0;
  for (int i = 0; i < n; ++i) s += smooth(t[i], x[(i + 1) % n]);
  s += stage1(x[0]);
  double *m = middle(t, n);
  m[0] = m[0] * m[1];
  s += t[n / 2];
  double p = pick(x, 2) + pick(x, 3);
  x[2] = 0; /* the caller overwrites what pick read */
  return s + p;
}

static double loss_fd(const double *x, void *c) {
  (void)c;
  double y[N];
  memcpy(y, x, sizeof y);
  return loss(y, N);
}

int main(void) {
  const double x0[N] = {0.4, -0.3, 0.9, -0.8, 0.2, 1.1};
  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, N);
  CHECK_GRADIENT(loss_fd, 0, x0, N, dx);
  CHECK(x[2] == 0.0); /* the primal's side effects happened */
  return fd_report();
}
