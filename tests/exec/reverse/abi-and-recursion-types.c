// RUN: sh %testlib/run-c.sh %s
//
// Two refusals of ordinary code found by the C hunt:
// - `struct {double; float; int}` passed by value to a noinline helper: the
//   x86-64 ABI packs the float and the int into one i64 that the caller
//   loads from the record and the helper takes apart (`trunc` and
//   `bitcast` to float, `lshr` for the int); refused at -O1..-O3 as
//   "reinterpreting the bits of active floating-point data". Each field is
//   now loaded by itself; likewise a `{float; int}` whose int a helper
//   updates in place in the packed word (an `and` keeping it).
// - A recursion over `x + 1` whose caller's caller also writes the array at
//   a constant index: the derivative's argument types named that index,
//   which moved at every depth (more than 64 derivatives requested). A
//   fact "every offset" already states is no longer repeated per index.
// Gradients against analytic values and finite differences.
#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double mu; float sigma; int k; } Prior;
__attribute__((noinline)) static double penalty(Prior p, double v) {
  double z = (v - p.mu) / p.sigma;
  return 0.5 * z * z * p.k;
}
double prior_loss(Prior *pp, double v) { return penalty(*pp, v) + pp->mu * v; }

/* {float; int} by value through noinline helpers: the ABI packs it into
 * one i64; `step` updates the int in place with an `and` and an `add` on
 * the word, `energy` unpacks the float. */
typedef struct { float w; int k; } Tagged;
__attribute__((noinline)) static Tagged step(Tagged t) {
  Tagged o = {t.w * 3.0f, t.k + 1};
  return o;
}
__attribute__((noinline)) static float energy(Tagged t) { return t.w * t.w * t.k; }
float tagged_loss(Tagged *p) { return energy(step(*p)); }
float __enzyme_autodiff_f(void *, ...);

static double rsum(const double *x, int n, double carry) {
  if (n == 0) return carry;
  return rsum(x + 1, n - 1, carry * 0.999 + x[0] * x[0]) + 1e-3 * x[0] * carry;
}
double chain(const double *x, int n) { return rsum(x, n, 0.5); }
static double chain_fd(const double *x, void *ctx) { return chain(x, *(int *)ctx); }

enum { M = 40 };
static double xs[120], dxs[120];

int main(void) {
  {
    Prior p = {0.1, 0.75f, 3}, dp = {0.5, 0.25f, 7};
    double v = 1.3;
    double dv = __enzyme_autodiff((void *)prior_loss, enzyme_dup, &p, &dp,
                                  enzyme_out, v);
    double z = (v - 0.1) / 0.75;
    CHECK_CLOSE(3 * z / 0.75 + 0.1, dv);
    CHECK_CLOSE(0.5 - 3 * z / 0.75 + v, dp.mu);
    CHECK_CLOSE_F(0.25 - 3 * z * z / 0.75, dp.sigma);
    CHECK(dp.k == 7); /* the shadow's integer field is left alone */
  }
  {
    /* energy = (3 w)^2 (k + 1): d/dw = 18 w (k + 1) */
    Tagged t = {0.6f, 3}, dt = {0.0f, 5};
    __enzyme_autodiff_f((void *)tagged_loss, enzyme_dup, &t, &dt);
    CHECK_CLOSE_F(18 * 0.6 * 4, dt.w);
    CHECK(dt.k == 5);
  }
  {
    for (int i = 0; i < 120; ++i) xs[i] = 0.5 + 0.3 * sin(0.7 * i);
    xs[100] = 0.25; /* a write at a constant index */
    volatile int vn = M;
    int n = vn;
    __enzyme_autodiff((void *)chain, enzyme_dup, xs, dxs, enzyme_const, n);
    double g[M];
    for (int i = 0; i < M; ++i) g[i] = dxs[i];
    double x[M];
    for (int i = 0; i < M; ++i) x[i] = xs[i];
    CHECK_GRADIENT(chain_fd, &n, x, M, g);
    for (int i = M; i < 120; ++i) CHECK(dxs[i] == 0);
  }
  return fd_report();
}
