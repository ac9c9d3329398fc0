/* Calls the reverse derivatives of slices.rs (items in reverse.specs) and
 * checks them against analytic formulas and finite differences of the Rust
 * primal, with the seed dret honoured and the shadow of an overwritten
 * output zeroed. `driver short` passes a shadow shorter than the primal:
 * the lowering's run-time check must stop the program. */
#include "fdcheck.h"

#include <string.h>

typedef struct {
  double primal, d;
} pair;
double sum_sq(const double *x, long n);
double poly(const double *c, long n, double t);
double r_sum_sq(const double *x, long n, double *dx, long dn, double dret);
pair r_poly(const double *c, long n, double t, double dret);
double r_scale(const double *x, long n, double *dx, long dn, double *y,
               long m, double *dy, long dm, double a);
double r_enum(const double *x, long n, double *dx, long dn, double dret);

int main(int argc, char **argv) {
  enum { N = 7 };
  double x[N] = {0.3, -1.2, 2.5, 0.8, -0.4, 1.9, 0.05}, dx[N] = {0};
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    r_sum_sq(x, N, dx, N - 2, 1.0);
    printf("not stopped\n");
    return 0;
  }
  CHECK_CLOSE(sum_sq(x, N), r_sum_sq(x, N, dx, N, 2.5));
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(2.5 * 2 * x[i], dx[i]);

  pair p = r_poly(x, N, 0.7, -1.5);
  double h = 1e-5;
  CHECK_CLOSE(poly(x, N, 0.7), p.primal);
  CHECK_CLOSE_TOL(-1.5 * (poly(x, N, 0.7 + h) - poly(x, N, 0.7 - h)) / (2 * h),
                  p.d, 1e-6, 1e-8);

  double y[N], dy[N], dx2[N] = {0}, da_expect = 0;
  for (int i = 0; i < N; ++i) {
    dy[i] = 1.0 + i;
    da_expect += dy[i] * sin(x[i]);
  }
  double da = r_scale(x, N, dx2, N, y, N, dy, N, 3.0);
  CHECK_CLOSE(da_expect, da);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(3.0 * sin(x[i]) + x[i] * x[i], y[i]);
    CHECK_CLOSE((1.0 + i) * (3.0 * cos(x[i]) + 2 * x[i]), dx2[i]);
    CHECK_CLOSE(0.0, dy[i]);
  }

  /* enumerate(): the iterator state holds the slice's pointer. */
  double de[N];
  for (int i = 0; i < N; ++i) de[i] = 0.25;
  r_enum(x, N, de, N, 2.0);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(0.25 + 2.0 * (i + 1) * 2 * x[i], de[i]);
  return fd_report();
}
