// An inactive recursive helper (binomial coefficients) called from an
// active loop stays a call instead of being inlined into itself.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
long binom(int n, int k) { return k == 0 || k == n ? 1 : binom(n - 1, k - 1) + binom(n - 1, k); }
double bernstein(double x, const double *c, int n) {
  double s = 0;
  for (int k = 0; k <= n; ++k) s += c[k] * binom(n, k) * pow(x, k) * pow(1 - x, n - k);
  return s;
}
static const double C[7] = {0.5, -1, 2, 0.25, 1.5, -0.5, 1};
static double bern_x(double x) { return bernstein(x, C, 6); }
int main(void) {
  CHECK_CLOSE(fd_scalar(bern_x, 0.3),
              __enzyme_autodiff((void *)bernstein, 0.3, enzyme_const, C, enzyme_const, 6));
  return fd_report();
}
