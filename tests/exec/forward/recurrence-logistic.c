// Forward mode through loop-carried recurrences: the logistic map
// x_{k+1} = r x_k (1 - x_k), differentiated with respect to x_0 and r
// (separately and together) for a run-time number of steps, and the same
// recurrence kept in memory (a trajectory array, each step reading the
// previous element). The reference is a hand-written tangent loop, itself
// checked against finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double logistic(double x0, double r, int n) {
  double x = x0;
  for (int k = 0; k < n; ++k)
    x = r * x * (1 - x);
  return x;
}

/* xs[0] is the start; writes xs[1..n]. */
void trajectory(double *xs, const double *r, int n) {
  for (int k = 0; k < n; ++k)
    xs[k + 1] = *r * xs[k] * (1 - xs[k]);
}

/* Hand-written tangent: (x, dx) through n steps. */
static double logistic_tangent(double x0, double dx0, double r, double dr,
                               int n) {
  double x = x0, dx = dx0;
  for (int k = 0; k < n; ++k) {
    double nx = r * x * (1 - x);
    dx = dr * x * (1 - x) + r * dx * (1 - 2 * x);
    x = nx;
  }
  return dx;
}

struct ctx {
  int n;
};
static double logistic_fd(const double *v, void *p) {
  return logistic(v[0], v[1], ((struct ctx *)p)->n);
}

enum { NMAX = 40 };

int main(void) {
  static const struct {
    double x0, r;
    int n;
  } cases[] = {{0.31, 3.2, 30}, {0.47, 2.9, 17}, {0.123, 3.55, 12},
               {0.66, 1.7, 40}, {0.2, 3.1, 1},   {0.45, 2.5, 0}};
  for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    double x0 = cases[k].x0, r = cases[k].r;
    volatile int nv = cases[k].n;
    int n = nv;
    struct ctx c = {n};
    double v[2] = {x0, r}, ex[2] = {1, 0}, er[2] = {0, 1}, em[2] = {0.6, -0.8};
    double d_x0 = logistic_tangent(x0, 1, r, 0, n);
    double d_r = logistic_tangent(x0, 0, r, 1, n);
    /* The n-fold map has large higher derivatives, so the differences are
     * only good to ~1e-6 here: they validate the tangent loop, which is
     * the tight reference for the requests. */
    if (n > 0) {
      CHECK_CLOSE_TOL(d_x0, fd_dir(logistic_fd, &c, v, ex, 2), 1e-5, 1e-8);
      CHECK_CLOSE_TOL(d_r, fd_dir(logistic_fd, &c, v, er, 2), 1e-5, 1e-8);
      CHECK_CLOSE_TOL(0.6 * d_x0 - 0.8 * d_r, fd_dir(logistic_fd, &c, v, em, 2),
                      1e-5, 1e-8);
    }
    CHECK_CLOSE(d_x0, __enzyme_fwddiff((void *)logistic, enzyme_dup, x0, 1.0,
                                       enzyme_const, r, enzyme_const, n));
    CHECK_CLOSE(d_r, __enzyme_fwddiff((void *)logistic, enzyme_const, x0,
                                      enzyme_dup, r, 1.0, n));
    CHECK_CLOSE(0.6 * d_x0 - 0.8 * d_r,
                __enzyme_fwddiff((void *)logistic, x0, 0.6, r, -0.8, n));

    /* In memory: dxs[k] = d x_k / d(x0, r) along (1, 0.5). */
    double xs[NMAX + 1], dxs[NMAX + 1], dr = 0.5;
    for (int i = 0; i <= n; ++i) {
      xs[i] = i == 0 ? x0 : -5;
      dxs[i] = i == 0 ? 1 : 17;
    }
    __enzyme_fwddiff_void((void *)trajectory, enzyme_dup, xs, dxs, enzyme_dup,
                          &r, &dr, enzyme_const, n);
    for (int i = 0; i <= n; ++i) {
      CHECK_CLOSE(logistic(x0, r, i), xs[i]);
      CHECK_CLOSE(logistic_tangent(x0, 1, r, 0.5, i), dxs[i]);
    }
    CHECK(r == cases[k].r && dr == 0.5);
  }
  return fd_report();
}
