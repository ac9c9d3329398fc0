// Variable-length arrays declared inside loops, holding active data, in
// reverse mode: a row's temporaries in each iteration of a loop with a
// run-time trip count, a loop left early by a return from inside the
// array's scope (clang unrolls it at -O2, joining the saved stack
// positions of its paths in phis), an inner loop's VLA after an outer
// one, a 2-D VLA and a second VLA in one scope. They become heap temporaries freed
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
/* An inner loop with its own VLA after an outer VLA: unrolled at -O2, the
   inner iterations reuse one save, and the last array's scope is the
   outer one (helper hunt). */
double nested(const double *x, int n) {
  double s = 0;
  for (int a = 0; a < n; a++) {
    double u[n];
    for (int i = 0; i < n; i++)
      u[i] = x[i] * x[a];
    for (int b = 0; b < 2; b++) {
      double v[a + 1];
      for (int i = 0; i <= a; i++)
        v[i] = u[i] * x[(i + b) % n];
      s += v[a] * u[b];
    }
  }
  return s;
}
/* A 2-D VLA, and two VLAs in one scope, in a loop. */
double two_d(const double *x, int n) {
  double s = 0;
  for (int it = 0; it < 2; it++) {
    double A[n][n];
    double b[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++)
        A[i][j] = x[i] * x[j];
      b[i] = A[i][i] * x[i];
    }
    s += A[1][0] * A[0][1] * (it + 1) + b[it];
  }
  return s;
}
static int N, M;
static double nested_fd(const double *x, void *ctx) { return nested(x, 3); }
static double two_d_fd(const double *x, void *ctx) { return two_d(x, 2); }
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
  double z[3] = {0.4, -0.9, 1.2}, gz[3] = {0};
  __enzyme_autodiff((void *)nested, enzyme_dup, z, gz, enzyme_const, 3);
  for (int k = 0; k < 3; ++k) {
    double dz[3] = {k == 0, k == 1, k == 2};
    CHECK_CLOSE(fd_dir(nested_fd, 0, z, dz, 3), gz[k]);
  }
  double w[2] = {0.3, -0.7}, gw[2] = {0};
  __enzyme_autodiff((void *)two_d, enzyme_dup, w, gw, enzyme_const, 2);
  for (int k = 0; k < 2; ++k) {
    double dw[2] = {k == 0, k == 1};
    CHECK_CLOSE(fd_dir(two_d_fd, 0, w, dw, 2), gw[k]);
  }
  return fd_report();
}
