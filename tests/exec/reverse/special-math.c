// libm calls beyond the rule table in reverse mode, as forward mode has
// them: lgamma and tgamma (through the emitted digamma), frexp (mantissa
// derivative 2^-e), modf (fraction derivative 1, integral part 0) and
// sincos, and their float forms; with -ffast-math sincos and modf become
// the llvm.sincos and llvm.modf intrinsics. Reverse gradients and forward
// tangents against central differences.
// RUN: sh %testlib/run-c.sh %s -D_GNU_SOURCE
// RUN: sh %testlib/run-c.sh %s -D_GNU_SOURCE -ffast-math
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

__attribute__((noinline)) double r_lgamma(double x) { return lgamma(x) * x; }
__attribute__((noinline)) double r_tgamma(double x) { return tgamma(x) + x; }
__attribute__((noinline)) double r_frexp(double x) {
  int e;
  double m = frexp(x, &e);
  return m * m * e;
}
__attribute__((noinline)) double r_modf(double x) {
  double ip;
  double fr = modf(3 * x, &ip);
  return fr * ip + fr * fr;
}
__attribute__((noinline)) double r_sincos(double x) {
  double s, c;
  sincos(x, &s, &c);
  return s * c + s;
}
__attribute__((noinline)) double r_floats(double xd) {
  float x = (float)xd, ip, s, c;
  int e;
  float v = lgammaf(x) + tgammaf(x) + frexpf(x, &e) * e + modff(2 * x, &ip);
  sincosf(x, &s, &c);
  return (double)(v + s * c);
}

#define CHECK_FN(fn, x, rtol)                                                \
  do {                                                                       \
    double h = 1e-5 * fabs(x), fd = (fn((x) + h) - fn((x) - h)) / (2 * h);   \
    double r = __enzyme_autodiff((void *)fn, x);                             \
    double t = __enzyme_fwddiff((void *)fn, x, 1.0);                         \
    fd_check_close_at(__FILE__, __LINE__, #fn " reverse", fd, r, rtol,       \
                      1e-9);                                                 \
    fd_check_close_at(__FILE__, __LINE__, #fn " forward", fd, t, rtol,       \
                      1e-9);                                                 \
  } while (0)

int main(void) {
  double xs[3] = {0.37, 1.7, 4.6};
  for (int k = 0; k < 3; k++) {
    CHECK_FN(r_lgamma, xs[k], 1e-6);
    CHECK_FN(r_tgamma, xs[k], 1e-6);
    CHECK_FN(r_frexp, xs[k], 1e-6);
    CHECK_FN(r_modf, xs[k], 1e-6);
    CHECK_FN(r_sincos, xs[k], 1e-6);
    CHECK_FN(r_floats, xs[k], 2e-2);
  }
  return fd_report();
}
