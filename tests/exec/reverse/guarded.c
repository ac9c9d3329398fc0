// Values loaded on one path into a block (`v = i < n ? a[i] : 0`, a tile
// filled within bounds) meet in a phi: the reverse sweep reads the load
// again on the path the forward sweep took (CarriedLoads.cpp, phis of
// guarded loads) instead of caching the phi. Also a phi of two loads from
// two arms, of a load and a computed value, a guard on data, and the same
// inside a loop whose iterations take different paths. Checked: gradients
// against finite differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

enum { N = 12 };

/* Neighbours with zero padding beyond the ends. */
double padded(const double *a, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i) {
    double left = i > 0 ? a[i - 1] : 0.0;
    double right = i + 1 < n ? a[i + 1] : 0.0;
    r += a[i] * left * right + left * left;
  }
  return r;
}

/* Two arms loading from two arrays. */
double choose(const double *a, const double *b, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i) {
    double v;
    if (i % 3 == 0)
      v = a[i];
    else
      v = b[n - 1 - i] * 2.0;
    r += v * v * a[(i + 1) % n];
  }
  return r;
}

/* A guard on the data itself. */
double clipped(const double *a, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i) {
    double v = a[i] > 0.52 ? a[(i + 5) % n] : 0.25;
    r += sin(v) * a[i];
  }
  return r;
}

static double padded_F(const double *x, void *c) { return padded(x, N); }
static double choose_F(const double *x, void *c) {
  return choose(x, x + N, N);
}
static double clipped_F(const double *x, void *c) { return clipped(x, N); }

int main(void) {
  double x0[2 * N];
  for (int i = 0; i < 2 * N; ++i)
    x0[i] = 0.3 + 0.045 * i + (i % 4 == 1 ? 0.11 : -0.07);
  {
    double dx[2 * N] = {0};
    __enzyme_autodiff((void *)padded, enzyme_dup, x0, dx, enzyme_const, N);
    CHECK_GRADIENT(padded_F, 0, x0, N, dx);
  }
  {
    double dx[2 * N] = {0};
    __enzyme_autodiff((void *)choose, enzyme_dup, x0, dx, enzyme_dup, x0 + N,
                      dx + N, enzyme_const, N);
    CHECK_GRADIENT(choose_F, 0, x0, 2 * N, dx);
  }
  {
    double dx[2 * N] = {0};
    __enzyme_autodiff((void *)clipped, enzyme_dup, x0, dx, enzyme_const, N);
    CHECK_GRADIENT(clipped_F, 0, x0, N, dx);
  }
  return fd_report();
}
