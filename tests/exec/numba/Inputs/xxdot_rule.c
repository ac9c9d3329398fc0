/* A custom reverse rule for Numba's BLAS helper numba_xxdot, written the
 * way the seed report's user wrote theirs: a shadow after every argument
 * (the chars and the length too), the i32 status passed through, no tape.
 * Compiled to IR and linked into the Numba module before differentiation
 * by tests/exec/numba/reverse-dot-rule.py. Counts its calls. */
#include <stdint.h>

extern int numba_xxdot(char kind, char conjugate, int64_t n, const void *x,
                       const void *y, void *result);

int rule_aug_calls, rule_rev_calls;

typedef struct { void *tape; int status; } xxdot_aug_t;

xxdot_aug_t augmented_numba_xxdot(char kind, char d_kind, char conjugate,
                                  char d_conjugate, int64_t n, int64_t d_n,
                                  const void *x, void *d_x, const void *y,
                                  void *d_y, void *result, void *d_result) {
  (void)d_kind; (void)d_conjugate; (void)d_n; (void)d_x; (void)d_y;
  (void)d_result;
  ++rule_aug_calls;
  xxdot_aug_t out = {(void *)0, numba_xxdot(kind, conjugate, n, x, y, result)};
  return out;
}

void gradient_numba_xxdot(char kind, char d_kind, char conjugate,
                          char d_conjugate, int64_t n, int64_t d_n,
                          const void *x, void *d_x, const void *y, void *d_y,
                          void *result, void *d_result, void *tape) {
  (void)d_kind; (void)conjugate; (void)d_conjugate; (void)d_n; (void)result;
  (void)tape;
  ++rule_rev_calls;
  if (kind != 'd')
    return;
  double rbar = *(double *)d_result;
  *(double *)d_result = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    ((double *)d_x)[i] += ((const double *)y)[i] * rbar;
    ((double *)d_y)[i] += ((const double *)x)[i] * rbar;
  }
}

__attribute__((used)) void *__enzyme_register_gradient_numba_xxdot[] = {
    (void *)numba_xxdot, (void *)augmented_numba_xxdot,
    (void *)gradient_numba_xxdot};
