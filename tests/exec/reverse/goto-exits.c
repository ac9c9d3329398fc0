// A `goto` out of two loops to the function's end, which -O1 turns into a
// loop exit reached twice from one block (a switch whose two cases go to
// the exit): the count of that loop's trips at the exit needs one entry
// per edge. Before, the derivative was invalid IR ("PHINode should have
// one entry for each predecessor"; a helper hunt), with a fixed array, a
// VLA or malloc'd scratch alike. Against central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

double fixed(const double *x, int n) {
  double s = 0;
  int it = 0;
again:
  {
    double t[16];
    for (int i = 0; i < n + it; i++)
      t[i] = x[i % n] * x[(i + it) % n];
    for (int i = 0; i < n + it; i++)
      if ((s += t[i]) > 3.0)
        goto out;
    if (++it < 5)
      goto again;
  }
out:
  return s * s;
}

double variable(const double *x, int n) {
  double s = 0;
  int it = 0;
again:
  {
    double t[n + it];
    for (int i = 0; i < n + it; i++)
      t[i] = x[i % n] * x[(i + it) % n];
    for (int i = 0; i < n + it; i++)
      if ((s += t[i]) > 3.0)
        goto out;
    if (++it < 5)
      goto again;
  }
out:
  return s * s;
}

static double fixed_fd(const double *x, void *c) { return fixed(x, 3); }
static double variable_fd(const double *x, void *c) { return variable(x, 3); }

int main(void) {
  double x[3] = {0.3, -0.7, 1.1}, dx[3] = {0}, dy[3] = {0};
  __enzyme_autodiff((void *)fixed, enzyme_dup, x, dx, enzyme_const, 3);
  CHECK_GRADIENT(fixed_fd, 0, x, 3, dx);
  __enzyme_autodiff((void *)variable, enzyme_dup, x, dy, enzyme_const, 3);
  CHECK_GRADIENT(variable_fd, 0, x, 3, dy);
  return fd_report();
}
