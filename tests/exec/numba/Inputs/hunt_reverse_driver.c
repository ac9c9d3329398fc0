/* Driver for tests/exec/numba/reverse-hunt.py: reverse derivatives of Numba
 * cfunc wrappers and of the functions they call, checked against analytic
 * formulas and finite differences of the cfuncs. numba_names.h maps each
 * name to its cfunc wrapper and inner symbol (for `energy`, both are the
 * @njit function in Numba's calling convention). */
#include "enzyme.h"
#include "fdcheck.h"
#include "numba_names.h"

#include <string.h>

typedef void *excinfo_t;
typedef struct { double a, b; } two;
two __enzyme_autodiff_two(void *, ...);

double mul_cfunc(double, double) __asm__(MUL_CFUNC);
int mul_inner(double *, excinfo_t *, double, double) __asm__(MUL_INNER);
double energy_c_cfunc(double *, int) __asm__(ENERGY_C_CFUNC);
int energy_c_inner(double *, excinfo_t *, double *, int) __asm__(ENERGY_C_INNER);
/* @njit energy(a) for array(float64, 1d, C): meminfo, parent, nitems,
 * itemsize, data, shape[0], strides[0] */
int energy_njit(double *, excinfo_t *, void *, void *, long, long, double *, long, long)
    __asm__(ENERGY_INNER);
double clipped_cfunc(double *, double *, int) __asm__(CLIPPED_CFUNC);
double cubes_tmp_cfunc(double *, int) __asm__(CUBES_TMP_CFUNC);
double cubes_expr_cfunc(double *, int) __asm__(CUBES_EXPR_CFUNC);
double explog_expr_cfunc(double *, int) __asm__(EXPLOG_EXPR_CFUNC);
double where_expr_cfunc(double *, int) __asm__(WHERE_EXPR_CFUNC);

struct ctx { int n; const double *seed; };
static double energy_F(const double *v, void *p) {
  return energy_c_cfunc((double *)v, ((struct ctx *)p)->n);
}
/* the primal in C */
static double energy_ref(const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += p[i] * p[i] * sin(p[i]);
  return s;
}
static double cubes_tmp_F(const double *v, void *p) {
  return cubes_tmp_cfunc((double *)v, ((struct ctx *)p)->n);
}
static double cubes_expr_F(const double *v, void *p) {
  return cubes_expr_cfunc((double *)v, ((struct ctx *)p)->n);
}
static double explog_expr_F(const double *v, void *p) {
  return explog_expr_cfunc((double *)v, ((struct ctx *)p)->n);
}
static double where_expr_F(const double *v, void *p) {
  return where_expr_cfunc((double *)v, ((struct ctx *)p)->n);
}
/* L = clipped(p) + seed . q */
static double clipped_F(const double *v, void *p) {
  struct ctx *c = p;
  double q[16] = {0};
  double r = clipped_cfunc((double *)v, q, c->n);
  for (int i = 0; i < c->n; ++i) r += c->seed[i] * q[i];
  return r;
}
static void check_grad(double (*F)(const double *, void *), void *c, const double *x, int n,
                       const double *got) {
  for (int i = 0; i < n; ++i) {
    double e[16] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(F, c, x, e, n), got[i], 1e-6, 1e-8);
  }
}

