/* Vector normalization, the case study of compiler-based AD: written
   naively, the magnitude is recomputed in every iteration (O(n^2)).
   Optimized first, LICM hoists the call out of the loop, and the gradient
   of the optimized code is O(n); differentiated first, the gradient keeps
   one call of mag's derivative per element.

     build/bin/autodiff-compare examples/compare/normalize.c
*/
#include <math.h>
#include <stddef.h>
#include <string.h>

#ifndef N
#define N 2000
#endif

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

/* pure: reads memory only (sqrt's errno aside), so the optimizer may
   hoist it; noinline: stays a call that LICM can move. */
__attribute__((noinline, pure)) static double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

void normalize(double *restrict out, const double *restrict in, int n) {
  for (int i = 0; i < n; i++)
    out[i] = in[i] / mag(in, n);
}

static double in[N], out[N], d_out[N];

void setup_normalize(void) {
  for (int i = 0; i < N; i++)
    in[i] = 1.0 + 0.5 * sin(0.1 * i);
}

double primal_normalize(void) {
  normalize(out, in, N);
  return out[N / 2];
}

/* The gradient of sum_i w_i out_i with respect to in, w_i = 1 + i/N. */
size_t gradient_normalize(double *grad, size_t cap) {
  memset(grad, 0, N * sizeof(double));
  for (int i = 0; i < N; i++)
    d_out[i] = 1.0 + (double)i / N;
  __enzyme_autodiff((void *)normalize, enzyme_dup, out, d_out, enzyme_dup,
                    in, grad, enzyme_const, N);
  return N;
}
