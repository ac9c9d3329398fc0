// A struct of an array of doubles and an int returned by value (sret) from
// a function that writes the array at a variable index, in a loop that
// copies the result back: the type analysis records the indexed stores as
// "a double somewhere", which the field-by-field copy once took for an
// unknown layout (a diagnostic at -O0 and -O1).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

typedef struct {
  double v[3];
  int tag;
} state;

__attribute__((noinline)) static state step(state a, double x) {
  state r;
  r.tag = a.tag + 1;
  for (int i = 0; i < 3; i++)
    r.v[i] = a.v[i] * x + a.v[(i + 1) % 3] / (1 + r.tag);
  return r;
}

double run(const double *x, int n) {
  state s = {{1, 2, 3}, 0};
  for (int i = 0; i < n; i++)
    s = step(s, x[i]);
  return s.v[0] + s.v[1] * s.v[2] + s.tag;
}

enum { N = 4 };
static double run_F(const double *v, void *c) {
  (void)c;
  return run(v, N);
}

int main(void) {
  double x[N] = {0.5, 1.5, -0.7, 0.9}, g[N] = {0};
  __enzyme_autodiff((void *)run, enzyme_dup, x, g, enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(fd_dir(run_F, 0, x, e, N), g[i]);
  }
  return fd_report();
}
