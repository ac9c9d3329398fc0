// libm functions with output pointers or integer results: frexp, modf,
// sincos (a GNU extension), fdim, and lrint/lround/ilogb, whose integer
// results carry no derivative.
// RUN: sh %testlib/run-c.sh %s

#define _GNU_SOURCE
#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>

double f_frexp(double x) {
  int e;
  return frexp(x * 3.7, &e) + e;
}
double f_modf(double x) {
  double ip;
  double fr = modf(x * 5.3, &ip);
  return fr * fr + ip;
}
double f_sincos(double x) {
  double s, c;
  sincos(x * 1.3, &s, &c);
  return s * c + s;
}
double f_ints(double x) {
  return (double)lrint(x * 3) * x + (double)lround(x * 7) +
         (double)ilogb(x * 100) * x * x;
}
double f_fdim(double x) { return fdim(x * x, 0.3) + fdim(0.1, x); }

static double (*g)(double);
static double g_fd(const double *v, void *c) {
  (void)c;
  return g(v[0]);
}

#define CHECK_FN(F, X)                                                         \
  do {                                                                         \
    double x_ = (X), one_ = 1;                                                 \
    g = F;                                                                     \
    CHECK_CLOSE(fd_dir(g_fd, 0, &x_, &one_, 1),                                \
                __enzyme_fwddiff((void *)F, x_, 1.0));                         \
  } while (0)

int main(void) {
  double xs[] = {0.8123, 1.37, -0.61};
  for (int j = 0; j < 3; ++j) {
    CHECK_FN(f_frexp, xs[j]);
    CHECK_FN(f_modf, xs[j]);
    CHECK_FN(f_sincos, xs[j]);
    CHECK_FN(f_ints, xs[j]);
    CHECK_FN(f_fdim, xs[j]);
  }
  return fd_report();
}
