// Forward mode through loops over duplicated arrays with a run-time length:
// a dot product (both sides dup, one side const, the length unmarked and
// marked const) and a sum of squares with a 64-bit length, including the
// empty and one-element cases. Odd lengths exercise vector remainders.
// RUN: sh %testlib/run-c.sh %s
// RUN: sh %testlib/run-c.sh %s -DFD_REAL=float

#include "enzyme.h"
#include "fdcheck.h"

#if FD_REAL_IS_DOUBLE
#define FWD __enzyme_fwddiff
#else
#define FWD __enzyme_fwddiff_float
#endif

real dot(const real *a, const real *b, int n) {
  real s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

real sumsq(const real *x, long n) {
  real s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

enum { NMAX = 64 };
static volatile int lengths[] = {37, 1, 0, 8, 64};

/* Finite-difference callbacks: v = [a; b]. */
struct dot_ctx {
  int n;
};
static double dot_fd(const double *v, void *p) {
  int n = ((struct dot_ctx *)p)->n;
  real a[NMAX], b[NMAX];
  for (int i = 0; i < n; ++i) {
    a[i] = (real)v[i];
    b[i] = (real)v[n + i];
  }
  return dot(a, b, n);
}
static double sumsq_fd(const double *v, void *p) {
  int n = ((struct dot_ctx *)p)->n;
  real x[NMAX];
  for (int i = 0; i < n; ++i)
    x[i] = (real)v[i];
  return sumsq(x, n);
}

int main(void) {
  for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
    int n = lengths[k];
    real a[NMAX], b[NMAX], da[NMAX], db[NMAX];
    double v[2 * NMAX], dv[2 * NMAX];
    for (int i = 0; i < n; ++i) {
      a[i] = (real)(0.5 + 0.03 * i - 0.2 * sin(1.7 * i));
      b[i] = (real)(-1.3 + 0.11 * i * 0.5 + 0.4 * cos(0.9 * i));
      da[i] = (real)(0.7 - 0.05 * i);
      db[i] = (real)(0.25 + 0.02 * (i % 5));
      v[i] = a[i];
      v[n + i] = b[i];
      dv[i] = da[i];
      dv[n + i] = db[i];
    }
    real a_before = n > 0 ? a[0] : 0;

    /* Analytic: d(a.b) = da.b + a.db; d(x.x) = 2 x.dx. */
    double an_both = 0, an_b = 0, an_sq = 0;
    for (int i = 0; i < n; ++i) {
      an_both += (double)da[i] * b[i] + (double)a[i] * db[i];
      an_b += (double)a[i] * db[i];
      an_sq += 2.0 * a[i] * da[i];
    }
    struct dot_ctx c = {n};
    if (n > 0) {
      CHECK_CLOSE(an_both, fd_dir(dot_fd, &c, v, dv, 2 * n));
      CHECK_CLOSE(an_sq, fd_dir(sumsq_fd, &c, v, dv, n));
    }

    CHECK_CLOSE(an_both, FWD((void *)dot, enzyme_dup, a, da, enzyme_dup, b,
                             db, enzyme_const, n));
    CHECK_CLOSE(an_both, FWD((void *)dot, a, da, b, db, n));
    CHECK_CLOSE(an_b, FWD((void *)dot, enzyme_const, a, enzyme_dup, b, db, n));
    CHECK_CLOSE(an_sq, FWD((void *)sumsq, enzyme_dup, a, da, (long)n));
    CHECK_CLOSE(an_sq, FWD((void *)sumsq, a, da, enzyme_const, (long)n));
    /* The derivative is linear in the seed. */
    for (int i = 0; i < n; ++i)
      db[i] *= -3;
    CHECK_CLOSE(-3 * an_b,
                FWD((void *)dot, enzyme_const, a, enzyme_dup, b, db, n));
    /* Inputs are not modified. */
    CHECK(n == 0 || a[0] == a_before);
  }
  return fd_report();
}
