/* numba_xxdot, the BLAS helper np.dot lowers to, for the tests (no BLAS
 * here): s and d only; a status of 1 for other kinds, as Numba's. */
#include <stddef.h>

int numba_xxdot(char kind, char conjugate, size_t n, const void *x,
                const void *y, void *out) {
  (void)conjugate;
  if (kind == 'd') {
    double s = 0;
    for (size_t i = 0; i < n; ++i)
      s += ((const double *)x)[i] * ((const double *)y)[i];
    *(double *)out = s;
    return 0;
  }
  if (kind == 's') {
    float s = 0;
    for (size_t i = 0; i < n; ++i)
      s += ((const float *)x)[i] * ((const float *)y)[i];
    *(float *)out = s;
    return 0;
  }
  return 1;
}
