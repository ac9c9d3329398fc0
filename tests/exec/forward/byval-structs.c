// Structs larger than 16 bytes passed by value (`byval`) and returned
// through sret, inside the differentiated code and as a request argument:
// the callee's copy (and its shadow) may be modified without touching the
// caller's.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>

typedef struct { double a, b, c; int n; } S;
typedef struct { double v[5]; } Big;

__attribute__((noinline)) double g(S s, double x) {
  s.a *= x;
  return s.a + s.b * s.c + s.n;
}
__attribute__((noinline)) Big make(double x) {
  Big b;
  for (int i = 0; i < 5; ++i)
    b.v[i] = sin(x * (i + 1));
  return b;
}
double f(double x) {
  S s = {x, 2 * x, 3, 1};
  double r = g(s, x);
  Big b = make(x);
  return r + s.a + b.v[4] * b.v[1];
}
double gs(S s, double x) { return g(s, x); }

static double f_fd(const double *v, void *c) {
  (void)c;
  return f(v[0]);
}

int main(void) {
  double x = 0.8, one = 1;
  CHECK_CLOSE(fd_dir(f_fd, 0, &x, &one, 1), __enzyme_fwddiff((void *)f, x, 1.0));
  S s = {1.5, 2.0, 3.0, 4}, ds = {1, 0, 0.5, 0};
  double expected = (ds.a * x + s.a) + ds.b * s.c + s.b * ds.c;
  CHECK_CLOSE(expected,
              __enzyme_fwddiff((void *)gs, enzyme_dup, s, ds, x, 1.0));
  CHECK_CLOSE(1.0, ds.a); /* the caller's shadow is untouched */
  CHECK_CLOSE(1.5, s.a);
  return fd_report();
}
