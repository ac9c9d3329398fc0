/*===- examples/ackley.c - Forward mode through the Enzyme C interface -----===//
 *
 * The Ackley test function of optimization,
 *
 *   f(x) = -a exp(-b sqrt(sum_i x_i^2 / n)) - exp(sum_i cos(c x_i) / n)
 *          + a + e,
 *
 * written as one loop over an array with libm calls. main() asks for the
 * directional derivative of f at x along v with `__enzyme_fwddiff`, the way
 * a C program written for Enzyme does, and checks it against a central
 * finite difference of f along v.
 *
 * Build (see scripts/run-example.sh):
 *   clang-22 -O2 -S -emit-llvm examples/ackley.c -o ackley.ll
 *   build/bin/autodiff-opt ackley.ll -O2 -S -o ackley.diff.ll
 *   clang-22 ackley.diff.ll -lm -o ackley && ./ackley
 *
 *===----------------------------------------------------------------------===*/
#include <math.h>
#include <stdio.h>

/* Enzyme's interface: the call is replaced by the derivative; the marker
 * globals say how each following argument takes part. */
extern double __enzyme_fwddiff(void *fn, ...);
extern int enzyme_dup;
extern int enzyme_const;

double ackley(const double *x, long n) {
  const double a = 20.0, b = 0.2, c = 2.0 * M_PI;
  double sum_sq = 0.0, sum_cos = 0.0;
  for (long i = 0; i < n; ++i) {
    sum_sq += x[i] * x[i];
    sum_cos += cos(c * x[i]);
  }
  return -a * exp(-b * sqrt(sum_sq / n)) - exp(sum_cos / n) + a + M_E;
}

#define N 6

int main(void) {
  double x[N] = {0.3, -1.2, 0.75, 2.1, -0.4, 1.05};
  double v[N] = {1.0, 0.5, -0.25, 0.125, -1.0, 0.75};

  double value = ackley(x, N);
  /* x is duplicated: its shadow v is the direction; n is inactive. The
   * result is the tangent of the return, d/dt f(x + t v) at t = 0. */
  double deriv = __enzyme_fwddiff((void *)ackley, enzyme_dup, x, v,
                                  enzyme_const, (long)N);

  const double h = 1e-6;
  double xp[N], xm[N];
  for (int i = 0; i < N; ++i) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  double fd = (ackley(xp, N) - ackley(xm, N)) / (2.0 * h);
  double err = fabs(deriv - fd);

  printf("f(x)                      = %.12f\n", value);
  printf("directional derivative    = %.12f\n", deriv);
  printf("central finite difference = %.12f\n", fd);
  printf("absolute difference       = %.3e\n", err);
  if (!(err <= 1e-6 * (1.0 + fabs(fd)))) {
    printf("MISMATCH: the derivative disagrees with the finite difference\n");
    return 1;
  }
  printf("OK: derivative matches the finite difference\n");
  return 0;
}
