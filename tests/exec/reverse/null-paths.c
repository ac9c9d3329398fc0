// Accesses through null (or a constant address in the first page, as
// `inttoptr (i64 8 to ptr)` after constant folding) on a path the program
// never takes: clang keeps them at -O0, folds them to constant addresses
// at -O1 and above. The primal access would fault before any derivative
// mattered, so both modes differentiate the function instead of refusing
// it (they did: "memory whose shadow is unknown"). An address computed
// from null with a run-time offset is an integer made a pointer and stays
// a diagnostic (tests/lit/diagnostics/null-offset-store.c). Gradients
// against finite differences, tangents against the analytic derivative.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double guarded(double *x, int k) {
  double *p = 0;
  if (k > 5) {
    p[1] = x[0] * 2;
    return p[0] * x[0];
  }
  return x[0] * x[0] + sin(x[1]);
}

static double guarded_fd(const double *x, void *c) {
  (void)c;
  return guarded((double *)x, 1);
}

int main(void) {
  double x[2] = {0.7, -0.4}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)guarded, enzyme_dup, x, dx, enzyme_const, 1);
  CHECK_GRADIENT(guarded_fd, 0, x, 2, dx);
  double tx[2] = {0.3, 1.2};
  double t = __enzyme_fwddiff((void *)guarded, enzyme_dup, x, tx, enzyme_const, 1);
  CHECK_CLOSE(2 * x[0] * tx[0] + cos(x[1]) * tx[1], t);
  return fd_report();
}
