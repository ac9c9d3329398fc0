// Reverse mode on loop-heavy numerical kernels: a first-order IIR filter
// (loop-carried recurrence) with a run-time length, a Horner evaluation
// whose coefficients are the active array, a triangular nested loop
// (Cholesky-like accumulation), a cumulative trapezoid integral, a Taylor
// series summed in a data-dependent while loop until the term is small,
// a while loop with break and continue over a sensor stream, Newton's
// method for a cubic root (checked against implicit differentiation),
// max-pooling through comparisons (argmax), a do-while and a loop with
// two exits. Checked against finite differences and analytic formulas.
// RUN: sh %testlib/run-c.sh %s
// RUN: env ADTEST_LEVELS=3 sh %testlib/run-c.sh %s -march=native

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double a, b; } two;
two __enzyme_autodiff_two(void *, ...);

/* y[t] = a y[t-1] + (1-a) x[t]; returns sum y^2 */
double iir(const double *x, int n, double a) {
  double y = 0, e = 0;
  for (int t = 0; t < n; ++t) {
    y = a * y + (1 - a) * x[t];
    e += y * y;
  }
  return e;
}
double horner(const double *c, int deg, double x) {
  double p = c[deg];
  for (int k = deg - 1; k >= 0; --k) p = p * x + c[k];
  return p;
}
/* sum_{i} (A[i][i] - sum_{j<i} A[i][j]^2 / (1 + i)) ^ 2, A row-major n x n */
double tri(const double *A, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double d = A[i * n + i];
    for (int j = 0; j < i; ++j) d -= A[i * n + j] * A[i * n + j] / (1 + i);
    s += d * d;
  }
  return s;
}
/* cumulative trapezoid integral of y over x (non-uniform grid), then the
 * mean of the running integral's squares */
double cumtrapz(const double *x, const double *y, int n) {
  double I = 0, acc = 0;
  for (int i = 1; i < n; ++i) {
    I += 0.5 * (x[i] - x[i - 1]) * (y[i] + y[i - 1]);
    acc += I * I;
  }
  return acc / (n - 1);
}
/* exp(x) by its Taylor series, summed until the term drops below tol */
double series_exp(double x) {
  double term = 1, s = 1;
  int k = 1;
  while (fabs(term) > 1e-17 * fabs(s)) {
    term *= x / k;
    s += term;
    ++k;
  }
  return s;
}
/* skip invalid readings (negative), stop at a sentinel above 100 */
double stream(const double *r, int n) {
  double s = 0, w = 1;
  int i = -1;
  while (++i < n) {
    if (r[i] < 0) continue;
    if (r[i] > 100) break;
    s += w * sqrt(r[i]);
    w *= 0.8;
    if (s > 1e6) break;
  }
  return s * s;
}
/* root of x^3 + p x - q = 0 by Newton */
double cubic_root(double p, double q) {
  double x = q > 0 ? 1.0 : -1.0;
  for (int it = 0; it < 100; ++it) {
    double f = x * x * x + p * x - q, df = 3 * x * x + p;
    double dx = f / df;
    x -= dx;
    if (fabs(dx) < 1e-15 * (1 + fabs(x))) break;
  }
  return x;
}
/* 1-D max-pooling with window w and stride w, then a weighted sum */
double maxpool(const double *x, int n, int w) {
  double s = 0;
  for (int b = 0; b + w <= n; b += w) {
    int arg = b;
    for (int i = b + 1; i < b + w; ++i)
      if (x[i] > x[arg]) arg = i;
    s += (1 + b) * x[arg] * x[arg];
  }
  return s;
}
/* do-while: halve until below 1, count halvings; also a product */
double dowhile(double x) {
  double p = 1;
  do {
    p *= x;
    x *= 0.5;
  } while (x > 1);
  return p + x;
}
/* two exits: find the first crossing of a level, interpolate */
double crossing(const double *y, int n, double level) {
  for (int i = 1; i < n; ++i) {
    if (y[i - 1] < level && y[i] >= level) {
      double t = (level - y[i - 1]) / (y[i] - y[i - 1]);
      return (i - 1) + t;
    }
  }
  return -1.0 + y[0] * 0;
}

