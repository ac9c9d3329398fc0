// Pointers joined from buffers of which only some receive active data: a
// phi or select of a heap buffer holding active values and one holding
// constants (Numba's array expressions at its default optimization, where
// jump threading duplicates a temporary onto a path that writes nothing
// active into it). Every buffer the joined pointer may name gets a shadow;
// this was "a phi joining an active pointer and one without shadow memory".
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>

enum { N = 5 };

/* p is the squares of x or a buffer of ones, by a flag */
double pick(const double *x, int n, int which) {
  double *sq = malloc(n * sizeof(double));
  double *ones = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    sq[i] = x[i] * x[i];
    ones[i] = 1.0;
  }
  double *p = which ? sq : ones;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * sin(x[i]);
  free(sq);
  free(ones);
  return s;
}

/* a temporary made on one path only; the other path uses a constant table */
static const double table[N] = {0.5, 1.5, -2.0, 0.25, 3.0};
double maybe_temp(const double *x, int n, int k) {
  const double *p = table;
  double *t = 0;
  if (k > 0) {
    t = malloc(n * sizeof(double));
    for (int i = 0; i < n; ++i)
      t[i] = exp(0.1 * k * x[i]);
    p = t;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * x[i];
  free(t);
  return s;
}

struct ctx { int n, flag; };
static double pick_F(const double *x, void *c) {
  struct ctx *cc = c;
  return pick(x, cc->n, cc->flag);
}
static double temp_F(const double *x, void *c) {
  struct ctx *cc = c;
  return maybe_temp(x, cc->n, cc->flag);
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.45, -1.3};
  volatile int nv = N;
  int n = nv;
  for (int flag = 0; flag < 2; ++flag) {
    double dx[N] = {0};
    __enzyme_autodiff((void *)pick, enzyme_dup, x, dx, enzyme_const, n, enzyme_const, flag);
    struct ctx c = {n, flag};
    for (int i = 0; i < N; ++i) {
      double e[N] = {0};
      e[i] = 1;
      CHECK_CLOSE(fd_dir(pick_F, &c, x, e, N), dx[i]);
      double an = flag ? 2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i]) : cos(x[i]);
      CHECK_CLOSE(an, dx[i]);
    }
  }
  for (int k = 0; k < 3; k += 2) {
    double dx[N] = {0};
    __enzyme_autodiff((void *)maybe_temp, enzyme_dup, x, dx, enzyme_const, n, enzyme_const, k);
    struct ctx c = {n, k};
    for (int i = 0; i < N; ++i) {
      double e[N] = {0};
      e[i] = 1;
      CHECK_CLOSE(fd_dir(temp_F, &c, x, e, N), dx[i]);
    }
  }
  return fd_report();
}
