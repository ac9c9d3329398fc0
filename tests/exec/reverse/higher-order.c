// Higher-order derivatives by nesting requests: forward over reverse (a
// Hessian-vector product: __enzyme_fwddiff of a function that calls
// __enzyme_autodiff, over a loop whose values the reverse sweep keeps on a
// loop tape), reverse over forward (the gradient of a directional
// derivative), reverse over reverse (the gradient of one gradient
// component), and a third derivative (forward over forward over reverse).
// Checked against analytic Hessians and third derivatives, and finite
// differences of the gradient.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

enum { N = 4 };

/* f(x) = sum_i sin(x_i) * x_{i+1} + x_i^2 x_{i+1}^2 / 4, cyclic. */
double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double a = x[i], b = x[(i + 1) % n];
    s += sin(a) * b + 0.25 * a * a * b * b;
  }
  return s;
}

/* The analytic Hessian of f. */
static void hessian(const double *x, double h[N][N]) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) h[i][j] = 0;
  for (int i = 0; i < N; ++i) {
    int j = (i + 1) % N;
    double a = x[i], b = x[j];
    h[i][i] += -sin(a) * b + 0.5 * b * b;
    h[j][j] += 0.5 * a * a;
    h[i][j] += cos(a) + a * b;
    h[j][i] += cos(a) + a * b;
  }
}

void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; ++i) g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}

/* The directional derivative of f along v, by forward mode. */
double dirderiv(const double *x, const double *v, int n) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, n);
}

/* One component of the gradient, by reverse mode. */
double grad_k(const double *x, int n, int k) {
  double g[N];
  grad(x, g, n);
  return g[k];
}

/* g(t) = t^3 sin t; its third derivative through three nested modes. */
double cube_sin(double t) { return t * t * t * sin(t); }
double d1(double t) { return __enzyme_autodiff((void *)cube_sin, t); }
double d2(double t) { return __enzyme_fwddiff((void *)d1, t, 1.0); }
double d3(double t) { return __enzyme_fwddiff((void *)d2, t, 1.0); }

static double grad_k_fd(const double *x, void *c) { return grad_k(x, N, *(int *)c); }

int main(void) {
  double x[N] = {0.3, 0.7, -0.2, 1.1}, h[N][N];
  hessian(x, h);

  /* Forward over reverse: H v for each basis vector. */
  for (int j = 0; j < N; ++j) {
    double v[N] = {0}, g[N], hv[N];
    v[j] = 1;
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, N);
    for (int i = 0; i < N; ++i) CHECK_CLOSE(h[i][j], hv[i]);
  }

  /* Reverse over forward: d/dx (grad f . v) = H v. */
  double v[N] = {0.5, -1.0, 0.25, 2.0}, hv[N] = {0}, dv[N] = {0};
  __enzyme_autodiff((void *)dirderiv, enzyme_dup, x, hv, enzyme_dup, v, dv, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double want = 0;
    for (int j = 0; j < N; ++j) want += h[i][j] * v[j];
    CHECK_CLOSE(want, hv[i]);
  }
  /* ... and d/dv (grad f . v) = grad f. */
  double g[N];
  grad(x, g, N);
  for (int i = 0; i < N; ++i) CHECK_CLOSE(g[i], dv[i]);

  /* Reverse over reverse: the gradient of g_k is row k of H. */
  for (int k = 0; k < N; ++k) {
    double row[N] = {0};
    __enzyme_autodiff((void *)grad_k, enzyme_dup, x, row, enzyme_const, N, enzyme_const, k);
    for (int i = 0; i < N; ++i) CHECK_CLOSE(h[k][i], row[i]);
    CHECK_GRADIENT(grad_k_fd, &k, x, N, row);
  }

  /* Third derivative of t^3 sin t. */
  double t = 0.9;
  double want = 6 * sin(t) + 18 * t * cos(t) - 9 * t * t * sin(t) - t * t * t * cos(t);
  CHECK_CLOSE(want, d3(t));
  return fd_report();
}
