// Loop-carried values that hold a load of an earlier iteration (a sliding
// window kept in registers: lo = mid, mid = hi, hi = u[i + 1]): the reverse
// sweep reads them again from memory at the earlier iteration's address
// instead of caching them (CarriedLoads.cpp). Also a window of four, a
// window over a strided column, a loop that leaves early, the window inside
// an outer loop, and a window over memory the loop overwrites (cached; also
// when the undo log restores that memory, which is right only at the
// load's own iteration).
// Checked: gradients against finite differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

enum { N = 16 };

double window3(const double *u, double *out, int n) {
  double lo = u[0], mid = u[1], r = 0;
  for (int i = 1; i + 1 < n; ++i) {
    double hi = u[i + 1];
    double v = mid + 0.2 * (lo - 2 * mid + hi) + 0.1 * mid * mid * lo;
    out[i] = v;
    r += v * v * hi;
    lo = mid;
    mid = hi;
  }
  return r;
}

double window4(const double *u, int n) {
  double a = u[0], b = u[1], c = u[2], r = 0;
  for (int i = 3; i < n; ++i) {
    double d = u[i];
    r += sin(a) * b + c * d * a - 0.3 * b * c;
    a = b;
    b = c;
    c = d;
  }
  return r;
}

/* Every fourth element, a column of a 4-wide matrix. */
double column(const double *u, int rows) {
  double prev = u[1], r = 0;
  for (int i = 1; i < rows; ++i) {
    double cur = u[4 * i + 1];
    r += exp(0.1 * prev) * cur * cur;
    prev = cur;
  }
  return r;
}

double until(const double *u, int n) {
  double prev = u[0], r = 0;
  for (int i = 1; i < n; ++i) {
    double cur = u[i];
    if (prev * cur > 1.2)
      break;
    r += prev * cur + cos(prev);
    prev = cur;
  }
  return r;
}

double nested(const double *u, int reps, int n) {
  double r = 0;
  for (int k = 0; k < reps; ++k) {
    double prev = u[k];
    for (int i = k + 1; i < n; ++i) {
      double cur = u[i];
      r += prev * cur * (k + 1) + 0.01 * r * prev;
      prev = cur;
    }
  }
  return r;
}

/* The window reads memory the loop writes: the carried values stay cached. */
double overwritten(double *u, int n) {
  double prev = u[0], r = 0;
  for (int i = 1; i < n; ++i) {
    double cur = u[i];
    u[i - 1] = prev * cur;
    r += prev * cur * cur;
    prev = cur;
  }
  return r;
}

/* The window's memory is overwritten before the carried value's use: the
 * carried value must not be read from memory at the later iteration (it is
 * cached; CarriedLoads.cpp also refuses loads read again only because the
 * reverse sweep undoes the stores that change them). */
double overwritten_before_use(double *u, int n) {
  double prev = u[0], r = 0;
  for (int i = 1; i + 1 < n; ++i) {
    double cur = u[i], next = u[i + 1];
    r += sin(cur) * next;
    u[i - 1] = 0.5 * cur + next;
    r += prev * prev * (i % 3 + 1);
    prev = cur;
  }
  return r;
}

static double window3_F(const double *x, void *c) {
  double out[N];
  return window3(x, out, N);
}
static double window4_F(const double *x, void *c) { return window4(x, N); }
static double column_F(const double *x, void *c) { return column(x, N / 4); }
static double until_F(const double *x, void *c) { return until(x, N); }
static double nested_F(const double *x, void *c) { return nested(x, 3, N); }
static double overwritten_F(const double *x, void *c) {
  double y[N];
  for (int i = 0; i < N; ++i)
    y[i] = x[i];
  return overwritten(y, N);
}

static double overwritten_before_use_F(const double *x, void *c) {
  double y[N];
  for (int i = 0; i < N; ++i)
    y[i] = x[i];
  return overwritten_before_use(y, N);
}

int main(void) {
  double x0[N];
  for (int i = 0; i < N; ++i)
    x0[i] = 0.35 + 0.04 * i + (i % 3 == 0 ? 0.2 : -0.1);
  {
    double dx[N] = {0}, out[N], dout[N] = {0};
    __enzyme_autodiff((void *)window3, enzyme_dup, x0, dx, enzyme_dup, out,
                      dout, enzyme_const, N);
    CHECK_GRADIENT(window3_F, 0, x0, N, dx);
  }
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)window4, enzyme_dup, x0, dx, enzyme_const, N);
    CHECK_GRADIENT(window4_F, 0, x0, N, dx);
  }
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)column, enzyme_dup, x0, dx, enzyme_const, N / 4);
    CHECK_GRADIENT(column_F, 0, x0, N, dx);
  }
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)until, enzyme_dup, x0, dx, enzyme_const, N);
    CHECK_GRADIENT(until_F, 0, x0, N, dx);
  }
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)nested, enzyme_dup, x0, dx, enzyme_const, 3,
                      enzyme_const, N);
    CHECK_GRADIENT(nested_F, 0, x0, N, dx);
  }
  {
    double x[N], dx[N] = {0};
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    __enzyme_autodiff((void *)overwritten, enzyme_dup, x, dx, enzyme_const, N);
    CHECK_GRADIENT(overwritten_F, 0, x0, N, dx);
  }
  {
    double x[N], dx[N] = {0};
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    __enzyme_autodiff((void *)overwritten_before_use, enzyme_dup, x, dx,
                      enzyme_const, N);
    CHECK_GRADIENT(overwritten_before_use_F, 0, x0, N, dx);
  }
  return fd_report();
}
