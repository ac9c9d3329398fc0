// Requests in the arms of a branch or a switch: at -O1 and above clang
// merges them into one call whose function operand is a select of
// functions, a phi, or a load from a constant table of them (once "the
// first argument of __enzyme_autodiff must be a function"). The call is
// split back into one request per function. Reverse mode with two and with
// three functions, forward mode with two; against central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

__attribute__((noinline)) double f0(double *x) { return x[0] * x[0] * x[1]; }
__attribute__((noinline)) double f1(double *x) { return sin(x[0]) + x[1]; }
__attribute__((noinline)) double f2(double *x) { return exp(x[0] * x[1]); }
static double (*const fns[3])(double *) = {f0, f1, f2};

static void check(int k, const double *dx) {
  for (int i = 0; i < 2; i++) {
    double a[2] = {0.7, -0.4}, b[2] = {0.7, -0.4}, h = 1e-6;
    a[i] += h;
    b[i] -= h;
    CHECK_CLOSE((fns[k](a) - fns[k](b)) / (2 * h), dx[i]);
  }
}

int main(int argc, char **argv) {
  (void)argv;
  for (int k = 0; k < 2; ++k) {
    double x[2] = {0.7, -0.4}, dx[2] = {0, 0};
    if (k == (argc > 5))
      __enzyme_autodiff((void *)f0, enzyme_dup, x, dx);
    else
      __enzyme_autodiff((void *)f1, enzyme_dup, x, dx);
    check(k, dx);
  }
  for (int k = 0; k < 3; ++k) {
    double x[2] = {0.7, -0.4}, dx[2] = {0, 0};
    switch (k) {
    case 0: __enzyme_autodiff((void *)f0, enzyme_dup, x, dx); break;
    case 1: __enzyme_autodiff((void *)f1, enzyme_dup, x, dx); break;
    default: __enzyme_autodiff((void *)f2, enzyme_dup, x, dx); break;
    }
    check(k, dx);
  }
  for (int k = 0; k < 2; ++k) {
    double x[2] = {0.7, -0.4}, dx[2] = {0, 0}, t[2] = {1, 0};
    __enzyme_autodiff((void *)fns[k], enzyme_dup, x, dx);
    double d = k == 0 ? __enzyme_fwddiff((void *)f0, enzyme_dup, x, t)
                      : __enzyme_fwddiff((void *)f1, enzyme_dup, x, t);
    CHECK_CLOSE(dx[0], d);
  }
  return fd_report();
}
