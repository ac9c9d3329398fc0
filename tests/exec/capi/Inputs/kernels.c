/* Functions a host hands to the JIT as IR (compiled by clang-22 -O2 in the
 * test's RUN lines): requests written in C, a function for a rustc-style
 * item, and one that calls a function the host provides. */
#include <math.h>

extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_out;

/* sum_i w_i sin(x_i) x_i^2, with a loop-carried product (a tape) */
double loss(const double *x, const double *w, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; ++i) {
    p = p * 0.5 + x[i];
    s += w[i] * sin(x[i]) * x[i] * x[i] + p * p;
  }
  return s;
}

void grad_loss(const double *x, double *dx, const double *w, int n) {
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, w,
                    enzyme_const, n);
}

double dir_loss(const double *x, const double *dx, const double *w, int n) {
  return __enzyme_fwddiff((void *)loss, enzyme_dup, x, dx, enzyme_const, w,
                          enzyme_const, n);
}

/* a scalar function for an item: d/da of a^3 b + exp(a b) */
double poly(double a, double b) { return a * a * a * b + exp(a * b); }

/* calls a function of the host */
double host_scale(double);
double scaled(double x) { return host_scale(x) * x; }
