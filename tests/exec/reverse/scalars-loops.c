// Reverse mode (__enzyme_autodiff) on scalar code and loops: default
// activities, several enzyme_out results (a double, a struct of two, three
// and four through sret), enzyme_primal_return, libm, branches and switch,
// loops over arrays with a run-time length, nested loops, recurrences,
// data-dependent while loops with break and continue, an early return,
// argmax through comparisons. Every gradient is checked against central
// finite differences.
// RUN: sh %testlib/run-c.sh %s
// RUN: sh %testlib/run-c.sh %s -march=native

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double a, b; } two;
typedef struct { double a, b, c; } three;
typedef struct { double a, b, c, d; } four;
two __enzyme_autodiff_two(void *, ...);
three __enzyme_autodiff_three(void *, ...);
four __enzyme_autodiff_four(void *, ...);

double poly(double x, double y) { return x * x * y + sin(x) * y + exp(y / 4); }
double mix3(double x, double y, double z) {
  return pow(x, 3) * log(y) + sqrt(z) * tanh(x * z) + atan2(y, z);
}
double mix4(double x, double y, double z, double w) {
  return fmax(x, y) * hypot(z, w) + cbrt(x + 10) / (1 + w * w);
}
double piecewise(double x, int k) {
  switch (k) {
  case 0: return x * x;
  case 1: return sin(x) * 3;
  case 2: return x > 1 ? log(x) : exp(x);
  default: return -x;
  }
}

/* Array functions: F(x, ctx) for finite differences. */
double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}
double recur(const double *x, int n) {
  double s = 1.0;
  for (int i = 0; i < n; ++i) s = sin(s) * x[i] + s;
  return s;
}
double nested(const double *a, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double row = 0;
    for (int j = 0; j <= i % m; ++j) row += a[i * m + j] * a[(i * m + j + 1) % (n * m)];
    s += row * row;
  }
  return s;
}
double skipper(const double *x, int n) {
  double s = 0;
  int i = 0;
  while (1) {
    if (i >= n) break;
    double v = x[i++];
    if (v < 0.5) continue;
    s = s * 0.9 + v * v;
    if (s > 40) break;
  }
  return s;
}
double early(const double *x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i) {
    p *= x[i];
    if (p > 30) return p * 2;
  }
  return p;
}
double argmax_val(const double *x, int n) {
  int best = 0;
  for (int i = 1; i < n; ++i) if (x[i] > x[best]) best = i;
  return x[best] * x[best] + x[0];
}
double newton_sqrt(const double *x, int n) {
  (void)n;
  double a = x[0], r = a;
  while (fabs(r * r - a) > 1e-12 * a) r = 0.5 * (r + a / r);
  return r;
}

typedef double (*arrfn)(const double *, int);
struct actx { arrfn f; int n; };
static double arr_eval(const double *v, void *p) {
  struct actx *c = (struct actx *)p;
  return c->f(v, c->n);
}
static double nested_eval(const double *v, void *p) { (void)p; return nested(v, 4, 3); }

/* The gradient of f at x (length n) against finite differences. */
static void check_gradient(arrfn f, const double *x, int n, const double *dx) {
  double work[16];
  struct actx c = {f, n};
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) work[j] = x[j];
    double h = fd_step(x[i], FD_H_REL);
    work[i] = x[i] + h; double fp = arr_eval(work, &c);
    work[i] = x[i] - h; double fm = arr_eval(work, &c);
    work[i] = x[i] + 2 * h; double fp2 = arr_eval(work, &c);
    work[i] = x[i] - 2 * h; double fm2 = arr_eval(work, &c);
    CHECK_CLOSE_TOL((fm2 - 8 * fm + 8 * fp - fp2) / (12 * h), dx[i], 1e-6, 1e-8);
  }
}
/* A request names its function directly (a macro, not a pointer). */
#define check_array(f, x, n)                                                   \
  do {                                                                         \
    double dx_[16] = {0};                                                      \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx_, enzyme_const, n);        \
    check_gradient(f, x, n, dx_);                                              \
  } while (0)

static double g_y = 2.0;
static double poly_x(double x) { return poly(x, g_y); }
static double piece_k;
static double piece_x(double x) { return piecewise(x, (int)piece_k); }

