// Computations the optimizer runs and then throws away: a guarded
// `s += sqrt(a)`, `s *= sqrt(a)` or `s += 1 / a` becomes an unconditional
// sqrt or division feeding a select (`select(c, s + sqrt(a), s)`), and a
// vectorized loop's lanes past the end (masked off, or a broadcast's
// poison lanes) divide zero by zero before a shuffle drops them. The
// discarded part gets a zero adjoint while its partials are NaN; the
// gradient came back NaN (found by the Rust hunt at opt-level 3 and the C
// hunt with -mavx2 -ffast-math). Zero adjoints of discarded computation
// now contribute exactly zero, through arithmetic to the select and
// through lanes a shuffle or extraction leaves out; a shuffle's poison
// lanes pass no adjoint. Gradients against analytic values and finite
// differences.
// RUN: sh %testlib/run-c.sh %s
// RUN: sh %testlib/run-c.sh %s -ffast-math
#include "enzyme.h"
#include "fdcheck.h"
#include "vecfn.h"

double guarded_sqrt(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0.5)
      s += sqrt(x[i]);
  return s;
}

double guarded_mul(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0.5)
      s *= sqrt(x[i]);
  return s;
}

double guarded_div(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    if (x[i] != 0.0)
      s += 1.0 / x[i];
  return s;
}

/* A short loop over five elements: vectorized, its last vector's lanes
   past the end are masked off or poison, and divide 0 by 0. */
#define T 5
double attention(const double *h, int n) {
  (void)n;
  double sc[T], out = 0;
  for (int t = 0; t < T; t++) {
    double z = 0;
    for (int u = 0; u < T; u++) { sc[u] = h[t] * h[u]; z += sc[u]; }
    for (int u = 0; u < T; u++) out += sc[u] / z * h[u];
  }
  return out;
}

typedef double (*Loss)(const double *, int);
struct Ctx { Loss f; int n; };
static double call(const double *x, void *c) {
  struct Ctx *k = (struct Ctx *)c;
  return k->f(x, k->n);
}

int main(void) {
  double x[6] = {2.0, -1.0, 0.25, 4.0, 0.0, 0.75}, h[T];
  for (int i = 0; i < T; i++) h[i] = cos(0.7 * i);
  double d1[6] = {0}, d2[6] = {0}, d3[6] = {0}, d4[T] = {0};
  __enzyme_autodiff((void *)guarded_sqrt, enzyme_dup, x, d1, enzyme_const, 6);
  __enzyme_autodiff((void *)guarded_mul, enzyme_dup, x, d2, enzyme_const, 6);
  __enzyme_autodiff((void *)guarded_div, enzyme_dup, x, d3, enzyme_const, 6);
  __enzyme_autodiff((void *)attention, enzyme_dup, h, d4, enzyme_const, T);
  double prod = sqrt(2.0) * sqrt(4.0) * sqrt(0.75);
  for (int i = 0; i < 6; ++i) {
    int kept = x[i] > 0.5;
    CHECK_CLOSE(kept ? 0.5 / sqrt(x[i]) : 0.0, d1[i]);
    CHECK_CLOSE(kept ? prod * 0.5 / x[i] : 0.0, d2[i]);
    CHECK_CLOSE(x[i] != 0.0 ? -1.0 / (x[i] * x[i]) : 0.0, d3[i]);
  }
  struct Ctx c = {attention, T};
  CHECK_GRADIENT(call, &c, h, T, d4);
  return fd_report();
}
