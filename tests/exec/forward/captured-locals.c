// A local whose address is kept in a struct (a C++ lambda's capture by
// reference, a context struct), starting from a constant, and a callee
// that writes active values through the struct's pointer: the local holds
// active data. Forward mode at -O0 (where the callee stays a call) refused
// it ("the destination has no shadow memory"): the analysis did not see
// that the callee can reach the local through the struct. Both modes,
// against central differences, at -O0..-O3.
//
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

struct Cap {
  double *acc;
  double *sum;
};

void mul(const struct Cap *c, double v) {
  *c->acc *= v;
  *c->sum += *c->acc;
}

double f(const double *x, int n) {
  double acc = 1.0, sum = 0.0;
  struct Cap c = {&acc, &sum};
  for (int i = 0; i < n; ++i)
    mul(&c, x[i]);
  return acc + 0.5 * sum;
}

static double f_at(const double *x, void *ctx) { return f(x, *(int *)ctx); }

int main(void) {
  enum { N = 3 };
  double x[N] = {0.3, -0.4, 1.2};
  int n = N;
  double grad[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, grad, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double dir[N] = {0};
    dir[i] = 1.0;
    double fd = fd_dir(f_at, &n, x, dir, N);
    CHECK_CLOSE(fd, grad[i]);
    CHECK_CLOSE(fd, __enzyme_fwddiff((void *)f, enzyme_dup, x, dir,
                                     enzyme_const, N));
  }
  return fd_report();
}
