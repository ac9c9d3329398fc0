// Records `{double; int;}` split into a double array and an int array
// (array-of-structs to struct-of-arrays), and three records copied whole
// into a local array with one memcpy. The int field's copy into the int
// array used to carry the facts of the whole record with it, so the int
// array took the next record's double as well ("anything") and the copy
// was refused at -O0..-O3, in both modes; the memcpy of 48 bytes saw the
// record layout once, not three times, and was refused at -O0/-O1.
// Both modes against finite differences.
// RUN: sh %testlib/run-c.sh %s
#include <string.h>
#include "enzyme.h"
#include "fdcheck.h"

typedef struct {
  double x;
  int id;
} Point;

double split_fields(const Point *p, int n) {
  double x[8];
  int id[8];
  for (int i = 0; i < n; i++) {
    x[i] = p[i].x;
    id[i] = p[i].id;
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * id[i];
  return s;
}

double copy_three(const Point *p) {
  Point q[3];
  memcpy(q, p, sizeof q);
  return q[0].x * q[1].x * q[0].id + q[2].x * q[2].id;
}

enum { N = 3 };
static Point make(const double *x, int k) {
  Point r = {x[k], k + 2};
  return r;
}
static double split_of(const double *x, void *ctx) {
  (void)ctx;
  Point p[N] = {make(x, 0), make(x, 1), make(x, 2)};
  return split_fields(p, N);
}
static double copy_of(const double *x, void *ctx) {
  (void)ctx;
  Point p[N] = {make(x, 0), make(x, 1), make(x, 2)};
  return copy_three(p);
}

int main(void) {
  double x[N] = {0.5, -1.5, 2.0}, dir[N] = {1, -2, 0.5};
  Point p[N] = {make(x, 0), make(x, 1), make(x, 2)}, dp[N], tp[N];
  double grad[N];

  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)split_fields, enzyme_dup, p, dp, enzyme_const, N);
  for (int i = 0; i < N; i++) grad[i] = dp[i].x;
  CHECK_GRADIENT(split_of, NULL, x, N, grad);
  memset(tp, 0, sizeof tp);
  for (int i = 0; i < N; i++) tp[i].x = dir[i];
  CHECK_CLOSE(fd_dir(split_of, NULL, x, dir, N),
              __enzyme_fwddiff((void *)split_fields, enzyme_dup, p, tp,
                               enzyme_const, N));

  memset(dp, 0, sizeof dp);
  __enzyme_autodiff((void *)copy_three, enzyme_dup, p, dp);
  for (int i = 0; i < N; i++) grad[i] = dp[i].x;
  CHECK_GRADIENT(copy_of, NULL, x, N, grad);
  CHECK_CLOSE(fd_dir(copy_of, NULL, x, dir, N),
              __enzyme_fwddiff((void *)copy_three, enzyme_dup, p, tp));
  return fd_report();
}
