// Stack arrays sized at run time holding active data in reverse mode: a
// C99 VLA of scratch values, alloca(n * sizeof(double)), a 2-D VLA of
// hidden activations, a VLA of row pointers, a second VLA after a loop
// (also called with n = 0, which skips it). Outside loops they become
// heap temporaries freed by the reverse sweep (once a diagnostic: "a
// dynamically sized stack allocation that holds active data"). Against
// central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <alloca.h>
#include <math.h>
#include <string.h>
/* Stack arrays sized at run time holding active data, in reverse mode:
   a C99 VLA of scratch values, alloca(n * sizeof(double)), a 2-D VLA of
   hidden activations, and a VLA holding pointers to rows. */
__attribute__((noinline)) double vla_scratch(const double *x, int n) {
  double t[n];
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * x[(i + 1) % n];
  return s;
}
__attribute__((noinline)) double alloca_scratch(const double *x, int n) {
  double *t = alloca(n * sizeof(double));
  for (int i = 0; i < n; i++) t[i] = sin(x[i]);
  double s = 0;
  for (int i = n - 1; i >= 0; i--) s = s * 0.5 + t[i] * t[i];
  return s;
}
__attribute__((noinline)) double mlp(const double *w, const double *x, int b,
                                     int h) {
  double act[b][h];
  for (int i = 0; i < b; i++)
    for (int j = 0; j < h; j++) act[i][j] = tanh(w[j] * x[i] + 0.1 * j);
  double s = 0;
  for (int i = 0; i < b; i++)
    for (int j = 0; j < h; j++) s += act[i][j] * w[h + j];
  return s;
}
/* A second VLA after a loop: at -O2 clang leaves it in a block that the
   path for n <= 0 skips. */
__attribute__((noinline)) double two_vlas(const double *x, int n) {
  double t[n];
  for (int i = 0; i < n; ++i) t[i] = x[i] * x[i];
  double m[n];
  for (int i = 0; i < n; ++i) m[i] = t[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i) s += m[i];
  return s;
}
__attribute__((noinline)) double rows(const double *x, int n) {
  const double *r[n];
  for (int i = 0; i < n; i++) r[i] = x + (n - 1 - i);
  double s = 0;
  for (int i = 0; i < n; i++) s += r[i][0] * x[i];
  return s;
}
#define N 6
static double x0[2 * N] = {0.4, -0.7, 1.2, 0.3, -1.1, 0.8,
                           0.5, -0.2, 0.9, 0.1, -0.6, 0.35};
#define GRAD(call, m, ...)                                                    \
  do {                                                                        \
    double x[2 * N], dx[2 * N] = {0};                                         \
    memcpy(x, x0, sizeof x);                                                  \
    __enzyme_autodiff_void(__VA_ARGS__);                                      \
    for (int k = 0; k < m; k++) {                                             \
      double a[2 * N], b[2 * N], h = 1e-6;                                    \
      memcpy(a, x0, sizeof a); memcpy(b, x0, sizeof b);                       \
      a[k] += h; b[k] -= h;                                                   \
      double *xs = a; double fa = call; xs = b; double fb = call;             \
      CHECK_CLOSE((fa - fb) / (2 * h), dx[k]);                                \
    }                                                                         \
  } while (0)
int main(void) {
  GRAD(vla_scratch(xs, N), N, (void *)vla_scratch, enzyme_dup, x, dx,
       enzyme_const, N);
  GRAD(alloca_scratch(xs, N), N, (void *)alloca_scratch, enzyme_dup, x, dx,
       enzyme_const, N);
  /* weights w[0..2h), inputs x[2h..2h+b) */
  GRAD(mlp(xs, xs + 6, 4, 3), 10, (void *)mlp, enzyme_dup, x, dx,
       enzyme_dup, x + 6, dx + 6, enzyme_const, 4, enzyme_const, 3);
  GRAD(rows(xs, N), N, (void *)rows, enzyme_dup, x, dx, enzyme_const, N);
  GRAD(two_vlas(xs, N), N, (void *)two_vlas, enzyme_dup, x, dx,
       enzyme_const, N);
  {
    double x[1] = {0.5}, dx[1] = {0};
    __enzyme_autodiff_void((void *)two_vlas, enzyme_dup, x, dx,
                           enzyme_const, 0);
    CHECK_CLOSE(0.0, dx[0]);
  }
  return fd_report();
}
