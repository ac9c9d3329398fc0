// A growing array of row pointers: each row is malloc'd in the function
// and pushed into a `double **` that realloc grows in the loop (capacity
// 1, 2, 4, 8), and everything is freed at the end. Each realloc releases
// the buffer it returned in an earlier iteration: the shadows of those
// intermediate arrays are recorded and released once the reverse sweep is
// done (they leaked: a realloc was not counted as releasing its own
// earlier results). Called twice (a tape pool keeps the last call's
// pointers reachable). In the sanitizer build LeakSanitizer checks every
// shadow is released. Gradients against finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>
#include <string.h>
enum { N = 5 };
typedef struct { int n, cap; double **rows; } Rows;

static void rows_push(Rows *r, double *p) {
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 1;
    r->rows = realloc(r->rows, r->cap * sizeof(double *));
  }
  r->rows[r->n++] = p;
}

double grown_rows(const double *x) {
  Rows r = {0, 0, 0};
  for (int k = 0; k < 5; ++k) {
    double *p = malloc(N * sizeof(double));
    for (int i = 0; i < N; ++i) p[i] = x[i] * x[(i + k) % N];
    rows_push(&r, p);
  }
  double s = 0;
  for (int k = 0; k < r.n; ++k)
    for (int i = 0; i < N; ++i) s += (k + 1) * r.rows[k][i] * r.rows[k][i];
  for (int k = 0; k < r.n; ++k) free(r.rows[k]);
  free(r.rows);
  return s;
}

static double grown_fd(const double *x, void *c) { (void)c; return grown_rows(x); }

int main(void) {
  double x[N] = {0.3, -0.5, 0.7, 1.1, -0.2}, dx[N];
  for (int r = 0; r < 2; ++r) {
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)grown_rows, enzyme_dup, x, dx);
    CHECK_GRADIENT(grown_fd, 0, x, N, dx);
  }
  return fd_report();
}
