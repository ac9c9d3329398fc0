// realloc in reverse mode: the shadow of a reallocated buffer is a new
// zeroed buffer holding the old shadow's contents (shadow pointers) up to
// the smaller size; the reverse sweep moves the adjoints back into the old
// shadow where the reallocation is. Growing buffers in loops (the size is
// followed through the loop's phi), shrinking, realloc(NULL, n), a grown
// array of row pointers. Gradients against finite differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>

enum { N = 7 };

/* a vector grown by half again each time it is full, then read back to
 * front */
double grow_half(const double *x, int n) {
  size_t cap = 1, len = 0;
  double *v = malloc(cap * sizeof(double));
  for (int i = 0; i < n; ++i)
    for (int r = 0; r <= i % 3; ++r) {
      if (len == cap) {
        cap = cap + cap / 2 + 1;
        v = realloc(v, cap * sizeof(double));
      }
      v[len++] = cos(x[i]) * (r + 1) + x[(i + 2) % n] * x[i];
    }
  double s = 0;
  for (size_t k = 0; k < len; ++k)
    s += v[k] * v[len - 1 - k] * (k % 2 ? 1.0 : -0.5);
  free(v);
  return s;
}

/* a buffer made by realloc(NULL, ...), filled, shrunk to its first half
 * and read again */
double shrink(const double *x, int n) {
  double *t = realloc(NULL, n * sizeof(double));
  for (int i = 0; i < n; ++i)
    t[i] = exp(0.3 * x[i]) + x[i] * x[i];
  int half = n / 2;
  t = realloc(t, half * sizeof(double));
  double s = 0;
  for (int i = 0; i < half; ++i)
    s += t[i] * sin(t[(i + 1) % half]);
  free(t);
  return s;
}

/* rows allocated one at a time; the array of row pointers grows by
 * realloc, so the shadow's copy of it must carry the rows' shadows */
double rows(const double *x, int n) {
  double **r = 0;
  int count = 0;
  for (int i = 0; i < n; ++i) {
    r = realloc(r, (count + 1) * sizeof(double *));
    r[count] = malloc(2 * sizeof(double));
    r[count][0] = x[i] * x[(i + 1) % n];
    r[count][1] = sin(x[i]);
    ++count;
  }
  double s = 0;
  for (int i = 0; i < count; ++i)
    s += r[i][0] * r[count - 1 - i][1];
  for (int i = 0; i < count; ++i)
    free(r[i]);
  free(r);
  return s;
}

static double grow_F(const double *x, void *c) { return grow_half(x, N); }
static double shrink_F(const double *x, void *c) { return shrink(x, N); }
static double rows_F(const double *x, void *c) { return rows(x, N); }

int main(void) {
  const double x[N] = {0.3, -0.7, 1.1, 0.45, -1.3, 0.8, 0.25};
  volatile int nv = N;
  int n = nv;
  double dx[N] = {0};
  __enzyme_autodiff((void *)grow_half, enzyme_dup, x, dx, enzyme_const, n);
  CHECK_GRADIENT(grow_F, 0, x, N, dx);
  double dy[N] = {0};
  __enzyme_autodiff((void *)shrink, enzyme_dup, x, dy, enzyme_const, n);
  CHECK_GRADIENT(shrink_F, 0, x, N, dy);
  double dz[N] = {0};
  __enzyme_autodiff((void *)rows, enzyme_dup, x, dz, enzyme_const, n);
  CHECK_GRADIENT(rows_F, 0, x, N, dz);
  return fd_report();
}
