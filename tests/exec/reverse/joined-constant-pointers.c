// Pointers joined between an active argument and constant memory (an
// enzyme_const argument or a const global) by a select or a loop phi, where
// the constant memory is also read directly: the activity analysis, per
// object, counts those direct loads as active; their adjoints are dropped
// (once "a load of active data through a pointer whose shadow is unknown"
// at -O1 and above, and at -O0 for the phi). Reverse gradients against
// central differences, forward tangents against the reverse gradient.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>
#define N 6
static const double table[N] = {0.5, -1, 2, 0.25, 1.5, -0.75};
/* select between an active and a constant argument, reading both */
__attribute__((noinline)) double sel_args(double *x, const double *c, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *p = (x[i] > c[i]) ? x : c;
    s += p[i] * x[i] * x[i];
  }
  return s;
}
/* a pointer that starts at a constant argument and switches to a
   temporary holding active data (phi across iterations) */
__attribute__((noinline)) double phi_switch(double *x, const double *c, int n) {
  double *tmp = malloc(sizeof(double) * n);
  const double *in = c;
  double s = 0;
  for (int it = 0; it < 2; it++) {
    for (int i = 0; i < n; i++) tmp[i] = in[i] * x[i] + (it ? 0 : c[i]);
    for (int i = 0; i < n; i++) s += tmp[i] * in[i];
    in = tmp;
  }
  free(tmp);
  return s;
}
/* select between an active argument and a constant global table */
__attribute__((noinline)) double sel_global(double *x, int n, int k) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *p = (i % k == 0) ? table : x;
    s += p[i] * x[(i + 1) % n] + table[i] * x[i];
  }
  return s;
}
/* select between two constant arguments and an active one */
__attribute__((noinline)) double sel_three(double *x, const double *a,
                                           const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    const double *p = x[i] > 0 ? a : b;
    const double *q = a[i] > b[i] ? p : x;
    s += q[i] * x[i] + p[i];
  }
  return s;
}
static double x0[N] = {1, -2, 3, 0.5, -1, 2};
static double c0[N] = {0.1, 0.2, 1, 1, 2, -3};
static double b0[N] = {-1, 0.3, 0.7, 2, -2, 1};
#define GRAD_CHECK(call, reqargs)                                              \
  do {                                                                         \
    double x[N], dx[N] = {0};                                                  \
    for (int k = 0; k < N; k++) x[k] = x0[k];                                  \
    __enzyme_autodiff_void reqargs;                                            \
    for (int k = 0; k < N; k++) {                                              \
      double h = 1e-5, s = x[k];                                               \
      x[k] = s + h; double fp = call; x[k] = s - h; double fm = call;          \
      x[k] = s;                                                                \
      CHECK_CLOSE((fp - fm) / (2 * h), dx[k]);                                 \
    }                                                                          \
  } while (0)
/* Forward mode, one direction per input, against the reverse gradient. */
#define FWD_CHECK(reqargs)                                                     \
  do {                                                                         \
    double x[N], dx[N] = {0}, v[N];                                            \
    for (int k = 0; k < N; k++) x[k] = x0[k];                                  \
    __enzyme_autodiff_void reqargs;                                            \
    for (int k = 0; k < N; k++) {                                              \
      for (int j = 0; j < N; j++) v[j] = j == k;                               \
      double *dx_saved = dx;                                                   \
      double *dx = v; /* the direction takes the shadow's place */             \
      double t = __enzyme_fwddiff reqargs;                                     \
      CHECK_CLOSE(dx_saved[k], t);                                             \
    }                                                                          \
  } while (0)
int main(void) {
  GRAD_CHECK(sel_args(x, c0, N), ((void *)sel_args, enzyme_dup, x, dx,
                                  enzyme_const, c0, enzyme_const, N));
  GRAD_CHECK(phi_switch(x, c0, N), ((void *)phi_switch, enzyme_dup, x, dx,
                                    enzyme_const, c0, enzyme_const, N));
  GRAD_CHECK(sel_global(x, N, 3), ((void *)sel_global, enzyme_dup, x, dx,
                                   enzyme_const, N, enzyme_const, 3));
  GRAD_CHECK(sel_three(x, c0, b0, N),
             ((void *)sel_three, enzyme_dup, x, dx, enzyme_const, c0,
              enzyme_const, b0, enzyme_const, N));
  FWD_CHECK(((void *)sel_args, enzyme_dup, x, dx, enzyme_const, c0,
             enzyme_const, N));
  FWD_CHECK(((void *)phi_switch, enzyme_dup, x, dx, enzyme_const, c0,
             enzyme_const, N));
  FWD_CHECK(((void *)sel_global, enzyme_dup, x, dx, enzyme_const, N,
             enzyme_const, 3));
  FWD_CHECK(((void *)sel_three, enzyme_dup, x, dx, enzyme_const, c0,
             enzyme_const, b0, enzyme_const, N));
  return fd_report();
}