/* Finite-difference gradient of F(x) over n components. */
typedef double (*vfn)(const double *, void *);
static void fd_grad(vfn F, void *ctx, const double *x, int n, double *g) {
  for (int i = 0; i < n; ++i) {
    double e[64] = {0};
    e[i] = 1;
    g[i] = fd_dir(F, ctx, x, e, n);
  }
}
#define CHECK_GRAD(F, ctx, x, n, got)                                          \
  do {                                                                         \
    double g_[64];                                                             \
    fd_grad(F, ctx, x, n, g_);                                                 \
    for (int i_ = 0; i_ < (n); ++i_) CHECK_CLOSE_TOL(g_[i_], (got)[i_], 1e-6, 1e-8); \
  } while (0)

struct ctx { int n, m; double a; const double *other; };
static double iir_F(const double *x, void *p) {
  struct ctx *c = p; return iir(x, c->n, c->a);
}
static double horner_F(const double *x, void *p) {
  struct ctx *c = p; return horner(x, c->n, c->a);
}
static double tri_F(const double *x, void *p) { struct ctx *c = p; return tri(x, c->n); }
static double trapz_x(const double *x, void *p) {
  struct ctx *c = p; return cumtrapz(x, c->other, c->n);
}
static double trapz_y(const double *y, void *p) {
  struct ctx *c = p; return cumtrapz(c->other, y, c->n);
}
static double stream_F(const double *x, void *p) { struct ctx *c = p; return stream(x, c->n); }
static double pool_F(const double *x, void *p) {
  struct ctx *c = p; return maxpool(x, c->n, c->m);
}
static double cross_F(const double *x, void *p) {
  struct ctx *c = p; return crossing(x, c->n, c->a);
}

