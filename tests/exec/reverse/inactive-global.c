// A global registered inactive (`void *__enzyme_inactive_global[1] =
// {&trace}`): active values stored there (a trace of intermediate values)
// carry no derivative, in both modes, and the primal's stores still
// happen. It was refused as a store of active data into memory without a
// shadow.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

static double trace[4];
static long calls;
void *__enzyme_inactive_global[2] = {&trace, &calls};

__attribute__((noinline)) double f(const double *x) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    s += x[i] * x[i];
    trace[i] = sin(s);
  }
  calls++;
  return s;
}

int main(void) {
  double x[4] = {0.5, -1.5, 2.0, 0.25}, dx[4] = {0};
  __enzyme_autodiff_void((void *)f, enzyme_dup, x, dx);
  for (int i = 0; i < 4; ++i)
    CHECK_CLOSE(2 * x[i], dx[i]);
  CHECK_CLOSE(sin(0.25 + 2.25 + 4 + 0.0625), trace[3]);
  for (int i = 0; i < 4; ++i) {
    double t[4] = {0};
    t[i] = 1;
    CHECK_CLOSE(2 * x[i], __enzyme_fwddiff((void *)f, enzyme_dup, x, t));
  }
  CHECK_CLOSE(5.0, (double)calls); /* once per derivative call */
  return fd_report();
}
