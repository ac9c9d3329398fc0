/* Two small kernels for tests/lit/tools/autodiff-compare.test. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#define N 64
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

double smooth(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++)
    s += sin(x[i]) * exp(0.1 * x[i + 1]);
  return log(1 + s * s);
}

static double x[N];

void setup_sumsq(void) {
  for (int i = 0; i < N; i++)
    x[i] = 0.5 + 0.01 * i;
}
double primal_sumsq(void) { return sumsq(x, N); }
size_t gradient_sumsq(double *grad, size_t cap) {
  memset(grad, 0, N * sizeof(double));
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, grad, enzyme_const, N);
  return N;
}

/* No setup: y is initialized statically. */
static double y[N] = {1, 2, 3, 4, 5, 6, 7, 8};
double primal_smooth(void) { return smooth(y, N); }
size_t gradient_smooth(double *grad, size_t cap) {
  memset(grad, 0, N * sizeof(double));
  __enzyme_autodiff((void *)smooth, enzyme_dup, y, grad, enzyme_const, N);
  return N;
}
