// RUN: sh %testlib/run-c.sh %s
//
// Recursive functions returning structs through memory (sret: more than
// two doubles), kept as calls: their split derivatives take the sret
// pointer as an ordinary duplicated pointer (the halves return their
// tape). Refused before at -O0..-O2 ("a call kept as a call (recursive)
// ... with a byval or sret parameter"; found by the C hunt). Gradients
// against finite differences and analytic values.
#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double v, s, c; } Val;
static Val prod_and_squares(const double *x, int n) {
  Val r = {x[0], x[0] * x[0], 1};
  if (n > 1) {
    Val t = prod_and_squares(x + 1, n - 1);
    r.v *= t.v;
    r.s += t.s;
    r.c += t.c;
  }
  return r;
}
double summary(const double *x, int n) {
  Val r = prod_and_squares(x, n);
  return r.v + r.s * r.c;
}
static double summary_fd(const double *x, void *ctx) { return summary(x, *(int *)ctx); }

/* A binary split: each half's moments combined (mean, second moment and
 * count of a range), called from two places. */
typedef struct { double m1, m2, n, mx; } Moments;
static Moments moments(const double *x, int lo, int hi) {
  if (hi - lo == 1) {
    Moments one = {x[lo], x[lo] * x[lo], 1, sin(x[lo])};
    return one;
  }
  int mid = (lo + hi) / 2;
  Moments a = moments(x, lo, mid), b = moments(x, mid, hi);
  Moments r = {a.m1 + b.m1, a.m2 + b.m2, a.n + b.n, a.mx + b.mx * b.mx};
  return r;
}
double spread(const double *x, int n) {
  Moments all = moments(x, 0, n), head = moments(x, 0, n / 2);
  double mean = all.m1 / all.n;
  return all.m2 / all.n - mean * mean + 0.5 * head.mx + all.mx;
}
static double spread_fd(const double *x, void *ctx) { return spread(x, *(int *)ctx); }

int main(void) {
  {
    double x[5] = {0.5, 1.5, -0.75, 1.2, 0.9}, dx[5] = {0};
    volatile int vn = 5;
    int n = vn;
    __enzyme_autodiff((void *)summary, enzyme_dup, x, dx, enzyme_const, n);
    CHECK_GRADIENT(summary_fd, &n, x, 5, dx);
  }
  {
    double x[7] = {0.3, -0.2, 0.8, 1.1, -0.6, 0.45, 0.7}, dx[7];
    for (int i = 0; i < 7; ++i) dx[i] = 0.125 * i; /* accumulated into */
    volatile int vn = 7;
    int n = vn;
    __enzyme_autodiff((void *)spread, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < 7; ++i) dx[i] -= 0.125 * i;
    CHECK_GRADIENT(spread_fd, &n, x, 7, dx);
  }
  return fd_report();
}
