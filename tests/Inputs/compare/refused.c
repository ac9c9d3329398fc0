/* autodiff-opt refuses this file: `enzyme_bogus` is no marker of the
   calling convention (tests/lit/tools/autodiff-compare-errors.test). */
#include <stddef.h>

extern int enzyme_bogus;
double __enzyme_autodiff(void *, ...);

double square(double x) { return x * x; }

static double x = 3;
double primal_square(void) { return square(x); }
size_t gradient_square(double *grad, size_t cap) {
  grad[0] = __enzyme_autodiff((void *)square, enzyme_bogus, x);
  return 1;
}
