// Reverse mode through functions that return fresh heap memory which their
// caller frees: a buffer made in a loop, a buffer grown with realloc, a
// constructor calling another one, and a struct with an owned array built
// by a constructor function and freed by its caller. The callee's shadow of the
// returned memory outlives its reverse sweep (it is the caller's, made by
// the same allocator); the caller releases it with the primal once its own
// reverse sweep is done. In the sanitizer build LeakSanitizer checks that
// every shadow is released exactly once. Gradients against finite
// differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>
#include <string.h>
enum { N = 5 };
typedef struct { int n; double *data; } Vec;

__attribute__((noinline)) double *make_scaled(const double *x, int n, double k) {
  double *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) b[i] = k * x[i] * x[(i + 1) % n];
  return b;
}
__attribute__((noinline)) double *grown(const double *x, int n) {
  int cap = 1;
  double *b = malloc(sizeof(double));
  for (int i = 0; i < n; ++i) {
    if (i == cap) { cap *= 2; b = realloc(b, cap * sizeof(double)); }
    b[i] = sin(x[i]) + x[i];
  }
  return b;
}
__attribute__((noinline)) double *twice_made(const double *x, int n) {
  double *b = make_scaled(x, n, 2.0);
  b[0] *= x[1];
  return b;
}
__attribute__((noinline)) Vec *vec_new(const double *x, int n) {
  Vec *v = malloc(sizeof(Vec));
  v->n = n;
  v->data = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) v->data[i] = exp(0.3 * x[i]);
  return v;
}
/* (A destructor function, `vec_free(v)`: callee-frees.c.) */

double loss_made(const double *x) {
  double s = 0;
  for (int k = 1; k <= 3; ++k) {
    double *b = make_scaled(x, N, k);
    for (int i = 0; i < N; ++i) s += b[i] * b[i];
    free(b);
  }
  return s;
}
double loss_grown(const double *x) {
  double *b = grown(x, N);
  double s = 0;
  for (int i = 0; i < N; ++i) s += b[i] * x[i];
  free(b);
  return s;
}
double loss_twice(const double *x) {
  double *b = twice_made(x, N);
  double s = b[0] + cos(b[2]);
  free(b);
  return s;
}
double loss_vec(const double *x) {
  Vec *v = vec_new(x, N);
  double s = 0;
  for (int i = 0; i < v->n; ++i) s += v->data[i] * x[i];
  free(v->data);
  free(v);
  return s;
}

static double made_fd(const double *x, void *c) { (void)c; return loss_made(x); }
static double grown_fd(const double *x, void *c) { (void)c; return loss_grown(x); }
static double twice_fd(const double *x, void *c) { (void)c; return loss_twice(x); }
static double vec_fd(const double *x, void *c) { (void)c; return loss_vec(x); }

int main(void) {
  double x[N] = {0.3, -0.5, 0.7, 1.1, -0.2}, dx[N];
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_made, enzyme_dup, x, dx);
  CHECK_GRADIENT(made_fd, 0, x, N, dx);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_grown, enzyme_dup, x, dx);
  CHECK_GRADIENT(grown_fd, 0, x, N, dx);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_twice, enzyme_dup, x, dx);
  CHECK_GRADIENT(twice_fd, 0, x, N, dx);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_vec, enzyme_dup, x, dx);
  CHECK_GRADIENT(vec_fd, 0, x, N, dx);
  return fd_report();
}
