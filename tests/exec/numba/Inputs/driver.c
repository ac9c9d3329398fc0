/* Driver for tests/exec/numba/forward-cfunc.py. numba_names.h (written by
 * the script) maps each Numba function to its symbols: the cfunc wrapper
 * `cfunc._ZN...` (a C function) and the inner function `_ZN...` (Numba's
 * calling convention: `i32 inner(T *retptr, excinfo **, args...)`, the
 * result stored through retptr, the i32 a status). Both are requested in
 * forward mode, and every tangent is checked against analytic formulas and
 * finite differences of the cfunc. */
#include "enzyme.h"
#include "fdcheck.h"
#include "numba_names.h"

#include <string.h>

/* Numba's exception-info out-parameter; never written on these paths. */
typedef void *excinfo_t;

double mul_cfunc(double, double) __asm__(MUL_CFUNC);
int mul_inner(double *, excinfo_t *, double, double) __asm__(MUL_INNER);
double sinx_cfunc(double) __asm__(SINX_CFUNC);
int sinx_inner(double *, excinfo_t *, double) __asm__(SINX_INNER);
double model_cfunc(double, double) __asm__(MODEL_CFUNC);
int model_inner(double *, excinfo_t *, double, double) __asm__(MODEL_INNER);
double sumsq_cfunc(double *, int) __asm__(SUMSQ_CFUNC);
int sumsq_inner(double *, excinfo_t *, double *, int) __asm__(SUMSQ_INNER);
double sinmul_cfunc(double *, double *, int) __asm__(SINMUL_CFUNC);
int sinmul_inner(double *, excinfo_t *, double *, double *, int)
    __asm__(SINMUL_INNER);
double temps_cfunc(double *, int) __asm__(TEMPS_CFUNC);

struct ctx {
  int n;
};
static double mul_fd(const double *v, void *p) {
  (void)p;
  return mul_cfunc(v[0], v[1]);
}
static double model_fd(const double *v, void *p) {
  (void)p;
  return model_cfunc(v[0], v[1]);
}
static double temps_fd(const double *v, void *p) {
  return temps_cfunc((double *)v, ((struct ctx *)p)->n);
}
static double sumsq_fd(const double *v, void *p) {
  return sumsq_cfunc((double *)v, ((struct ctx *)p)->n);
}
/* out = [o_0 .. o_{n-1}, returned sum] */
static void sinmul_fd(const double *v, double *out, void *p) {
  int n = ((struct ctx *)p)->n;
  out[n] = sinmul_cfunc((double *)v, out, n);
}

enum { N = 13 };

