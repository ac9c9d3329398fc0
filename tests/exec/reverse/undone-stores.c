// Loads read again in the reverse sweep although a later write may change
// their memory:
//  - the last store into an argument's or a global's memory (`*out = s` at
//    the end) is undone by the reverse sweep and done again at its end: the
//    loads before it read what they read, the caller sees the stored value,
//    also when `out` is the input array itself;
//  - the free of a temporary allocated outside loops moves to the reverse
//    sweep, so its loads are not cached;
//  - a loop nest whose inner trip count is the same in every outer
//    iteration (behind an invariant guard) reserves its caches once.
// Gradients against finite differences or the analytic formula; primal
// side effects checked after each call.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>

enum { N = 6 };

/* out = sum w x_i^2, written once at the end */
void sum_sq_out(const double *x, int n, double w, double *out) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w * x[i] * x[i];
  *out = s;
}

/* reads p[0..n] recursively; the caller then overwrites p[0] */
__attribute__((noinline)) double sum_rec(const double *p, int n) {
  if (n == 0)
    return p[0] * p[0];
  return p[0] * p[0] + sum_rec(p + 1, n - 1);
}
double sum_then_zero(double *p, int n) {
  double s = sum_rec(p, n);
  p[0] = 0;
  return s * s;
}

/* a temporary read after it is filled, freed on one of two paths each */
double temp_sum(const double *x, int n, int k) {
  double *t = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    t[i] = sin(x[i]) * (k + 1);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * t[n - 1 - i];
  if (k > 0) {
    free(t);
    return s;
  }
  s += t[0] * x[1];
  free(t);
  return 2 * s;
}

/* a recurrence in an inner loop whose count is the same in every outer
 * iteration, behind a guard the outer loop does not change */
double nest(const double *a, int n, int m) {
  double s = 0.5;
  for (int i = 0; i < n; ++i)
    if (m > 0)
      for (int j = 0; j < m; ++j)
        s = 0.9 * s + sin(a[j] * (i + 1)) * s;
  return s;
}

double g_result, d_g_result;
void *__enzyme_shadow_global_g_result[2] = {&g_result, &d_g_result};
double to_global(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += exp(x[i]) * x[(i + 1) % n];
  g_result = s;
  return 3 * s;
}

struct ctx { int n, k; };
static double out_F(const double *x, void *c) {
  double out;
  sum_sq_out(x, ((struct ctx *)c)->n, 1.5, &out);
  return out;
}
static double zero_F(const double *x, void *c) {
  double p[N];
  for (int i = 0; i < N; ++i)
    p[i] = x[i];
  return sum_then_zero(p, ((struct ctx *)c)->n - 1);
}
static double temp_F(const double *x, void *c) {
  struct ctx *cc = c;
  return temp_sum(x, cc->n, cc->k);
}
static double nest_F(const double *x, void *c) {
  struct ctx *cc = c;
  return nest(x, cc->n, cc->k);
}
static double global_F(const double *x, void *c) {
  return to_global(x, ((struct ctx *)c)->n);
}

int main(void) {
  const double x0[N] = {0.3, -0.7, 1.1, 0.45, -1.3, 0.8};
  volatile int nv = N;
  int n = nv;
  struct ctx c = {n, 0};

  {
    double x[N], dx[N] = {0}, out = 0, dout = 1;
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    __enzyme_autodiff((void *)sum_sq_out, enzyme_dup, x, dx, enzyme_const, n,
                      enzyme_const, 1.5, enzyme_dupnoneed, &out, &dout);
    CHECK_GRADIENT(out_F, &c, x, N, dx);
    double s = 0;
    for (int i = 0; i < N; ++i)
      s += 1.5 * x[i] * x[i];
    CHECK_CLOSE(s, out);
    CHECK(dout == 0);
  }
  {
    /* out is x[0]: the loads of x[0] must read its value before the store
     * (2 w x0), not the sum the store leaves there. */
    double x[N], dx[N] = {1, 0, 0, 0, 0, 0};
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    __enzyme_autodiff((void *)sum_sq_out, enzyme_dup, x, dx, enzyme_const, n,
                      enzyme_const, 1.5, enzyme_dupnoneed, x, dx);
    double s = 0;
    for (int i = 0; i < N; ++i)
      s += 1.5 * x0[i] * x0[i];
    CHECK_CLOSE(s, x[0]);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(3 * x0[i], dx[i]);
      if (i > 0)
        CHECK(x[i] == x0[i]);
    }
  }
  {
    double p[N], dp[N] = {0};
    for (int i = 0; i < N; ++i)
      p[i] = x0[i];
    __enzyme_autodiff((void *)sum_then_zero, enzyme_dup, p, dp, enzyme_const,
                      n - 1);
    double s = 0;
    for (int i = 0; i < N; ++i)
      s += x0[i] * x0[i];
    CHECK(p[0] == 0);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(4 * s * x0[i], dp[i]);
    CHECK_GRADIENT(zero_F, &c, x0, N, dp);
  }
  for (int k = 0; k < 2; ++k) {
    double x[N], dx[N] = {0};
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    __enzyme_autodiff((void *)temp_sum, enzyme_dup, x, dx, enzyme_const, n,
                      enzyme_const, k);
    struct ctx ck = {n, k};
    CHECK_GRADIENT(temp_F, &ck, x, N, dx);
  }
  for (int m = 0; m <= N; m += 3) {
    for (int outer = 0; outer < 4; outer += 3) {
      double x[N], dx[N] = {0};
      for (int i = 0; i < N; ++i)
        x[i] = x0[i];
      __enzyme_autodiff((void *)nest, enzyme_dup, x, dx, enzyme_const, outer,
                        enzyme_const, m);
      struct ctx cn = {outer, m};
      CHECK_GRADIENT(nest_F, &cn, x, N, dx);
    }
  }
  {
    double x[N], dx[N] = {0};
    for (int i = 0; i < N; ++i)
      x[i] = x0[i];
    g_result = -1;
    __enzyme_autodiff((void *)to_global, enzyme_dup, x, dx, enzyme_const, n);
    double s = 0;
    for (int i = 0; i < N; ++i)
      s += exp(x0[i]) * x0[(i + 1) % N];
    CHECK_CLOSE(s, g_result);
    CHECK_GRADIENT(global_F, &c, x, N, dx);
  }
  return fd_report();
}
