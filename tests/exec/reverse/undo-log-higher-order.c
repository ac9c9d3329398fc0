// Higher order over a function whose stores the undo log would undo:
// in-place sweeps (three loads per store). The gradient inside another
// request is made without the log (an outer reverse derivative cannot
// differentiate the log's integer copies of floating-point bytes): reverse
// over reverse (the gradient of one gradient component) and forward over
// reverse (Hessian columns), against central differences of the gradient.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <string.h>

enum { N = 8 };

double sweeps(double *x, int n) {
  for (int s = 0; s < 3; ++s)
    for (int i = 1; i + 1 < n; ++i)
      x[i] = x[i] * 0.5 + 0.3 * x[i - 1] * x[i + 1] + 0.1 * sin(x[i]);
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * x[i];
  return r;
}

void grad(const double *x, double *g, int n) {
  double y[N], dy[N] = {0};
  memcpy(y, x, sizeof y);
  __enzyme_autodiff((void *)sweeps, enzyme_dup, y, dy, enzyme_const, n);
  memcpy(g, dy, sizeof dy);
}

double grad_k(const double *x, int n, int k) {
  double g[N];
  grad(x, g, n);
  return g[k];
}

struct ctx { int k; };
static double grad_k_F(const double *x, void *c) {
  return grad_k(x, N, ((struct ctx *)c)->k);
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.3 + 0.1 * i;
  for (int k = 0; k < N; k += 3) {
    double row[N] = {0};
    __enzyme_autodiff((void *)grad_k, enzyme_dup, x, row, enzyme_const, N,
                      enzyme_const, k);
    struct ctx c = {k};
    CHECK_GRADIENT(grad_k_F, &c, x, N, row);
  }
  for (int k = 0; k < N; k += 3) {
    double v[N] = {0}, g[N], column[N] = {0};
    v[k] = 1;
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, column,
                     enzyme_const, N);
    for (int j = 0; j < N; ++j) {
      struct ctx c = {j};
      CHECK_CLOSE(fd_dir(grad_k_F, &c, x, v, N), column[j]);
    }
  }
  return fd_report();
}
