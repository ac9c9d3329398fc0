// Copies of active data that clang emits as memcpy: between local arrays
// through zero-offset GEPs at -O0 (the activity analysis once compared the
// stripped operand and lost the copy: a zero gradient), swaps of elements
// of a local array of structs (element 0 is the zero-offset one), and
// struct copies whose type analysis also describes bytes before or after
// the copied range (fields of a larger struct passed by value).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <string.h>
double local_arrays(const double *x) {
  double a[2] = {x[0], x[1]};
  double c[2];
  memcpy(c, a, sizeof c);
  return c[0] * c[1];
}
typedef struct { double a, w; } W;
double swap_structs(const double *x) {
  W arr[3] = {{x[0], 1}, {x[1], 2}, {x[2], 3}};
  W t = arr[0];
  arr[0] = arr[2];
  arr[2] = t;
  double s = 0;
  for (int i = 0; i < 3; ++i) s += (i + 1) * arr[i].a * arr[i].w;
  return s;
}
typedef struct { double x, y, z; } V3;
typedef struct { V3 a; V3 b; int tag; } P;
__attribute__((noinline)) static V3 mul(V3 a, V3 b) {
  V3 r = {a.x * b.x, a.y * b.y, a.z * b.z};
  return r;
}
__attribute__((noinline)) static P mk(const double *x) {
  P p = {{x[0], x[1], x[2]}, {x[3], x[4], x[5]}, 7};
  return p;
}
double fields_of_larger(const double *x) {
  P p = mk(x);
  V3 c = mul(p.a, p.b);
  return c.x + c.y + c.z;
}
static double local_fd(const double *x, void *c) { (void)c; return local_arrays(x); }
static double swap_fd(const double *x, void *c) { (void)c; return swap_structs(x); }
static double larger_fd(const double *x, void *c) { (void)c; return fields_of_larger(x); }
int main(void) {
  double x[6] = {0.3, -0.7, 1.1, 0.2, 0.5, -0.4};
  double d1[2] = {0}, d2[3] = {0}, d3[6] = {0};
  __enzyme_autodiff((void *)local_arrays, enzyme_dup, x, d1);
  CHECK_CLOSE(x[1], d1[0]);
  CHECK_CLOSE(x[0], d1[1]);
  CHECK_GRADIENT(local_fd, 0, x, 2, d1);
  __enzyme_autodiff((void *)swap_structs, enzyme_dup, x, d2);
  // arr = {x2 w3, x1 w2, x0 w1} weighted 1, 2, 3: d/dx = {3, 4, 3}.
  CHECK_CLOSE(3.0, d2[0]);
  CHECK_CLOSE(4.0, d2[1]);
  CHECK_CLOSE(3.0, d2[2]);
  CHECK_GRADIENT(swap_fd, 0, x, 3, d2);
  __enzyme_autodiff((void *)fields_of_larger, enzyme_dup, x, d3);
  for (int i = 0; i < 6; ++i) CHECK_CLOSE(x[(i + 3) % 6], d3[i]);
  CHECK_GRADIENT(larger_fd, 0, x, 6, d3);
  return fd_report();
}
