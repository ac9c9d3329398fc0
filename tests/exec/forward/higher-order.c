// Higher-order forward derivatives: a function that asks for a derivative
// is itself differentiated (forward over forward, and once more).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>

double g(double x) { return sin(x) * x + exp(0.3 * x); }
double dg(double x) { return __enzyme_fwddiff((void *)g, x, 1.0); }
double ddg(double x) { return __enzyme_fwddiff((void *)dg, x, 1.0); }

double h(const double *p, double x) { return p[0] * x * x * x + p[1] * x; }
double dh(const double *p, double x) {
  return __enzyme_fwddiff((void *)h, enzyme_const, p, x, 1.0);
}

int main(void) {
  double xs[] = {0.8, -1.1, 2.3};
  for (int i = 0; i < 3; ++i) {
    double x = xs[i];
    double g2 = 2 * cos(x) - x * sin(x) + 0.09 * exp(0.3 * x);
    double g3 = -3 * sin(x) - x * cos(x) + 0.027 * exp(0.3 * x);
    CHECK_CLOSE(g2, __enzyme_fwddiff((void *)dg, x, 1.0));
    CHECK_CLOSE(g3, __enzyme_fwddiff((void *)ddg, x, 1.0));
    CHECK_CLOSE(fd_scalar(dg, x), __enzyme_fwddiff((void *)dg, x, 1.0));
    double p[2] = {1.5, -2.0};
    CHECK_CLOSE(6 * p[0] * x,
                __enzyme_fwddiff((void *)dh, enzyme_const, p, x, 1.0));
  }
  return fd_report();
}
