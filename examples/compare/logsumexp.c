/* log-sum-exp, the stable way: a max pass, then a sum of exponentials.

     build/bin/autodiff-compare examples/compare/logsumexp.c
*/
#include <math.h>
#include <stddef.h>
#include <string.h>

#ifndef N
#define N 10000
#endif

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double logsumexp(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > m)
      m = x[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - m);
  return m + log(s);
}

static double x[N];

void setup_logsumexp(void) {
  for (int i = 0; i < N; i++)
    x[i] = sin(0.37 * i) + 0.01 * (i % 17);
}

double primal_logsumexp(void) { return logsumexp(x, N); }

/* The gradient is softmax(x). */
size_t gradient_logsumexp(double *grad, size_t cap) {
  memset(grad, 0, N * sizeof(double));
  __enzyme_autodiff((void *)logsumexp, enzyme_dup, x, grad, enzyme_const, N);
  return N;
}
