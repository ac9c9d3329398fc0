// Reverse mode on code built with -ffast-math, where the vectorizer's
// index arithmetic runs on a length loaded from a duplicated struct (an
// `and` of it): the index once made the constant array's loads active
// ("a load of active data through a pointer whose shadow is unknown").
// The finite differences are checked at -O0..-O3 with and without
// -ffast-math.
// RUN: sh %testlib/run-c.sh %s
// RUN: sh %testlib/run-c.sh %s -ffast-math -Wno-nan-infinity-disabled
#include "enzyme.h"
#include "fdcheck.h"

typedef struct {
  double *w;
  int n;
} weights;

/* sum w[i] x[i]^2 + w[i] w[i+1] over a length stored in the struct */
double energy(const weights *d, const double *x) {
  double s = 0;
  for (int i = 0; i < d->n; i++)
    s += d->w[i] * x[i] * x[i];
  for (int i = 0; i + 1 < d->n; i++)
    s += d->w[i] * d->w[i + 1];
  return s;
}

enum { N = 11 };
static double x[N];

static double energy_F(const double *w, void *c) {
  (void)c;
  weights d = {(double *)w, N};
  return energy(&d, x);
}

int main(void) {
  double w[N], dw[N] = {0};
  for (int i = 0; i < N; ++i) {
    w[i] = 0.3 + 0.1 * i;
    x[i] = 0.7 - 0.05 * i * i;
  }
  weights d = {w, N}, dd = {dw, N};
  __enzyme_autodiff((void *)energy, enzyme_dup, &d, &dd, enzyme_const, x);
  for (int i = 0; i < N; ++i) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(fd_dir(energy_F, 0, w, e, N), dw[i]);
    double an = x[i] * x[i] + (i > 0 ? w[i - 1] : 0) + (i + 1 < N ? w[i + 1] : 0);
    CHECK_CLOSE(an, dw[i]);
  }
  return fd_report();
}
