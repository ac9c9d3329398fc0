// Structs passed by value (byval on x86-64) with enzyme_dup in reverse
// mode: the adjoints are added into the shadow struct the caller passed
// (they were once added into the callee's private copy of it and lost:
// a gradient of zero, silently). Also a callee that changes its own copy,
// and a struct holding an array and an int. Against analytic values and
// central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>
/* Structs passed by value (`byval` on x86-64: over 16 bytes) with
   enzyme_dup: the adjoints go into the shadow struct the caller passed. */
typedef struct { double a, b, c; } P;
typedef struct { double w[4]; int n; double bias; } Layer;
__attribute__((noinline)) double prod(P p) { return p.a * p.b * p.c; }
/* The callee changes its own copy. */
__attribute__((noinline)) double modify(P p) {
  p.a *= 2;
  p.b = sin(p.a) + p.b;
  return p.a * p.b + p.c * p.c;
}
__attribute__((noinline)) double layer(Layer l, const double *x) {
  double s = l.bias;
  for (int i = 0; i < l.n; i++) s += l.w[i] * x[i];
  return tanh(s);
}
int main(void) {
  P p = {2, 3, 4}, dp = {0, 0, 0};
  __enzyme_autodiff_void((void *)prod, enzyme_dup, &p, &dp);
  CHECK_CLOSE(12.0, dp.a);
  CHECK_CLOSE(8.0, dp.b);
  CHECK_CLOSE(6.0, dp.c);
  P q = {0.3, -0.7, 1.1}, dq = {0, 0, 0};
  __enzyme_autodiff_void((void *)modify, enzyme_dup, &q, &dq);
  double *qv = &q.a, *dqv = &dq.a;
  for (int k = 0; k < 3; k++) {
    P a = q, b = q;
    double h = 1e-6;
    (&a.a)[k] += h; (&b.a)[k] -= h;
    CHECK_CLOSE((modify(a) - modify(b)) / (2 * h), dqv[k]);
    (void)qv;
  }
  CHECK_CLOSE(0.3, q.a); /* the caller's struct is unchanged */
  Layer l = {{0.5, -0.2, 0.8, 0.1}, 4, 0.05}, dl = {{0}, 0, 0};
  double x[4] = {1.0, 2.0, -0.5, 0.3}, dx[4] = {0};
  __enzyme_autodiff_void((void *)layer, enzyme_dup, &l, &dl, enzyme_dup, x, dx);
  for (int k = 0; k < 4; k++) {
    Layer a = l, b = l;
    double h = 1e-6;
    a.w[k] += h; b.w[k] -= h;
    CHECK_CLOSE((layer(a, x) - layer(b, x)) / (2 * h), dl.w[k]);
  }
  {
    Layer a = l, b = l;
    double h = 1e-6;
    a.bias += h; b.bias -= h;
    CHECK_CLOSE((layer(a, x) - layer(b, x)) / (2 * h), dl.bias);
  }
  return fd_report();
}
