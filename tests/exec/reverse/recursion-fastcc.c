// A static recursive function: at -O1 and above GlobalOpt gives it the
// fastcc convention, and its reverse function must be called with it (a
// call with the C convention is undefined behaviour, which the optimizer
// turned into `unreachable`: a crash or a silent fall-through).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
__attribute__((noinline)) static double rec(const double *x, int n) {
  if (n == 0) return 0;
  return x[0] * x[0] * (1 + rec(x + 1, n - 1));
}
double run(const double *x, int n) { return rec(x, n); }
static double run_fd(const double *x, void *c) { return run(x, *(int *)c); }
int main(void) {
  double x[5] = {0.3, 0.4, -0.5, 0.6, 0.7}, dx[5] = {0};
  int n = 5;
  __enzyme_autodiff((void *)run, enzyme_dup, x, dx, enzyme_const, n);
  CHECK_GRADIENT(run_fd, &n, x, 5, dx);
  return fd_report();
}
