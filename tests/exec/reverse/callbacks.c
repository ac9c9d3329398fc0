// Reverse mode through function pointers: a callback passed enzyme_const
// (a function of the module, or a libm function with a derivative rule), a
// constant table of functions indexed at run time, and a callback with a
// context pointer inside a struct. The calls dispatch over the module's
// address-taken functions of the call's type (the finite-difference helpers
// below take `const void *` first so that they are not candidates);
// gradients against finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

static double op_sq(double x) { return x * x; }
static double op_cube(double x) { return x * x * x; }
double apply(double (*f)(double), double x) { return f(x) * sin(x); }

static double (*const table[4])(double) = {op_sq, sin, op_cube, exp};
double via_table(const double *x, const int *ops, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += table[ops[i]](x[i]) * x[(i + 1) % n];
  return s;
}

typedef struct { double (*f)(double, void *); void *ctx; } callback;
static double scaled(double x, void *ctx) { return *(double *)ctx * x * x; }
static double shifted_exp(double x, void *ctx) { return exp(x - *(double *)ctx); }
double integrate(const callback *cb, double a, double b, int n) {
  double h = (b - a) / n, s = 0;
  for (int i = 0; i < n; ++i) s += cb->f(a + (i + 0.5) * h, cb->ctx) * h;
  return s;
}

static double fd1(double (*g)(const void *, double), const void *c, double x) {
  double h = fd_step(x, FD_H_REL);
  return (g(c, x - 2 * h) - 8 * g(c, x - h) + 8 * g(c, x + h) - g(c, x + 2 * h)) / (12 * h);
}
static double apply_at(const void *f, double x) { return apply((double (*)(double))f, x); }
static double integrate_at(const void *cb, double a) { return integrate(cb, a, 1.5, 40); }

int main(void) {
  double x0 = 0.7;
  CHECK_CLOSE(fd1(apply_at, (const void *)op_sq, x0),
              __enzyme_autodiff((void *)apply, enzyme_const, op_sq, enzyme_out, x0));
  CHECK_CLOSE(fd1(apply_at, (const void *)op_cube, x0),
              __enzyme_autodiff((void *)apply, enzyme_const, op_cube, enzyme_out, x0));
  CHECK_CLOSE(fd1(apply_at, (const void *)sin, x0),
              __enzyme_autodiff((void *)apply, enzyme_const, sin, enzyme_out, x0));

  double x[5] = {0.3, 0.6, 0.9, 1.2, 0.4}, dx[5] = {0};
  int ops[5] = {0, 1, 2, 3, 1};
  __enzyme_autodiff((void *)via_table, enzyme_dup, x, dx, enzyme_const, ops, enzyme_const, 5);
  for (int i = 0; i < 5; ++i) {
    double s = x[i], h = fd_step(s, FD_H_REL);
    x[i] = s + h; double fp = via_table(x, ops, 5);
    x[i] = s - h; double fm = via_table(x, ops, 5);
    x[i] = s;
    CHECK_CLOSE_TOL((fp - fm) / (2 * h), dx[i], 1e-6, 1e-8);
  }

  double k = 3.0, shift = 0.25;
  callback cbs[2] = {{scaled, &k}, {shifted_exp, &shift}};
  for (int j = 0; j < 2; ++j)
    CHECK_CLOSE(fd1(integrate_at, &cbs[j], 0.2),
                __enzyme_autodiff((void *)integrate, enzyme_const, &cbs[j], enzyme_out, 0.2,
                                  enzyme_const, 1.5, enzyme_const, 40));
  return fd_report();
}
