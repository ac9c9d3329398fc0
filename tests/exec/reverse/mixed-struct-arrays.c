// Arrays of structs that mix doubles with integers, indexed at run time:
// the type analysis keeps facts per element (`p[i].field` at its offset in
// the element), so struct copies and swaps move the doubles' adjoints and
// leave the integers alone (they were "mixed or unknown" diagnostics: every
// field at "every offset"). Reverse mode against central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

typedef struct { double x, v; int id; } Part;
typedef struct { double b; int k; } Cell;

__attribute__((noinline)) double swapped(const double *in, int n) {
  Part p[8];
  for (int i = 0; i < n; i++) {
    p[i].x = in[2 * i];
    p[i].v = in[2 * i + 1];
    p[i].id = i;
  }
  for (int i = 0; i + 1 < n; i += 2) {
    Part t = p[i];
    p[i] = p[i + 1];
    p[i + 1] = t;
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += p[i].x * (i + 1) * p[i].v + p[i].id * sin(p[i].x);
  return e;
}

__attribute__((noinline)) double cells(const double *in, int n) {
  Cell m[8];
  for (int j = 0; j < n; j++) {
    m[j].b = in[j] * in[j];
    m[j].k = j % 3;
  }
  for (int j = n - 1; j > 0; j--)
    if (m[j].k != 1)
      m[j] = m[j - 1];
  double s = 0;
  for (int j = 0; j < n; j++)
    s += m[j].b * (m[j].k + 1) + exp(0.1 * in[j] * m[j].b);
  return s;
}

static double swapped_at(const double *x, void *ctx) { return swapped(x, 4); }
static double cells_at(const double *x, void *ctx) { return cells(x, 8); }

int main(void) {
  double x[8] = {0.3, -1.2, 0.8, 0.45, -0.6, 1.1, 0.25, -0.9};
  for (int i = 0; i < 8; i++) {
    double e[8] = {0}, dx[8] = {0}, dx2[8] = {0};
    e[i] = 1;
    __enzyme_autodiff((void *)swapped, enzyme_dup, x, dx, enzyme_const, 4);
    CHECK_CLOSE(fd_dir(swapped_at, 0, x, e, 8), dx[i]);
    __enzyme_autodiff((void *)cells, enzyme_dup, x, dx2, enzyme_const, 8);
    CHECK_CLOSE(fd_dir(cells_at, 0, x, e, 8), dx2[i]);
  }
  return fd_report();
}