int main(void) {
  excinfo_t exc = 0;
  /* mul: the seed report */
  {
    double a = 1.75, b = -0.6;
    two g = __enzyme_autodiff_two((void *)mul_cfunc, a, b);
    CHECK_CLOSE(b, g.a);
    CHECK_CLOSE(a, g.b);
    CHECK_CLOSE(b, __enzyme_autodiff((void *)mul_cfunc, a, enzyme_const, b));
    /* inner: the result goes through retptr, whose shadow is the seed */
    double r = 0, dr = 2.5;
    two gi = __enzyme_autodiff_two((void *)mul_inner, enzyme_dup, &r, &dr, enzyme_const, &exc,
                                   a, b);
    CHECK_CLOSE(a * b, r);
    CHECK_CLOSE(2.5 * b, gi.a);
    CHECK_CLOSE(2.5 * a, gi.b);
    CHECK(dr == 0);
  }
  enum { N = 11 };
  volatile int nv = N;
  int n = nv;
  double p[N], dp[N], an[N];
  for (int i = 0; i < N; ++i) {
    p[i] = 0.9 * sin(0.7 * i + 0.3) + 0.05 * i;
    an[i] = 2 * p[i] * sin(p[i]) + p[i] * p[i] * cos(p[i]);
  }
  /* energy through the cfunc (carray, njit inlined) */
  {
    for (int i = 0; i < N; ++i) dp[i] = 0.5;
    __enzyme_autodiff((void *)energy_c_cfunc, enzyme_dup, p, dp, enzyme_const, n);
    struct ctx c = {n, 0};
    for (int i = 0; i < N; ++i) dp[i] -= 0.5;
    check_grad(energy_F, &c, p, n, dp);
    for (int i = 0; i < N; ++i) CHECK_CLOSE(an[i], dp[i]);
    double r = 0, dr = -1.5;
    memset(dp, 0, sizeof dp);
    __enzyme_autodiff_void((void *)energy_c_inner, enzyme_dup, &r, &dr, enzyme_const, &exc,
                           enzyme_dup, p, dp, enzyme_const, n);
    CHECK_CLOSE(energy_ref(p, n), r);
    for (int i = 0; i < N; ++i) CHECK_CLOSE(-1.5 * an[i], dp[i]);
  }
  /* the @njit function itself, array arguments expanded */
  {
    double r = 0, dr = 1.0;
    memset(dp, 0, sizeof dp);
    __enzyme_autodiff_void((void *)energy_njit, enzyme_dup, &r, &dr, enzyme_const, &exc,
                           enzyme_const, (void *)0, enzyme_const, (void *)0, enzyme_const,
                           (long)n, enzyme_const, 8L, enzyme_dup, p, dp, enzyme_const,
                           (long)n, enzyme_const, 8L);
    CHECK_CLOSE(energy_ref(p, n), r);
    for (int i = 0; i < N; ++i) CHECK_CLOSE(an[i], dp[i]);
  }
  /* clipped: data-dependent while with continue/break, output array */
  {
    double x[N], dx[N] = {0}, q[N], dq[N], seed[N];
    for (int i = 0; i < N; ++i) {
      x[i] = (i % 4 == 2 ? -0.3 : 0.4 + 0.1 * i);
      seed[i] = dq[i] = 0.25 * (i + 1);
      q[i] = -7;
    }
    __enzyme_autodiff((void *)clipped_cfunc, enzyme_dup, x, dx, enzyme_dup, q, dq,
                      enzyme_const, n);
    struct ctx c = {n, seed};
    check_grad(clipped_F, &c, x, n, dx);
    double q2[N];
    for (int i = 0; i < N; ++i) q2[i] = -7;
    clipped_cfunc(x, q2, n);
    for (int i = 0; i < N; ++i) {
      CHECK(q[i] == q2[i]);
      CHECK(dq[i] == (q2[i] == -7 ? seed[i] : 0));
    }
  }
  /* array temporaries: the shadow MemInfos start zeroed, get the
   * adjoints, and are released by the reverse sweep; a second call
   * accumulates into dp */
#define CHECK_CUBES(name)                                                      \
  do {                                                                         \
    memset(dp, 0, sizeof dp);                                                  \
    for (int rep = 0; rep < 2; ++rep)                                          \
      __enzyme_autodiff((void *)name##_cfunc, enzyme_dup, p, dp, enzyme_const, \
                        n);                                                    \
    for (int i = 0; i < N; ++i) dp[i] /= 2;                                    \
    struct ctx c = {n, 0};                                                     \
    check_grad(name##_F, &c, p, n, dp);                                        \
    for (int i = 0; i < N; ++i) CHECK_CLOSE(3 * p[i] * p[i], dp[i]);          \
  } while (0)
  CHECK_CUBES(cubes_tmp);
  CHECK_CUBES(cubes_expr);
  /* sum(exp(a) log(1 + a^2) a) */
  {
    memset(dp, 0, sizeof dp);
    __enzyme_autodiff((void *)explog_expr_cfunc, enzyme_dup, p, dp, enzyme_const, n);
    struct ctx c = {n, 0};
    check_grad(explog_expr_F, &c, p, n, dp);
    for (int i = 0; i < N; ++i) {
      double a = p[i], l = log(1 + a * a);
      CHECK_CLOSE(exp(a) * l * a + exp(a) * 2 * a * a / (1 + a * a) + exp(a) * l, dp[i]);
    }
  }
  /* sum(where(a > 0, a^2, -a) exp(-a)) */
  {
    memset(dp, 0, sizeof dp);
    __enzyme_autodiff((void *)where_expr_cfunc, enzyme_dup, p, dp, enzyme_const, n);
    struct ctx c = {n, 0};
    check_grad(where_expr_F, &c, p, n, dp);
    for (int i = 0; i < N; ++i) {
      double a = p[i];
      CHECK_CLOSE(a > 0 ? (2 * a - a * a) * exp(-a) : (a - 1) * exp(-a), dp[i]);
    }
  }
  return fd_report();
}
