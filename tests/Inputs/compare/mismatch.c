/* Routes that disagree (tests/lit/tools/autodiff-compare-errors.test):
   clang defines __OPTIMIZE__ at -O1 and above, so the `after` route
   (clang -O2) builds different code from the `before` routes (clang -O0).
   gradient_shifted writes one wrong entry, primal_drift returns another
   value. */
#include <stddef.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

static double x[8] = {1, 2, 3, 4, 5, 6, 7, 8};

double primal_shifted(void) { return sumsq(x, 8); }
size_t gradient_shifted(double *grad, size_t cap) {
  memset(grad, 0, 8 * sizeof(double));
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, grad, enzyme_const, 8);
#ifdef __OPTIMIZE__
  grad[3] += 1e-3;
#endif
  return 8;
}

double primal_drift(void) {
#ifdef __OPTIMIZE__
  return sumsq(x, 8) + 1;
#else
  return sumsq(x, 8);
#endif
}
size_t gradient_drift(double *grad, size_t cap) {
  memset(grad, 0, 8 * sizeof(double));
  __enzyme_autodiff((void *)sumsq, enzyme_dup, x, grad, enzyme_const, 8);
  return 8;
}
