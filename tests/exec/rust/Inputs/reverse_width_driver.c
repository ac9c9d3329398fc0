/* Calls the vector reverse derivatives of slices.rs (items in
 * reverse-width.specs): every lane is checked against analytic gradients
 * with that lane's seed and output shadow, and lanes differ so that a
 * mixed-up lane shows. `driver short` passes lane 1 a shadow shorter than
 * the primal: the lowering's run-time check must stop the program. */
#include "fdcheck.h"

#include <math.h>
#include <string.h>

typedef struct {
  double primal, d0, d1, d2;
} primal3;
typedef struct {
  double d0, d1;
} grads2;
double sum_sq(const double *x, long n);
double poly(const double *c, long n, double t);
double rw_sum_sq(const double *x, long n, double *dx0, long dn0, double *dx1,
                 long dn1, double dret0, double dret1);
primal3 rw_poly(const double *c, long n, double t, double dret0, double dret1,
                double dret2);
grads2 rw_scale(const double *x, long n, double *dx0, long dn0, double *dx1,
                long dn1, double *y, long m, double *dy0, long dm0,
                double *dy1, long dm1, double a);
void rw_normalize(const double *x, long n, double *dx0, long dn0, double *dx1,
                  long dn1, double *dx2, long dn2, double *out, long m,
                  double *do0, long dm0, double *do1, long dm1, double *do2,
                  long dm2);

enum { N = 6 };

int main(int argc, char **argv) {
  double x[N] = {0.3, -1.2, 2.5, 0.8, -0.4, 1.9};
  double dx0[N] = {0}, dx1[N] = {0};
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    rw_sum_sq(x, N, dx0, N, dx1, N - 1, 1.0, 1.0);
    printf("not stopped\n");
    return 0;
  }
  /* sum_sq: lane k's gradient is dret_k * 2x, added into its shadow. */
  for (int i = 0; i < N; ++i)
    dx1[i] = 0.5;
  CHECK_CLOSE(sum_sq(x, N), rw_sum_sq(x, N, dx0, N, dx1, N, 2.5, -1.0));
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(2.5 * 2 * x[i], dx0[i]);
    CHECK_CLOSE(0.5 - 2 * x[i], dx1[i]);
  }

  /* poly: three seeds, three gradients of t after the primal. */
  const double t = 0.7, h = 1e-5;
  double slope = (poly(x, N, t + h) - poly(x, N, t - h)) / (2 * h);
  primal3 p = rw_poly(x, N, t, 1.0, -1.5, 4.0);
  CHECK_CLOSE(poly(x, N, t), p.primal);
  CHECK_CLOSE_TOL(slope, p.d0, 1e-6, 1e-8);
  CHECK_CLOSE_TOL(-1.5 * slope, p.d1, 1e-6, 1e-8);
  CHECK_CLOSE_TOL(4.0 * slope, p.d2, 1e-6, 1e-8);

  /* scale: y = a sin(x) + x^2; lane k's output shadow is (k + 1) * (i + 1). */
  double y[N], sx0[N] = {0}, sx1[N] = {0}, dy0[N], dy1[N];
  double da[2] = {0, 0};
  for (int i = 0; i < N; ++i) {
    dy0[i] = 1.0 + i;
    dy1[i] = 2.0 * (1.0 + i);
    da[0] += dy0[i] * sin(x[i]);
    da[1] += dy1[i] * sin(x[i]);
  }
  grads2 g = rw_scale(x, N, sx0, N, sx1, N, y, N, dy0, N, dy1, N, 3.0);
  CHECK_CLOSE(da[0], g.d0);
  CHECK_CLOSE(da[1], g.d1);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(3.0 * sin(x[i]) + x[i] * x[i], y[i]);
    double dyi = 3.0 * cos(x[i]) + 2 * x[i];
    CHECK_CLOSE((1.0 + i) * dyi, sx0[i]);
    CHECK_CLOSE(2.0 * (1.0 + i) * dyi, sx1[i]);
    CHECK_CLOSE(0.0, dy0[i]);
    CHECK_CLOSE(0.0, dy1[i]);
  }

  /* normalize: lane k seeds out's shadow with e_k, so lane k's gradient
   * is row k of the Jacobian d(x/|x|)/dx = (I - u u^T) / |x|. */
  double out[N], nx[3][N] = {{0}}, no[3][N] = {{0}};
  for (int k = 0; k < 3; ++k)
    no[k][k] = 1.0;
  rw_normalize(x, N, nx[0], N, nx[1], N, nx[2], N, out, N, no[0], N, no[1],
               N, no[2], N);
  double norm = 0;
  for (int i = 0; i < N; ++i)
    norm += x[i] * x[i];
  norm = sqrt(norm);
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < N; ++i) {
      double u_k = x[k] / norm, u_i = x[i] / norm;
      CHECK_CLOSE(((i == k) - u_k * u_i) / norm, nx[k][i]);
      CHECK_CLOSE(0.0, no[k][i]);
    }
  return fd_report();
}
