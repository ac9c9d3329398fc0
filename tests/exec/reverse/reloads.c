// Loads the reverse sweep executes again instead of caching: only where no
// later write can change what they read. Each function below has a write
// that does change it (in a later iteration, a later loop, a free, a write
// through another pointer that aliases, a callee), so a reload there would
// give a wrong gradient; and functions with restrict and read-only inputs
// where reloading is right. Gradients against finite differences, with the
// primal's results checked too.
// RUN: sh %testlib/run-c.sh %s

#include <stdlib.h>
#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

enum { N = 6 };

/* x[i] is read in iteration i-1 and overwritten in iteration i. */
double shift_down(double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double v = x[i + 1];
    x[i] = v * v;
    s += x[i] * v;
  }
  return s;
}
/* Read in one loop, overwritten by the next. */
double then_scale(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  for (int i = 0; i < n; ++i) x[i] = s * sin(x[i]);
  double t = 0;
  for (int i = 0; i < n; ++i) t += x[i] * x[(i + 1) % n];
  return t;
}
/* out and in may be the same array. */
void square_into(double *out, const double *in, int n) {
  for (int i = 0; i < n; ++i) out[i] = in[i] * in[i] + out[i] * in[i];
}
/* Read-only input, noalias output: reloading is right. */
void scaled_copy(double *restrict out, const double *restrict in, int n) {
  for (int i = 0; i < n; ++i) out[i] = exp(in[i]) * in[(i + 1) % n];
}
/* A heap buffer read and then freed, in each iteration. */
double per_step_buffer(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    double *t = malloc(n * sizeof(double));
    for (int i = 0; i < n; ++i) t[i] = x[i] * (k + 1);
    for (int i = 0; i < n; ++i) s += t[i] * t[(i + k) % n];
    free(t);
  }
  return s;
}
/* A callee that overwrites what was read. */
__attribute__((noinline)) static void bump(double *x, int n) {
  for (int i = 0; i < n; ++i) x[i] = x[i] * 0.5 + 1.0;
}
double read_bump_read(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i] * x[i];
  bump(x, n);
  for (int i = 0; i < n; ++i) s += x[i] * x[(i + 2) % n];
  return s;
}
/* A stack array reused by each iteration of the outer loop. */
double stack_reuse(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < 4; ++k) {
    double tmp[8];
    for (int i = 0; i < n; ++i) tmp[i] = x[(i + k) % n] * (1.0 + k);
    for (int i = 0; i < n; ++i) s += tmp[i] * tmp[(i + 1) % n];
  }
  return s;
}

/* Functions that overwrite x are evaluated on a copy. */
static double shift_fd(const double *x, void *c) {
  (void)c; double y[N]; memcpy(y, x, sizeof y); return shift_down(y, N);
}
static double scale_fd(const double *x, void *c) {
  (void)c; double y[N]; memcpy(y, x, sizeof y); return then_scale(y, N);
}
static double bump_fd(const double *x, void *c) {
  (void)c; double y[N]; memcpy(y, x, sizeof y); return read_bump_read(y, N);
}
/* sum_i w_i * out_i after square_into(out = in = y). */
static double square_alias_fd(const double *x, void *c) {
  (void)c; double y[N]; memcpy(y, x, sizeof y); square_into(y, y, N);
  double s = 0;
  for (int i = 0; i < N; ++i) s += (1.0 + i) * y[i];
  return s;
}
static double scaled_fd(const double *x, void *c) {
  (void)c; double y[N]; scaled_copy(y, x, N);
  double s = 0;
  for (int i = 0; i < N; ++i) s += (1.0 + i) * y[i];
  return s;
}
static double buffer_fd(const double *x, void *c) { (void)c; return per_step_buffer(x, N); }
static double stack_fd(const double *x, void *c) { (void)c; return stack_reuse(x, N); }

int main(void) {
  const double x[N] = {0.9, 1.3, 0.2, 1.7, 0.6, 1.1};
  double y[N], d[N];

  memcpy(y, x, sizeof y); memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)shift_down, enzyme_dup, y, d, enzyme_const, N);
  CHECK_GRADIENT(shift_fd, 0, x, N, d);
  CHECK_CLOSE(x[1] * x[1], y[0]);

  memcpy(y, x, sizeof y); memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)then_scale, enzyme_dup, y, d, enzyme_const, N);
  CHECK_GRADIENT(scale_fd, 0, x, N, d);

  memcpy(y, x, sizeof y); memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)read_bump_read, enzyme_dup, y, d, enzyme_const, N);
  CHECK_GRADIENT(bump_fd, 0, x, N, d);
  CHECK_CLOSE(x[0] * 0.5 + 1.0, y[0]);

  /* out and in are the same array with the same shadow: the shadow is
     seeded with d(loss)/d(out) and ends as d(loss)/d(in). */
  memcpy(y, x, sizeof y);
  for (int i = 0; i < N; ++i) d[i] = 1.0 + i;
  __enzyme_autodiff_void((void *)square_into, enzyme_dup, y, d, enzyme_dup, y, d,
                         enzyme_const, N);
  CHECK_GRADIENT(square_alias_fd, 0, x, N, d);

  double out[N], dout[N];
  memset(d, 0, sizeof d);
  for (int i = 0; i < N; ++i) dout[i] = 1.0 + i;
  __enzyme_autodiff_void((void *)scaled_copy, enzyme_dup, out, dout, enzyme_dup, x, d,
                         enzyme_const, N);
  CHECK_GRADIENT(scaled_fd, 0, x, N, d);
  for (int i = 0; i < N; ++i) CHECK_CLOSE(0.0, dout[i]);

  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)per_step_buffer, enzyme_dup, x, d, enzyme_const, N);
  CHECK_GRADIENT(buffer_fd, 0, x, N, d);

  memset(d, 0, sizeof d);
  __enzyme_autodiff((void *)stack_reuse, enzyme_dup, x, d, enzyme_const, N);
  CHECK_GRADIENT(stack_fd, 0, x, N, d);
  return fd_report();
}
