// Library functions with integer results (ilogb, lround, ...) on active
// values: the call is replayed, nothing flows back through it.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
double f_ilogb(double x) { return x * x * ilogb(x); }
double f_lround(double x) { return x * lround(x); }
double f_fwd(double x) { return x * lround(x) + x * ilogb(x); }
int main(void) {
  CHECK_CLOSE(2 * 2.7 * 1, __enzyme_autodiff((void *)f_ilogb, 2.7));
  CHECK_CLOSE(3.0, __enzyme_autodiff((void *)f_lround, 2.7));
  CHECK_CLOSE(3.0 + 1, __enzyme_fwddiff((void *)f_fwd, 2.7, 1.0));
  return fd_report();
}
