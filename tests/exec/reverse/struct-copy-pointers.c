// A struct holding a heap pointer, copied whole (a memcpy at -O0), then
// used through the copy: the original must get a shadow too, or the
// copy's shadow pointer is null (a crash, or at -O1 and up an
// `unreachable` the optimizer derives from the null store).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>
typedef struct { double *p; long n; double scale[2]; } buf;
__attribute__((noinline)) static buf make(long n) {
  buf b = {malloc(n * sizeof(double)), n, {1.5, 0.5}};
  return b;
}
double f(const double *x, long n) {
  buf s = make(n);
  buf t = s;
  for (long i = 0; i < t.n; ++i) t.p[i] = x[i] * x[i] * t.scale[0];
  buf u;
  u = t;
  double r = 0;
  for (long i = 0; i < n; ++i) r += sin(u.p[i]) + s.p[i] * u.scale[1];
  free(s.p);
  return r;
}
// Only a pointer and a length: the copy moves shadow pointers alone.
typedef struct { double *p; long n; } vec;
double g(const double *x, long n) {
  vec s;
  s.p = malloc(n * sizeof(double));
  s.n = n;
  vec t = s;
  for (long i = 0; i < t.n; ++i) t.p[i] = x[i] * x[i];
  double r = 0;
  for (long i = 0; i < n; ++i) r += sin(t.p[i]);
  free(s.p);
  return r;
}
static double g_fd(const double *x, void *ctx) { return g(x, *(long *)ctx); }
static double f_fd(const double *x, void *ctx) { return f(x, *(long *)ctx); }
int main(void) {
  long n = 4;
  double x[4] = {0.3, -0.7, 1.1, 0.2}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
  CHECK_GRADIENT(f_fd, &n, x, 4, dx);
  for (int i = 0; i < 4; ++i)  // d/dx (sin(1.5 x^2) + 0.75 x^2)
    CHECK_CLOSE(cos(1.5 * x[i] * x[i]) * 3 * x[i] + 1.5 * x[i], dx[i]);
  double dy[4] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, x, dy, enzyme_const, n);
  CHECK_GRADIENT(g_fd, &n, x, 4, dy);
  return fd_report();
}
