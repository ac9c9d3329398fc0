/* Entry points the tool cannot use
   (tests/lit/tools/autodiff-compare-errors.test). */
#include <stddef.h>

double primal_lonely(void) { return 1; }

static double primal_hidden(void) { return 1; }
static size_t gradient_hidden(double *grad, size_t cap) { return 0; }
/* Keep the static functions alive at -O0 without warnings. */
void *keep[] = {(void *)primal_hidden, (void *)gradient_hidden};

double primal_typo(void) { return 1; }
int gradient_typo(double *grad) { return 0; }