int main(void) {
  double x[40], dx[40];
  for (int i = 0; i < 40; ++i) x[i] = 0.8 * sin(0.37 * i + 0.2) + 0.1 * cos(1.3 * i);

  /* IIR, run-time lengths; also the coefficient a as enzyme_out */
  for (int n = 0; n <= 40; n += 13) {
    struct ctx c = {n, 0, 0.85, 0};
    for (int i = 0; i < 40; ++i) dx[i] = 0;
    double da = __enzyme_autodiff((void *)iir, enzyme_dup, x, dx, enzyme_const, n, 0.85);
    CHECK_GRAD(iir_F, &c, x, n, dx);
    for (int i = n; i < 40; ++i) CHECK(dx[i] == 0);
    double h = 1e-6;
    CHECK_CLOSE_TOL((iir(x, n, 0.85 + h) - iir(x, n, 0.85 - h)) / (2 * h), da, 1e-6, 1e-8);
  }
  /* Horner: gradient wrt c is powers of x; wrt x is p'(x) */
  {
    double c[8] = {0.3, -1.2, 0.5, 2.0, -0.7, 0.1, 0.9, -0.25}, dc[8] = {0};
    double xv = 0.83;
    double dxv = __enzyme_autodiff((void *)horner, enzyme_dup, c, dc, enzyme_const, 7, xv);
    double pw = 1, dp = 0;
    for (int k = 0; k < 8; ++k) {
      CHECK_CLOSE(pw, dc[k]);
      if (k) dp += k * c[k] * pw / xv;
      pw *= xv;
    }
    CHECK_CLOSE(dp, dxv);
    struct ctx cc = {7, 0, xv, 0};
    CHECK_GRAD(horner_F, &cc, c, 8, dc);
  }
  /* triangular nested */
  for (int n = 1; n <= 6; n += 2) {
    struct ctx c = {n, 0, 0, 0};
    for (int i = 0; i < 40; ++i) dx[i] = 0;
    __enzyme_autodiff((void *)tri, enzyme_dup, x, dx, enzyme_const, n);
    CHECK_GRAD(tri_F, &c, x, n * n, dx);
  }
  /* trapezoid: both arrays active */
  {
    double g[12], yv[12], dg[12] = {0}, dy[12] = {0};
    for (int i = 0; i < 12; ++i) { g[i] = i * 0.3 + 0.05 * i * i; yv[i] = cos(g[i]) + 2; }
    __enzyme_autodiff((void *)cumtrapz, enzyme_dup, g, dg, enzyme_dup, yv, dy, enzyme_const, 12);
    struct ctx cx = {12, 0, 0, yv}, cy = {12, 0, 0, g};
    CHECK_GRAD(trapz_x, &cx, g, 12, dg);
    CHECK_GRAD(trapz_y, &cy, yv, 12, dy);
  }
  /* Taylor series in a while loop: d/dx exp(x) = exp(x) */
  for (double v = -2.5; v < 4; v += 1.3)
    CHECK_CLOSE_TOL(exp(v), __enzyme_autodiff((void *)series_exp, v), 1e-12, 1e-14);
  /* stream with continue/break */
  {
    double r[10] = {4, -1, 9, 2.25, -3, 16, 0.5, 200, 7, 8}, dr[10];
    for (int n = 3; n <= 10; n += 7) {
      for (int i = 0; i < 10; ++i) dr[i] = 0;
      __enzyme_autodiff((void *)stream, enzyme_dup, r, dr, enzyme_const, n);
      struct ctx c = {n, 0, 0, 0};
      CHECK_GRAD(stream_F, &c, r, n, dr);
      CHECK(dr[1] == 0 && dr[4] == 0);
      if (n == 10) CHECK(dr[7] == 0 && dr[8] == 0 && dr[9] == 0);
    }
  }
  /* Newton: implicit function theorem */
  static const double pq[][2] = {{1.5, 2.0}, {0.3, -4.1}, {2.0, 0.7}};
  for (int k = 0; k < 3; ++k) {
    double p = pq[k][0], q = pq[k][1], r = cubic_root(p, q);
    CHECK_CLOSE_TOL(0.0, r * r * r + p * r - q, 0, 1e-12);
    two g = __enzyme_autodiff_two((void *)cubic_root, p, q);
    double J = 3 * r * r + p;
    CHECK_CLOSE(-r / J, g.a);
    CHECK_CLOSE(1 / J, g.b);
  }
  /* max-pooling */
  for (int w = 2; w <= 5; ++w) {
    for (int i = 0; i < 40; ++i) dx[i] = 0;
    __enzyme_autodiff((void *)maxpool, enzyme_dup, x, dx, enzyme_const, 37, enzyme_const, w);
    double ex[40] = {0};
    for (int b = 0; b + w <= 37; b += w) {
      int arg = b;
      for (int i = b + 1; i < b + w; ++i) if (x[i] > x[arg]) arg = i;
      ex[arg] += 2 * (1 + b) * x[arg];
    }
    for (int i = 0; i < 40; ++i) CHECK_CLOSE(ex[i], dx[i]);
    struct ctx c = {37, w, 0, 0};
    CHECK_GRAD(pool_F, &c, x, 37, dx);
  }
  /* do-while: p = x * x/2 * x/4 ... */
  static const double dw[] = {0.7, 3.3, 9.1, 21.0};
  for (int k = 0; k < 4; ++k) {
    double v = dw[k], h = 1e-6 * v;
    CHECK_CLOSE_TOL((dowhile(v + h) - dowhile(v - h)) / (2 * h),
                    __enzyme_autodiff((void *)dowhile, v), 1e-6, 1e-9);
  }
  /* crossing: gradient wrt y and level */
  {
    double y[9] = {0.1, 0.3, 0.2, 0.45, 0.9, 1.4, 1.1, 0.6, 2.0}, dy[9] = {0};
    double dl = __enzyme_autodiff((void *)crossing, enzyme_dup, y, dy, enzyme_const, 9, 0.7);
    CHECK_CLOSE(1 / (0.9 - 0.45), dl);
    struct ctx c = {9, 0, 0.7, 0};
    CHECK_GRAD(cross_F, &c, y, 9, dy);
    double dy2[9] = {0};
    double dl2 = __enzyme_autodiff((void *)crossing, enzyme_dup, y, dy2, enzyme_const, 9, 5.0);
    CHECK(dl2 == 0);
    for (int i = 0; i < 9; ++i) CHECK(dy2[i] == 0);
  }
  return fd_report();
}
