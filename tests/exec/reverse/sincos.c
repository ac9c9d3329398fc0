// sincos(x, &s, &c) (glibc's, one call for both): reverse mode gives x the
// adjoint s' cos x - c' sin x from the outputs' shadows, forward mode the
// tangents of both outputs; a scalar function and a loop over an array,
// against finite differences and the other mode.
// RUN: sh %testlib/run-c.sh %s

#define _GNU_SOURCE
#include "enzyme.h"
#include "fdcheck.h"

#include <string.h>

void sincos(double, double *, double *);

double f(double x) {
  double s, c;
  sincos(x * 1.5, &s, &c);
  return s * c + s * s * 3.0 + c;
}

double g(double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i) {
    double s, c;
    sincos(x[i], &s, &c);
    x[i] = s - 2 * c * s; /* in place */
    r += x[i] * (1 + i);
  }
  return r;
}

static double g_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[4];
  memcpy(x, v, sizeof x);
  return g(x, 4);
}

int main(void) {
  for (double x = -1.3; x < 1.5; x += 0.7) {
    double want = fd_scalar(f, x);
    CHECK_CLOSE(want, __enzyme_autodiff((void *)f, x));
    CHECK_CLOSE(want, __enzyme_fwddiff((void *)f, x, 1.0));
  }
  const double x0[4] = {0.1, 0.5, -0.3, 1.2};
  double x[4], dx[4] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, 4);
  CHECK_GRADIENT(g_fd, 0, x0, 4, dx);
  return fd_report();
}
