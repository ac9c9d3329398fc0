// Reverse mode through recursion that writes memory its caller sees, and
// through recursive calls whose memory the caller overwrites afterwards:
// each recursive call goes through the callee's split derivative (an
// augmented forward sweep that records a tape, a reverse sweep that takes
// it), so nothing is run again. In-place scaling at every level, a caller
// that zeroes what the recursion read, a recursive prefix sum into an
// output array, a recursion with a loop and a heap buffer at each level,
// mutual recursion updating a state vector, several returns, and
// recursive functions returning a pointer into their argument or fresh
// memory (the split derivative returns the result's shadow).
// Gradients against finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stdlib.h>
#include <string.h>

enum { N = 6 };

/* Writes through its argument at every level, then uses what it wrote. */
double scale_rec(double *p, int n) {
  double w = p[0] * 2.0 + sin(p[1]);
  p[0] = w;
  if (n == 0) return w;
  return scale_rec(p, n - 1) * w;
}

/* Reads p[0..n]; its caller then overwrites p[0] twice. */
double sum_rec(const double *p, int n) {
  double sq = p[0] * p[0];
  if (n == 0) return sq;
  return sum_rec(p + 1, n - 1) + sq * p[1];
}
double sum_then_zero(double *p, int n) {
  double s = sum_rec(p, n);
  p[0] = 0.0;
  p[0] = s + 1.0;
  return s * s + p[0] * p[2];
}

/* out[i] = out[i-1] * cos(x[i]) + x[i], recursively from the end. */
void prefix(const double *x, double *out, int n) {
  if (n == 0) { out[0] = x[0]; return; }
  prefix(x, out, n - 1);
  out[n] = out[n - 1] * cos(x[n]) + x[n];
}
double prefix_loss(const double *x, double *out, int n) {
  prefix(x, out, n - 1);
  double s = 0;
  for (int i = 0; i < n; ++i) s += out[i] * out[i];
  return s;
}

/* A loop and a heap buffer at every level; the buffer is freed before the
   recursive call returns to its caller. */
double layered(const double *x, int n, int depth) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) t[i] = tanh(x[i] + 0.1 * depth * x[(i + 1) % n]);
  double r = 0;
  if (depth > 0) r = layered(t, n, depth - 1);
  for (int i = 0; i < n; ++i) r += t[i] * x[i];
  free(t);
  return r;
}

/* Mutual recursion updating a state vector in place. */
void step_b(double *s, const double *k, int n);
void step_a(double *s, const double *k, int n) {
  s[0] = s[0] * k[0] + sin(s[1]);
  if (n > 0) step_b(s, k, n - 1);
}
void step_b(double *s, const double *k, int n) {
  s[1] = s[1] * k[1] - s[0] * s[0] * 0.1;
  if (n > 0) step_a(s, k, n - 1);
}
double run_steps(double *s, const double *k) {
  step_a(s, k, 7);
  return s[0] + 2.0 * s[1];
}

/* Several returns, the recursion in a loop's body. */
double branchy(const double *x, int n) {
  if (n <= 0) return x[0];
  if (x[n] > 1.0) return x[n] * branchy(x, n - 1);
  double s = 0;
  for (int i = 0; i <= n; ++i) s += x[i] * branchy(x, i - 1);
  return s + sqrt(x[n]);
}

/* Returns a pointer into its argument: the caller reads and writes
   through it (the split derivative returns the result's shadow too). */
double *walk(double *p, int n) { return n == 0 ? p : walk(p + 1, n - 1); }
double use_walk(double *p, int n) {
  double *e = walk(p, n);
  double v = e[0] * e[1];
  e[0] = sin(v);
  return e[0] + p[0] * v;
}

/* Returns fresh memory, filled on the way back up. */
double *fill(const double *x, int n) {
  if (n == 0) return malloc(N * sizeof(double));
  double *m = fill(x, n - 1);
  m[n - 1] = x[n - 1] * x[(n - 1 + 2) % N];
  return m;
}
double use_fill(const double *x) {
  double *m = fill(x, N);
  double s = 0;
  for (int i = 0; i < N; ++i) s += sin(m[i]) * x[i];
  free(m);
  return s;
}

static double walk_fd(const double *x, void *c) {
  (void)c;
  double p[N];
  memcpy(p, x, sizeof p);
  return use_walk(p, 3);
}
static double fill_fd(const double *x, void *c) { (void)c; return use_fill(x); }
static double scale_fd(const double *x, void *c) {
  (void)c;
  double p[2] = {x[0], x[1]};
  return scale_rec(p, 4);
}
static double sum_fd(const double *x, void *c) {
  (void)c;
  double p[N];
  memcpy(p, x, sizeof p);
  return sum_then_zero(p, N - 2);
}
static double prefix_fd(const double *x, void *c) {
  (void)c;
  double out[N];
  return prefix_loss(x, out, N);
}
static double layered_fd(const double *x, void *c) { (void)c; return layered(x, N, 3); }
static double steps_fd(const double *x, void *c) {
  double s[2] = {x[0], x[1]};
  return run_steps(s, (const double *)c);
}
static double branchy_fd(const double *x, void *c) { (void)c; return branchy(x, N - 1); }

int main(void) {
  const double x[N] = {0.7, 1.3, 0.4, 0.9, 1.1, 0.6};
  double p[N], dp[N], out[N], dout[N];

  double p2[2] = {0.3, 0.5}, dp2[2] = {0, 0};
  __enzyme_autodiff((void *)scale_rec, enzyme_dup, p2, dp2, enzyme_const, 4);
  double x2[2] = {0.3, 0.5};
  CHECK_GRADIENT(scale_fd, 0, x2, 2, dp2);
  double q[2] = {0.3, 0.5};
  scale_rec(q, 4);
  CHECK_CLOSE(q[0], p2[0]); /* the primal's writes happen, once */

  memcpy(p, x, sizeof p);
  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)sum_then_zero, enzyme_dup, p, dp, enzyme_const, N - 2);
  CHECK_GRADIENT(sum_fd, 0, x, N, dp);

  memset(dp, 0, sizeof dp);
  memset(dout, 0, sizeof dout);
  __enzyme_autodiff((void *)prefix_loss, enzyme_dup, x, dp, enzyme_dup, out, dout,
                    enzyme_const, N);
  CHECK_GRADIENT(prefix_fd, 0, x, N, dp);

  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)layered, enzyme_dup, x, dp, enzyme_const, N, enzyme_const, 3);
  CHECK_GRADIENT(layered_fd, 0, x, N, dp);

  const double k[2] = {0.9, 1.05};
  double s[2] = {0.4, 0.2}, ds[2] = {0, 0};
  __enzyme_autodiff((void *)run_steps, enzyme_dup, s, ds, enzyme_const, k);
  double s0[2] = {0.4, 0.2};
  CHECK_GRADIENT(steps_fd, (void *)k, s0, 2, ds);

  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)branchy, enzyme_dup, x, dp, enzyme_const, N - 1);
  CHECK_GRADIENT(branchy_fd, 0, x, N, dp);

  memcpy(p, x, sizeof p);
  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)use_walk, enzyme_dup, p, dp, enzyme_const, 3);
  CHECK_GRADIENT(walk_fd, 0, x, N, dp);

  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)use_fill, enzyme_dup, x, dp);
  CHECK_GRADIENT(fill_fd, 0, x, N, dp);
  return fd_report();
}
