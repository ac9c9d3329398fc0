/*===- tests/exec/lib/fdcheck.h - Finite differences and checks ---*- C -*-===*
 *
 * A tiny header for executed derivative tests (C99, header only, no state
 * outside this translation unit):
 *
 *   fd_scalar(f, x)             d/dx f at x, f: double -> double
 *   fd_scalar_f(f, x)           the same for float -> float
 *   fd_dir(F, ctx, x, dx, n)    directional derivative of F: R^n -> R
 *   fd_dir_vec(F, ctx, x, dx, n, dout, m)
 *                               directional derivative of F: R^n -> R^m
 *   fd_line(g, ctx, t0, scale)  d/dt g(t, ctx) at t0, step scaled to `scale`
 *
 *   CHECK_CLOSE(expected, actual)             default tolerances
 *   CHECK_CLOSE_TOL(expected, actual, rtol, atol)
 *   CHECK_CLOSE_F(expected, actual)           float tolerances
 *   CHECK(cond)
 *   return fd_report();         at the end of main
 *
 * Differences are central and of fourth order,
 *   f'(t) ~ (f(t-2h) - 8 f(t-h) + 8 f(t+h) - f(t+2h)) / 12h,
 * with h = FD_H_REL * |t| (1e-4 |t|; 1e-4 when t is 0), rounded so that
 * t + h is exactly representable. In double the error is ~1e-12 relative
 * for smooth functions whose features are not much finer than |t| (see
 * tests/exec/forward/harness-selftest.c), so the default tolerance (rtol
 * 1e-7, atol 1e-9) leaves a wide margin yet catches any real mistake. Keep
 * inputs at least 2h away from kinks (fabs, fmax) and branch thresholds.
 *
 * A check passes when |expected - actual| <= atol + rtol * |expected|;
 * NaN never passes. fd_report() prints "N checks passed, M failed" and
 * returns non-zero when M > 0 or when no check ran at all (a test that
 * checks nothing is a broken test).
 *
 * Compile with -DFD_REAL=float to make `real` a float (see run-c.sh); the
 * default tolerances then loosen to rtol 2e-3, atol 1e-4, and fd_dir /
 * fd_dir_vec take the float step (FD_H_REL_FLOAT): their callbacks see
 * doubles and are expected to round them to float.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AUTODIFF_TESTS_FDCHECK_H
#define AUTODIFF_TESTS_FDCHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef FD_REAL
#define FD_REAL double
#define FD_REAL_IS_DOUBLE 1
#else
#define FD_REAL_IS_DOUBLE 0
#endif
/* The element type of type-generic tests (`-DFD_REAL=float`). */
typedef FD_REAL real;

/* Tolerances of float results (CHECK_CLOSE_F, and CHECK_CLOSE under
 * -DFD_REAL=float). */
#ifndef FD_RTOL_FLOAT
#define FD_RTOL_FLOAT 2e-3
#define FD_ATOL_FLOAT 1e-4
#endif
#ifndef FD_RTOL
#if FD_REAL_IS_DOUBLE
#define FD_RTOL 1e-7
#define FD_ATOL 1e-9
#else
#define FD_RTOL FD_RTOL_FLOAT
#define FD_ATOL FD_ATOL_FLOAT
#endif
#endif

/* Relative step of the double and the float differences. */
#ifndef FD_H_REL
#define FD_H_REL 1e-4
#endif
#ifndef FD_H_REL_FLOAT
#define FD_H_REL_FLOAT 3e-2
#endif
/* Relative step of fd_dir / fd_dir_vec: the float one under
 * -DFD_REAL=float, where the callbacks round their inputs to float. */
#if FD_REAL_IS_DOUBLE
#define FD_H_DIR FD_H_REL
#else
#define FD_H_DIR FD_H_REL_FLOAT
#endif

static int fd_passed_count = 0;
static int fd_failed_count = 0;

/* ---- Comparison ------------------------------------------------------- */

static inline int fd_is_close(double expected, double actual, double rtol,
                              double atol) {
  if (isnan(expected) || isnan(actual))
    return 0;
  if (isinf(expected) || isinf(actual))
    return expected == actual;
  return fabs(expected - actual) <= atol + rtol * fabs(expected);
}