int main(void) {
  /* One out (y const): a double. */
  CHECK_CLOSE(fd_scalar(poly_x, 1.5),
              __enzyme_autodiff((void *)poly, 1.5, enzyme_const, 2.0));
  /* Two outs: {dx, dy}; with primal: {f, dx, dy} through sret. */
  two d2 = __enzyme_autodiff_two((void *)poly, 1.5, 2.0);
  CHECK_CLOSE(2 * 1.5 * 2.0 + cos(1.5) * 2.0, d2.a);
  CHECK_CLOSE(1.5 * 1.5 + sin(1.5) + exp(0.5) / 4, d2.b);
  three p2 = __enzyme_autodiff_three((void *)poly, enzyme_primal_return, 1.5, 2.0);
  CHECK_CLOSE(poly(1.5, 2.0), p2.a);
  CHECK_CLOSE(d2.a, p2.b);
  CHECK_CLOSE(d2.b, p2.c);
  three d3 = __enzyme_autodiff_three((void *)mix3, 0.7, 1.9, 2.3);
  double h = 1e-5;
  CHECK_CLOSE_TOL((mix3(0.7 + h, 1.9, 2.3) - mix3(0.7 - h, 1.9, 2.3)) / (2 * h), d3.a, 1e-6, 1e-8);
  CHECK_CLOSE_TOL((mix3(0.7, 1.9 + h, 2.3) - mix3(0.7, 1.9 - h, 2.3)) / (2 * h), d3.b, 1e-6, 1e-8);
  CHECK_CLOSE_TOL((mix3(0.7, 1.9, 2.3 + h) - mix3(0.7, 1.9, 2.3 - h)) / (2 * h), d3.c, 1e-6, 1e-8);
  four d4 = __enzyme_autodiff_four((void *)mix4, 0.7, 0.4, 1.3, -0.6);
  CHECK_CLOSE_TOL((mix4(0.7 + h, 0.4, 1.3, -0.6) - mix4(0.7 - h, 0.4, 1.3, -0.6)) / (2 * h), d4.a, 1e-6, 1e-8);
  CHECK_CLOSE(0.0, d4.b);
  CHECK_CLOSE_TOL((mix4(0.7, 0.4, 1.3 + h, -0.6) - mix4(0.7, 0.4, 1.3 - h, -0.6)) / (2 * h), d4.c, 1e-6, 1e-8);
  CHECK_CLOSE_TOL((mix4(0.7, 0.4, 1.3, -0.6 + h) - mix4(0.7, 0.4, 1.3, -0.6 - h)) / (2 * h), d4.d, 1e-6, 1e-8);
  for (int k = 0; k < 4; ++k)
    for (double x = 0.5; x < 2; x += 0.75) {
      piece_k = k;
      CHECK_CLOSE(fd_scalar(piece_x, x),
                  __enzyme_autodiff((void *)piecewise, x, enzyme_const, k));
    }

  double x[12] = {0.9, 1.3, 0.2, 1.7, 0.6, 1.1, 0.3, 1.9, 0.8, 1.4, 0.45, 1.2};
  double big[12] = {3, 4, 2, 1.5, 5, 1, 2, 3, 1, 2, 1, 2};
  for (int n = 0; n <= 12; n += 3) {
    check_array(sumsq, x, n);
    check_array(recur, x, n);
    check_array(skipper, x, n);
    check_array(skipper, big, n);
    check_array(early, big, n);
    if (n > 0) check_array(argmax_val, x, n);
  }
  double a[] = {4.0};
  check_array(newton_sqrt, a, 1);
  double dn[12] = {0}, work[12];
  __enzyme_autodiff((void *)nested, enzyme_dup, x, dn, enzyme_const, 4, enzyme_const, 3);
  for (int i = 0; i < 12; ++i) {
    for (int j = 0; j < 12; ++j) work[j] = x[j];
    work[i] += h; double fp = nested_eval(work, 0);
    work[i] -= 2 * h; double fm = nested_eval(work, 0);
    CHECK_CLOSE_TOL((fp - fm) / (2 * h), dn[i], 1e-6, 1e-8);
  }
  return fd_report();
}
