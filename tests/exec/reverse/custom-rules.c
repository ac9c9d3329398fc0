// Custom reverse rules: `void *__enzyme_register_gradient_NAME[3] =
// {fn, augment, reverse}`. At each differentiated call of fn the forward
// sweep calls augment (which returns the tape and fn's result) and the
// reverse sweep calls reverse once; fn's own body is not differentiated
// (the rules here give deliberately scaled derivatives where that shows).
// A scalar rule, a rule over arrays with an active scalar, a rule called
// in a loop (one tape per call), and the BLAS-helper shape Enzyme rejects:
// `int dot(kind, conj, n, x, y, out)` returning a status the caller
// checks, with the result written through a pointer, in the
// shadowed-output and the constant-operand variants. Gradients against
// finite differences or analytic values; rule call counts checked.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stdlib.h>

static int aug_calls, rev_calls;

/* softplus with a rule whose tape keeps exp(-x). */
__attribute__((noinline)) double softplus(double x) { return log1p(exp(x)); }
typedef struct { void *tape; double result; } aug_double;
aug_double softplus_aug(double x) {
  ++aug_calls;
  double *t = malloc(sizeof(double));
  *t = exp(-x);
  aug_double r = {t, softplus(x)};
  return r;
}
double softplus_rev(double x, double dret, void *tape) {
  (void)x;
  ++rev_calls;
  double e = *(double *)tape;
  free(tape);
  return dret / (1 + e);
}
void *__enzyme_register_gradient_softplus[3] = {
    (void *)softplus, (void *)softplus_aug, (void *)softplus_rev};

/* out[i] = a * x[i]; the rule returns the gradient of a. */
__attribute__((noinline)) void vscale(const double *x, double *out, int n, double a) {
  for (int i = 0; i < n; ++i) out[i] = a * x[i];
}
void *vscale_aug(const double *x, double *dx, double *out, double *dout, int n, double a) {
  ++aug_calls;
  vscale(x, out, n, a);
  double *t = malloc(n * sizeof(double)); /* x may be overwritten later */
  for (int i = 0; i < n; ++i) t[i] = x[i];
  (void)dx; (void)dout;
  return t;
}
double vscale_rev(const double *x, double *dx, double *out, double *dout, int n, double a,
                  void *tape) {
  (void)x; (void)out;
  ++rev_calls;
  const double *xs = tape;
  double da = 0;
  for (int i = 0; i < n; ++i) {
    dx[i] += a * dout[i];
    da += xs[i] * dout[i];
    dout[i] = 0;
  }
  free(tape);
  return da;
}
void *__enzyme_register_gradient_vscale[3] = {(void *)vscale, (void *)vscale_aug,
                                              (void *)vscale_rev};

/* The BLAS helper's shape: a status, the result through `out`. */
__attribute__((noinline)) int dot(char kind, char conj, long n, void *x, void *y, void *out) {
  if (kind != 'd' || conj) return -1;
  double s = 0;
  for (long i = 0; i < n; ++i) s += ((double *)x)[i] * ((double *)y)[i];
  *(double *)out = s;
  return 0;
}
typedef struct { void *tape; int status; } aug_int;
aug_int dot_aug(char kind, char conj, long n, void *x, void *dx, void *y, void *dy, void *out,
                void *dout) {
  ++aug_calls;
  (void)dx; (void)dy; (void)dout;
  aug_int r = {0, dot(kind, conj, n, x, y, out)};
  return r; /* x and y are not overwritten here: no tape */
}
void dot_rev(char kind, char conj, long n, void *x, void *dx, void *y, void *dy, void *out,
             void *dout, void *tape) {
  (void)kind; (void)conj; (void)out; (void)tape;
  ++rev_calls;
  double d = *(double *)dout;
  for (long i = 0; i < n; ++i) {
    ((double *)dx)[i] += d * ((double *)y)[i];
    ((double *)dy)[i] += d * ((double *)x)[i];
  }
  *(double *)dout = 0;
}
void *__enzyme_register_gradient_dot[3] = {(void *)dot, (void *)dot_aug, (void *)dot_rev};

