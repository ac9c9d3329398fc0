/* autodiff-opt refuses this file: split reverse mode is not supported
   yet (tests/lit/tools/autodiff-compare-errors.test). */
#include <stddef.h>

extern int enzyme_dup;
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

void square(double *x) { *x = *x * *x; }

static double x = 3;
double primal_square(void) {
  double y = x;
  square(&y);
  return y;
}
size_t gradient_square(double *grad, size_t cap) {
  double y = x, dy = 1;
  void *tape = __enzyme_augmentfwd((void *)square, enzyme_dup, &y, &dy);
  __enzyme_reverse((void *)square, enzyme_dup, &y, &dy, tape);
  grad[0] = dy;
  return 1;
}
