// Both arms of a branch computed and one kept: with -fno-math-errno the
// optimizer speculates math calls into selects (`x > 0 ? log(x) : ...`
// computes log(-1) = NaN and discards it), and Numba's np.cbrt computes
// pow(-x, 1/3) for every x. The discarded arm's adjoint is exactly zero,
// but its partial is NaN, and 0 * NaN poisoned the gradient (reverse mode
// gave NaN at -O1..-O3; Numba-user hunt). Such arms' adjoints are now
// strong zeros. Gradients against finite differences, both modes.
// RUN: sh %testlib/run-c.sh %s -fno-math-errno
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

double log_or_line(double x) { return x > 0 ? log(x) : 0.5 * x; }
double signed_cbrt(double x) {
  return x < 0 ? -pow(-x, 1.0 / 3) : pow(x, 1.0 / 3);
}
double scaled_root(const double *v) {
  double x = v[0], c = v[1];
  return x > 1 ? c * sqrt(x - 1) : c * x;
}
static double scaled_root_fd(const double *v, void *ctx) {
  (void)ctx;
  return scaled_root(v);
}

int main(void) {
  const double points[3] = {-1.5, 0.75, 2.0};
  for (int k = 0; k < 3; k++) {
    double x = points[k];
    CHECK_CLOSE(fd_scalar(log_or_line, x),
                __enzyme_autodiff((void *)log_or_line, x));
    CHECK_CLOSE(fd_scalar(signed_cbrt, x),
                __enzyme_autodiff((void *)signed_cbrt, x));
    CHECK_CLOSE(fd_scalar(log_or_line, x),
                __enzyme_fwddiff((void *)log_or_line, x, 1.0));
    double v[2] = {x, 1.25}, g[2] = {0, 0};
    __enzyme_autodiff((void *)scaled_root, enzyme_dup, v, g);
    CHECK_GRADIENT(scaled_root_fd, 0, v, 2, g);
  }
  return fd_report();
}