static inline int fd_check_close_at(const char *file, int line,
                                    const char *what, double expected,
                                    double actual, double rtol, double atol) {
  if (fd_is_close(expected, actual, rtol, atol)) {
    ++fd_passed_count;
    if (getenv("FD_VERBOSE"))
      printf("%s:%d: ok: %s: expected %.17g, actual %.17g\n", file, line,
             what, expected, actual);
    return 1;
  }
  ++fd_failed_count;
  printf("%s:%d: FAILED: %s: expected %.17g, actual %.17g "
         "(abs err %.3g, rel err %.3g, rtol %.3g, atol %.3g)\n",
         file, line, what, expected, actual, fabs(expected - actual),
         expected != 0 ? fabs((expected - actual) / expected) : INFINITY, rtol,
         atol);
  fflush(stdout);
  return 0;
}

static inline int fd_check_at(const char *file, int line, const char *what,
                              int ok) {
  if (ok) {
    ++fd_passed_count;
    return 1;
  }
  ++fd_failed_count;
  printf("%s:%d: FAILED: %s\n", file, line, what);
  fflush(stdout);
  return 0;
}

/* Each argument is evaluated exactly once. */
#define CHECK_CLOSE(expected, actual)                                          \
  fd_check_close_at(__FILE__, __LINE__, #actual " vs " #expected,              \
                    (double)(expected), (double)(actual), FD_RTOL, FD_ATOL)
#define CHECK_CLOSE_TOL(expected, actual, rtol, atol)                          \
  fd_check_close_at(__FILE__, __LINE__, #actual " vs " #expected,              \
                    (double)(expected), (double)(actual), (rtol), (atol))
#define CHECK_CLOSE_F(expected, actual)                                        \
  fd_check_close_at(__FILE__, __LINE__, #actual " vs " #expected,              \
                    (double)(expected), (double)(actual), FD_RTOL_FLOAT,       \
                    FD_ATOL_FLOAT)
#define CHECK(cond) fd_check_at(__FILE__, __LINE__, #cond, (cond) ? 1 : 0)

static inline int fd_report(void) {
  printf("%d checks passed, %d failed\n", fd_passed_count, fd_failed_count);
  fflush(stdout);
  if (fd_passed_count + fd_failed_count == 0) {
    printf("no checks ran\n");
    return 2;
  }
  return fd_failed_count != 0;
}

/* ---- Finite differences ----------------------------------------------- */

/* A step of relative size `rel` around t (absolute `rel` when t == 0),
 * adjusted so that t + h - t == h exactly. */
static inline double fd_step(double t, double rel) {
  double h = rel * (t != 0 ? fabs(t) : 1.0);
  volatile double tp = t + h;
  return tp - t;
}

/* The fourth-order central difference of g at t0 with step h. */
static inline double fd_stencil(double (*g)(double, void *), void *ctx,
                                double t0, double h) {
  double fm2 = g(t0 - 2 * h, ctx), fm1 = g(t0 - h, ctx);
  double fp1 = g(t0 + h, ctx), fp2 = g(t0 + 2 * h, ctx);
  return (fm2 - 8 * fm1 + 8 * fp1 - fp2) / (12 * h);
}

/* d/dt g(t, ctx) at t0, the step scaled to |scale| (pass t0 itself for a
 * scalar function, or the size of the input a unit of t moves). */
static inline double fd_line(double (*g)(double, void *), void *ctx,
                             double t0, double scale) {
  double h = fd_step(scale, FD_H_REL);
  return fd_stencil(g, ctx, t0, h);
}

struct fd_scalar_ctx {
  double (*f)(double);
  float (*ff)(float);
};
static inline double fd_scalar_eval(double t, void *ctx) {
  return ((struct fd_scalar_ctx *)ctx)->f(t);
}
static inline double fd_scalar_eval_f(double t, void *ctx) {
  return (double)((struct fd_scalar_ctx *)ctx)->ff((float)t);
}

/* Checks grad[0..n) against fourth-order central differences of
 * f(x, ctx) in each coordinate of x (n <= 64), with tolerances for
 * double-precision gradients. */
typedef double (*fd_vector_fn)(const double *, void *);
#define CHECK_GRADIENT(f, ctx, x, n, grad)                                     \
  fd_check_gradient_at(__FILE__, __LINE__, (f), (ctx), (x), (n), (grad))
