// Variable-length arrays declared inside loops, holding active data, in
// reverse mode: a row's temporaries in each iteration of a loop with a
// run-time trip count, and a loop left early by a return from inside the
// array's scope (clang unrolls it at -O2, joining the saved stack
// positions of its paths in phis). They become heap temporaries freed
// where their scope ends (once a diagnostic: "a dynamically sized stack
// allocation that holds active data"). Against central differences and
// an analytic gradient.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
/* A VLA inside a loop: each row's temporaries. */
double rows(const double *x, int n, int m) {
  double s = 0;
  for (int r = 0; r < m; ++r) {
    double t[n];
    for (int i = 0; i < n; ++i)
      t[i] = sin(x[i] * (r + 1));
    for (int i = 0; i < n; ++i)
      s += t[i] * t[(i + 1) % n];
  }
  return s;
}
/* A VLA in a loop with an early exit out of its scope. */
double early(const double *x, int n) {
  double s = 0;
  for (int r = 0; r < 4; ++r) {
    double t[n];
    for (int i = 0; i < n; ++i)
      t[i] = x[i] * x[i] + r;
    s += t[n - 1];
    if (s > 20.0)
      return s * t[0];
  }
  return s;
}
static int N, M;
static double rows_fd(const double *x, void *ctx) { return rows(x, N, M); }
int main(void) {
  double x[5] = {0.3, -0.7, 1.1, 0.45, -0.2}, g[5] = {0}, dx[5];
  N = 5; M = 3;
  __enzyme_autodiff((void *)rows, enzyme_dup, x, g, enzyme_const, 5, enzyme_const, 3);
  for (int k = 0; k < 5; ++k) {
    for (int j = 0; j < 5; ++j) dx[j] = j == k;
    CHECK_CLOSE(fd_dir(rows_fd, 0, x, dx, 5), g[k]);
  }
  double y[3] = {2.0, 1.5, 3.0}, gy[3] = {0};
  __enzyme_autodiff((void *)early, enzyme_dup, y, gy, enzyme_const, 3);
  /* r=0: s=9; r=1: s=9+10=19; r=2: s=19+11=30>20 -> return 30*(4+2)=180 */
  /* d/dy2: 3 * 2*3 * 6 = 108; d/dy0: s*2*y0 = 30*4 = 120 */
  CHECK_CLOSE(120.0, gy[0]);
  CHECK_CLOSE(0.0, gy[1]);
  CHECK_CLOSE(3 * 6.0 * 6.0, gy[2]);
  return fd_report();
}