int main(void) {
  excinfo_t exc = 0;
  double r, dr;

  /* mul(a, b) = a b */
  {
    double a = 1.75, b = -0.6, da = 0.3, db = 1.2;
    double an = da * b + a * db, v[2] = {a, b}, dv[2] = {da, db};
    CHECK_CLOSE(an, fd_dir(mul_fd, 0, v, dv, 2));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)mul_cfunc, a, da, b, db));
    CHECK_CLOSE(b, __enzyme_fwddiff((void *)mul_cfunc, enzyme_dup, a, 1.0,
                                    enzyme_const, b));
    r = -1;
    dr = 123;
    __enzyme_fwddiff_void((void *)mul_inner, enzyme_dup, &r, &dr, enzyme_const,
                          &exc, a, da, b, db);
    CHECK_CLOSE(a * b, r);
    CHECK_CLOSE(an, dr);
  }

  /* sinx(x) = sin(x) x */
  static const double xs[] = {0.4, 1.9, -2.7};
  for (unsigned k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
    double x = xs[k], an = cos(x) * x + sin(x);
    CHECK_CLOSE(an, fd_scalar(sinx_cfunc, x));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)sinx_cfunc, x, 1.0));
    CHECK_CLOSE(-2 * an, __enzyme_fwddiff((void *)sinx_cfunc, enzyme_dup, x,
                                          -2.0));
    dr = 77;
    __enzyme_fwddiff_void((void *)sinx_inner, enzyme_dup, &r, &dr,
                          enzyme_const, &exc, enzyme_dup, x, 1.0);
    CHECK_CLOSE(sin(x) * x, r);
    CHECK_CLOSE(an, dr);
  }

  /* model(x, y) = damp(x) y + x y^2, damp(x) = exp(-x/2) cos(x) (@njit) */
  {
    double x = 0.9, y = 1.4, dx = -0.5, dy = 0.8;
    double e = exp(-0.5 * x), dd = -0.5 * e * cos(x) - e * sin(x);
    double an = dd * dx * y + e * cos(x) * dy + dx * y * y + 2 * x * y * dy;
    double v[2] = {x, y}, dv[2] = {dx, dy};
    CHECK_CLOSE(an, fd_dir(model_fd, 0, v, dv, 2));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)model_cfunc, x, dx, y, dy));
    dr = 5;
    __enzyme_fwddiff_void((void *)model_inner, enzyme_dup, &r, &dr,
                          enzyme_const, &exc, x, dx, y, dy);
    CHECK_CLOSE(e * cos(x) * y + x * y * y, r);
    CHECK_CLOSE(an, dr);
  }

  /* sumsq(p, n) over carray(p, (n,)) */
  volatile int nv = N;
  int n = nv;
  double p[N], dp[N], q[N], dq[N], fd[N + 1];
  for (int i = 0; i < N; ++i) {
    p[i] = 0.9 * sin(0.7 * i + 0.3) + 0.05 * i;
    dp[i] = 0.4 - 0.06 * i;
  }
  {
    double an = 0;
    for (int i = 0; i < n; ++i)
      an += 2 * p[i] * dp[i];
    struct ctx c = {n};
    CHECK_CLOSE(an, fd_dir(sumsq_fd, &c, p, dp, n));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)sumsq_cfunc, enzyme_dup, p, dp,
                                     enzyme_const, n));
    dr = 1;
    __enzyme_fwddiff_void((void *)sumsq_inner, enzyme_dup, &r, &dr,
                          enzyme_const, &exc, enzyme_dup, p, dp, enzyme_const,
                          n);
    CHECK_CLOSE(an, dr);
  }

  /* temps(p, n) = sum(a * a) + sum(sin(a)), through NRT array temporaries */
  {
    double an = 0;
    for (int i = 0; i < n; ++i)
      an += (2 * p[i] + cos(p[i])) * dp[i];
    struct ctx c = {n};
    CHECK_CLOSE(an, fd_dir(temps_fd, &c, p, dp, n));
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)temps_cfunc, enzyme_dup, p, dp,
                                     enzyme_const, n));
  }

  /* sinmul(p, q, n): q_i = sin(p_i) p_i, returns sum q */
  {
    double an_sum = 0, an[N];
    for (int i = 0; i < n; ++i) {
      an[i] = (cos(p[i]) * p[i] + sin(p[i])) * dp[i];
      an_sum += an[i];
    }
    struct ctx c = {n};
    fd_dir_vec(sinmul_fd, &c, p, dp, n, fd, n + 1);
    for (int i = 0; i < n; ++i)
      CHECK_CLOSE(an[i], fd[i]);
    CHECK_CLOSE(an_sum, fd[n]);
    for (int i = 0; i < N; ++i)
      q[i] = dq[i] = -4;
    double t = __enzyme_fwddiff((void *)sinmul_cfunc, enzyme_dup, p, dp,
                                enzyme_dup, q, dq, enzyme_const, n);
    CHECK_CLOSE(an_sum, t);
    for (int i = 0; i < n; ++i) {
      CHECK_CLOSE(sin(p[i]) * p[i], q[i]);
      CHECK_CLOSE(an[i], dq[i]);
    }
    for (int i = 0; i < N; ++i)
      q[i] = dq[i] = -4;
    dr = 3;
    __enzyme_fwddiff_void((void *)sinmul_inner, enzyme_dup, &r, &dr,
                          enzyme_const, &exc, enzyme_dup, p, dp, enzyme_dup, q,
                          dq, enzyme_const, n);
    CHECK_CLOSE(an_sum, dr);
    for (int i = 0; i < n; ++i)
      CHECK_CLOSE(an[i], dq[i]);
  }
  return fd_report();
}