static inline void fd_check_gradient_at(const char *file, int line,
                                        fd_vector_fn f, void *ctx,
                                        const double *x, int n,
                                        const double *grad) {
  double w[64];
  for (int i = 0; i < n && i < 64; ++i) {
    for (int j = 0; j < n; ++j) w[j] = x[j];
    double h = fd_step(x[i], FD_H_REL);
    w[i] = x[i] + h; double fp = f(w, ctx);
    w[i] = x[i] - h; double fm = f(w, ctx);
    w[i] = x[i] + 2 * h; double fp2 = f(w, ctx);
    w[i] = x[i] - 2 * h; double fm2 = f(w, ctx);
    fd_check_close_at(file, line, "gradient vs finite difference",
                      (fm2 - 8 * fm + 8 * fp - fp2) / (12 * h), grad[i], 1e-6,
                      1e-8);
  }
}

/* f'(x). */
static inline double fd_scalar(double (*f)(double), double x) {
  struct fd_scalar_ctx c = {f, 0};
  return fd_stencil(fd_scalar_eval, &c, x, fd_step(x, FD_H_REL));
}

/* f'(x) for a float function; the step is a float-exact offset. Accurate
 * to ~1e-4 relative: compare with float tolerances. */
static inline double fd_scalar_f(float (*f)(float), float x) {
  struct fd_scalar_ctx c = {0, f};
  float h = (float)(FD_H_REL_FLOAT * (x != 0 ? fabsf(x) : 1.0f));
  volatile float xp = x + h;
  h = xp - x;
  return fd_stencil(fd_scalar_eval_f, &c, x, h);
}

/* The t of a directional difference: the step along dx is scaled to the
 * smallest |x_i| / |dx_i| over the moved components, so no component moves
 * by more than FD_H_REL of its own size. */
static inline double fd_dir_scale(const double *x, const double *dx, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    if (dx[i] == 0)
      continue;
    double si = (x[i] != 0 ? fabs(x[i]) : 1.0) / fabs(dx[i]);
    if (s == 0 || si < s)
      s = si;
  }
  return s != 0 ? s : 1.0;
}

typedef double (*fd_vfn)(const double *x, void *ctx);
typedef void (*fd_vvfn)(const double *x, double *out, void *ctx);

struct fd_dir_ctx {
  fd_vfn F;
  fd_vvfn G;
  void *ctx;
  const double *x, *dx;
  double *work, *out;
  int n, m, k;
};
static inline void fd_dir_point(struct fd_dir_ctx *c, double t) {
  for (int i = 0; i < c->n; ++i)
    c->work[i] = c->x[i] + t * c->dx[i];
}
static inline double fd_dir_eval(double t, void *p) {
  struct fd_dir_ctx *c = (struct fd_dir_ctx *)p;
  fd_dir_point(c, t);
  return c->F(c->work, c->ctx);
}

/* The derivative of F at x along dx (n components). F must not keep or
 * modify its argument. */
static inline double fd_dir(fd_vfn F, void *ctx, const double *x,
                            const double *dx, int n) {
  double *work = (double *)malloc(sizeof(double) * (n > 0 ? n : 1));
  struct fd_dir_ctx c = {F, 0, ctx, x, dx, work, 0, n, 0, 0};
  double h = FD_H_DIR * fd_dir_scale(x, dx, n);
  double d = fd_stencil(fd_dir_eval, &c, 0.0, h);
  free(work);
  return d;
}

/* The derivative of G: R^n -> R^m at x along dx, written to dout[m]. */
static inline void fd_dir_vec(fd_vvfn G, void *ctx, const double *x,
                              const double *dx, int n, double *dout, int m) {
  double *work = (double *)malloc(sizeof(double) * (n > 0 ? n : 1));
  double *o = (double *)malloc(sizeof(double) * 4 * (m > 0 ? m : 1));
  double h = FD_H_DIR * fd_dir_scale(x, dx, n);
  static const double offs[4] = {-2, -1, 1, 2};
  struct fd_dir_ctx c = {0, G, ctx, x, dx, work, 0, n, m, 0};
  for (int s = 0; s < 4; ++s) {
    fd_dir_point(&c, offs[s] * h);
    G(work, o + s * m, ctx);
  }
  for (int j = 0; j < m; ++j)
    dout[j] = (o[j] - 8 * o[m + j] + 8 * o[2 * m + j] - o[3 * m + j]) /
              (12 * h);
  free(o);
  free(work);
}

#endif /* AUTODIFF_TESTS_FDCHECK_H */
