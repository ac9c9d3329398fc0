// C99 complex arithmetic: products and quotients (__muldc3, __divdc3 at -O0,
// inline at higher levels), cexp, clog, csqrt, cabs, creal, cimag, conj.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <complex.h>
#include <math.h>

double f(double x) {
  double complex z = x + 2.0 * I * (x * x);
  double complex w = z * z / (1.0 + z);
  return creal(cexp(w)) + cabs(w) + cimag(csqrt(z) + clog(z)) -
         creal(conj(z) * z);
}

double g(double x, double y) {
  double complex a = x + I * y, b = cexp(a / (y + I * x));
  return cabs(b * a) + carg(a) + cimag(b) + creal(csin(a) * ccos(b));
}

static double g_fd(const double *v, void *c) {
  (void)c;
  return g(v[0], v[1]);
}

int main(void) {
  double xs[] = {0.7, -0.4, 1.3};
  for (int i = 0; i < 3; ++i) {
    CHECK_CLOSE(fd_scalar(f, xs[i]), __enzyme_fwddiff((void *)f, xs[i], 1.0));
    double v[2] = {xs[i], 0.5 - xs[i]}, d[2] = {1.0, -0.25};
    CHECK_CLOSE(fd_dir(g_fd, 0, v, d, 2),
                __enzyme_fwddiff((void *)g, v[0], d[0], v[1], d[1]));
  }
  return fd_report();
}
