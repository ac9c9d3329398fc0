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
// lanes pass no adjoint. The same for divisions and square roots LICM
// hoists above the guard of their uses (a plain -O1..-O3 loop), lanes a
// masked store leaves out, and the NaN operand fmin and fmax do not
// choose (which also took the derivative from the chosen one). Gradients
// against analytic values and finite differences.
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

/* Guarded uses of a division or square root that LICM hoists out of the
   loop (computed whenever n > 0): with every guard false and d = 0 (or
   d < 0) the source never divides, and the derivative in d is 0. */
double hoisted_div(const double *x, const int *fl, double d, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    if (fl[i])
      s *= x[i] + 1.0 / d;
  return s;
}

double hoisted_sqrt(const double *x, const int *fl, double d, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    if (fl[i])
      s += x[i] * sqrt(d);
  return s;
}

/* fmin/fmax of a NaN arm are the other operand. */
double min_max_nan(double a, double b) {
  return fmax(a, log(b)) + fmin(a, sqrt(b));
}

/* Conditional stores, if-converted into masked stores where the target
   has them: the division runs in every lane. */
void guarded_store(const double *c, const double *y, double *o, int n) {
  for (int i = 0; i < n; i++)
    if (c[i] > 0)
      o[i] += c[i] / y[i] + sqrt(y[i]) * c[i];
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

  int none[6] = {0, 0, 0, 0, 0, 0}, some[6] = {1, 0, 0, 1, 0, 0};
  double d5[6] = {0}, d6[6] = {0}, d7[6] = {0};
  double dd5 = __enzyme_autodiff((void *)hoisted_div, enzyme_dup, x, d5,
                                 enzyme_const, none, enzyme_out, 0.0,
                                 enzyme_const, 6);
  double dd6 = __enzyme_autodiff((void *)hoisted_sqrt, enzyme_dup, x, d6,
                                 enzyme_const, none, enzyme_out, -1.0,
                                 enzyme_const, 6);
  double dd7 = __enzyme_autodiff((void *)hoisted_div, enzyme_dup, x, d7,
                                 enzyme_const, some, enzyme_out, 2.0,
                                 enzyme_const, 6);
  CHECK_CLOSE(0.0, dd5);
  CHECK_CLOSE(0.0, dd6);
  /* (x0 + 1/d)(x3 + 1/d) at d = 2: d/dd = -(x0 + x3 + 2/d) / d^2 */
  CHECK_CLOSE(-(x[0] + x[3] + 1.0) / 4.0, dd7);
  for (int i = 0; i < 6; ++i) {
    CHECK_CLOSE(0.0, d5[i]);
    CHECK_CLOSE(0.0, d6[i]);
    CHECK_CLOSE(i == 0 ? x[3] + 0.5 : i == 3 ? x[0] + 0.5 : 0.0, d7[i]);
  }

  /* fmax(1, log(-2)) + fmin(1, sqrt(-2)) = 1 + 1: d/da = 2, d/db = 0 */
  struct Pair { double da, db; };
  struct Pair __enzyme_autodiff_pair(void *, ...);
  struct Pair p = __enzyme_autodiff_pair((void *)min_max_nan, 1.0, -2.0);
  CHECK_CLOSE(2.0, p.da);
  CHECK_CLOSE(0.0, p.db);

  double cc[8], yy[8], oo[8], dc[8] = {0}, dy[8] = {0}, doo[8];
  for (int i = 0; i < 8; ++i) {
    cc[i] = (i % 2) ? -1.0 : 0.5;
    yy[i] = (i % 2) ? 0.0 : 4.0; /* rejected lanes divide by 0 */
    oo[i] = 0;
    doo[i] = 1;
  }
  __enzyme_autodiff((void *)guarded_store, enzyme_dup, cc, dc, enzyme_dup, yy,
                    dy, enzyme_dup, oo, doo, enzyme_const, 8);
  for (int i = 0; i < 8; ++i) {
    int kept = cc[i] > 0;
    CHECK_CLOSE(kept ? 1.0 / yy[i] + sqrt(yy[i]) : 0.0, dc[i]);
    CHECK_CLOSE(kept ? -cc[i] / (yy[i] * yy[i]) + 0.5 * cc[i] / sqrt(yy[i])
                     : 0.0,
                dy[i]);
    CHECK_CLOSE(1.0, doo[i]); /* accumulated into: the seed stays */
  }
  return fd_report();
}
