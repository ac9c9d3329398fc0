// RUN: sh %testlib/run-c.sh %s
//
// Records whose copies move padding: `{double x, y; int cell}` (four bytes
// of padding after the int) sorted by cell with whole-record assignments,
// then integrated. At -O0 and -O1 the copies move the padding as an
// integer of its own, which was refused as an integer copy of memory of
// unknown type (found by a hunt); the record type declares those bytes
// padding. Gradients against finite differences.
#include <stdlib.h>
#include "enzyme.h"
#include "fdcheck.h"

struct P { double x, y; int cell; };

static void sort_by_cell(struct P *p, int n) {
  for (int i = 1; i < n; ++i) {
    struct P key = p[i];
    int j = i - 1;
    while (j >= 0 && p[j].cell > key.cell) {
      p[j + 1] = p[j];
      --j;
    }
    p[j + 1] = key;
  }
}

static double simulate(const double *x, int n) {
  struct P *p = malloc(sizeof(struct P) * n);
  for (int i = 0; i < n; ++i) {
    p[i].x = x[2 * i];
    p[i].y = x[2 * i + 1];
    p[i].cell = (i * 7 + 3) % 5;
  }
  sort_by_cell(p, n);
  for (int s = 0; s < 3; ++s)
    for (int i = 0; i < n; ++i) {
      double fx = -p[i].x * 0.3 + (i > 0 ? 0.1 * p[i - 1].y : 0.0);
      double fy = -p[i].y * 0.2 + 0.05 * p[i].cell;
      p[i].x += 0.1 * fx * p[i].y;
      p[i].y += 0.1 * fy;
    }
  double e = 0;
  for (int i = 0; i < n; ++i)
    e += (i + 1) * (p[i].x * p[i].x + p[i].y * p[i].y * p[i].x);
  free(p);
  return e;
}
static double simulate_fd(const double *x, void *ctx) { return simulate(x, *(int *)ctx); }

int main(void) {
  int n = 7;
  double x[14], dx[14] = {0};
  for (int i = 0; i < 14; ++i) x[i] = 0.4 + sin(i * 1.3);
  __enzyme_autodiff((void *)simulate, enzyme_dup, x, dx, enzyme_const, n);
  CHECK_GRADIENT(simulate_fd, &n, x, 14, dx);
  return fd_report();
}
