/* A gradient entry point that aborts
   (tests/lit/tools/autodiff-compare-errors.test). */
#include <stdlib.h>

double primal_boom(void) { return 1; }
size_t gradient_boom(double *grad, size_t cap) { abort(); }