enum { N = 4 };

double f_scalar(double x) { return softplus(x * x) * 3.0; }

double f_loop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += softplus(x[i]) * x[i];
  return s;
}

double f_arrays(const double *x, double a, int n) {
  double *t = malloc(n * sizeof(double));
  vscale(x, t, n, a);
  double s = 0;
  for (int i = 0; i < n; ++i) s += sin(t[i]);
  free(t);
  return s;
}

double f_dot(double *x, double *y, int n) {
  double out;
  if (dot('d', 0, n, x, y, &out) != 0) return -1.0;
  return out * out;
}

static const double table[N] = {0.5, -1.0, 2.0, 0.25};
double f_dot_const(double *x, int n) {
  double out;
  if (dot('d', 0, n, x, (void *)table, &out) != 0) return -1.0;
  return sin(out);
}

static double loop_fd(const double *x, void *c) { (void)c; return f_loop(x, N); }
static double arrays_fd(const double *x, void *c) { return f_arrays(x, *(double *)c, N); }
static double arrays_a_fd(const double *a, void *c) { return f_arrays(c, a[0], N); }
static double dot_fd(const double *xy, void *c) {
  (void)c;
  double x[N], y[N];
  for (int i = 0; i < N; ++i) { x[i] = xy[i]; y[i] = xy[N + i]; }
  return f_dot(x, y, N);
}
static double dot_const_fd(const double *x, void *c) {
  (void)c;
  double xs[N];
  for (int i = 0; i < N; ++i) xs[i] = x[i];
  return f_dot_const(xs, N);
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5}, dx[N];

  aug_calls = rev_calls = 0;
  double g = __enzyme_autodiff((void *)f_scalar, 0.8);
  double s = 0.64;
  CHECK_CLOSE(3.0 * 2 * 0.8 / (1 + exp(-s)), g);
  CHECK(aug_calls == 1 && rev_calls == 1);

  aug_calls = rev_calls = 0;
  for (int i = 0; i < N; ++i) dx[i] = 0;
  __enzyme_autodiff((void *)f_loop, enzyme_dup, x, dx, enzyme_const, N);
  CHECK_GRADIENT(loop_fd, 0, x, N, dx);
  CHECK(aug_calls == N && rev_calls == N);

  aug_calls = rev_calls = 0;
  double a = 1.3;
  for (int i = 0; i < N; ++i) dx[i] = 0;
  double da = __enzyme_autodiff((void *)f_arrays, enzyme_dup, x, dx, enzyme_out, a,
                                enzyme_const, N);
  CHECK_GRADIENT(arrays_fd, &a, x, N, dx);
  double a0[1] = {a}, ga[1] = {da};
  CHECK_GRADIENT(arrays_a_fd, x, a0, 1, ga);
  CHECK(aug_calls == 1 && rev_calls == 1);

  aug_calls = rev_calls = 0;
  double y[N] = {0.9, 0.1, -0.4, 1.7}, dy[N] = {0};
  for (int i = 0; i < N; ++i) dx[i] = 0;
  __enzyme_autodiff((void *)f_dot, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N);
  double xy[2 * N], gxy[2 * N];
  for (int i = 0; i < N; ++i) {
    xy[i] = x[i]; xy[N + i] = y[i]; gxy[i] = dx[i]; gxy[N + i] = dy[i];
  }
  CHECK_GRADIENT(dot_fd, 0, xy, 2 * N, gxy);
  CHECK(aug_calls == 1 && rev_calls == 1);

  aug_calls = rev_calls = 0;
  for (int i = 0; i < N; ++i) dx[i] = 0;
  __enzyme_autodiff((void *)f_dot_const, enzyme_dup, x, dx, enzyme_const, N);
  CHECK_GRADIENT(dot_const_fd, 0, x, N, dx);
  CHECK(aug_calls == 1 && rev_calls == 1);
  return fd_report();
}
