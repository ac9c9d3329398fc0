// lgamma and tgamma, whose derivatives need digamma (emitted into the
// module, since libm has none), in double and float, also at negative
// non-integer arguments (reflection).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>

double f(double x) { return lgamma(x) + tgamma(x * 0.5) * 0.1; }
float g(float x) { return lgammaf(x) * x; }
static double g_ref(double x) { return lgamma(x) * x; }

int main(void) {
  double xs[] = {0.3, 1.7, 4.2, 9.5, -0.6, -2.3};
  for (int i = 0; i < 6; ++i) {
    double x = xs[i];
    CHECK_CLOSE(fd_scalar(f, x), __enzyme_fwddiff((void *)f, x, 1.0));
    CHECK_CLOSE_F(fd_scalar(g_ref, x),
                  __enzyme_fwddiff_float((void *)g, (float)x, 1.0f));
  }
  return fd_report();
}
