// Functions that see the caller's double arrays only through uint64_t
// pointers (a word reversal, a word copy, a copy in a noinline helper
// behind a function that types one other word; arrays from malloc held in
// variables): alone, their type analysis
// finds only integers there, and the reverse derivative left the adjoints
// where they were (silently wrong at -O0..-O3). The request now carries
// what the caller's code says of the memory and of its shadow
// (requests/CallerTypes.h), so the moves are typed as moves of doubles.
// Against the analytic derivatives, in both modes.
// RUN: sh %testlib/run-c.sh %s
#include <stdint.h>
#include <stdlib.h>
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

// Reverses n words in place: moves the doubles' bits as integers.
void reverse_words(double *x, int n) {
  uint64_t *u = (uint64_t *)x;
  for (int i = 0, j = n - 1; i < j; ++i, --j) {
    uint64_t t = u[i];
    u[i] = u[j];
    u[j] = t;
  }
}

// Copies word k over word 0.
void copy_word(double *x, int k) {
  uint64_t *u = (uint64_t *)x;
  u[0] = u[k];
}

// The same copy in a noinline helper, behind a function that does use
// one of the words as a double.
__attribute__((noinline)) void copy_word_of(uint64_t *u, int k) { u[0] = u[k]; }
void copy_then_scale(double *x) {
  copy_word_of((uint64_t *)x, 3);
  x[1] *= 2.0;
}

int main(void) {
  enum { N = 5 };
  double x[N], dx[N], w[N];
  for (int i = 0; i < N; ++i) { x[i] = 0.5 + i; w[i] = 1.0 + 0.25 * i; }
  /* reverse mode: dx_in[j] = w[N-1-j] for the seed w on the output */
  for (int i = 0; i < N; ++i) dx[i] = w[i];
  __enzyme_autodiff((void *)reverse_words, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; ++i) CHECK_CLOSE(w[N - 1 - i], dx[i]);
  for (int i = 0; i < N; ++i) CHECK_CLOSE(0.5 + (N - 1 - i), x[i]);
  /* forward mode: the tangent moves with the words */
  double y[N], dy[N];
  for (int i = 0; i < N; ++i) { y[i] = 0.5 + i; dy[i] = 10.0 + i; }
  __enzyme_fwddiff((void *)reverse_words, enzyme_dup, y, dy, enzyme_const, N);
  for (int i = 0; i < N; ++i) CHECK_CLOSE(10.0 + (N - 1 - i), dy[i]);
  /* copy: word 0's adjoint goes to word 3, word 0's own is cleared */
  double z[N], dz[N];
  for (int i = 0; i < N; ++i) { z[i] = 0.5 + i; dz[i] = 1.0; }
  __enzyme_autodiff((void *)copy_word, enzyme_dup, z, dz, enzyme_const, 3);
  CHECK_CLOSE(0.0, dz[0]);
  CHECK_CLOSE(2.0, dz[3]);
  CHECK_CLOSE(1.0, dz[1]);
  /* the helper's copy, and the caller's own double */
  for (int i = 0; i < N; ++i) { z[i] = 0.5 + i; dz[i] = 1.0; }
  __enzyme_autodiff((void *)copy_then_scale, enzyme_dup, z, dz);
  CHECK_CLOSE(0.0, dz[0]);
  CHECK_CLOSE(2.0, dz[1]);
  CHECK_CLOSE(2.0, dz[3]);
  CHECK_CLOSE(1.0, dz[4]);
  /* malloc'd arrays, which an unoptimized caller reads back from the
     variables holding them before each use */
  double *m = malloc(2 * sizeof(double)), *dm = malloc(2 * sizeof(double));
  m[0] = 1.0; m[1] = 2.0; dm[0] = 3.0; dm[1] = 4.0;
  __enzyme_autodiff((void *)reverse_words, enzyme_dup, m, dm, enzyme_const, 2);
  CHECK_CLOSE(4.0, dm[0]);
  CHECK_CLOSE(3.0, dm[1]);
  free(m);
  free(dm);
  return fd_report();
}
