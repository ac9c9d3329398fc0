// A noinline helper that swaps two structs of doubles, which clang -O1 and
// above turns into memcpy calls: the helper's own code says nothing of what
// the copied bytes are, and its derivative was refused ("a memory copy of
// active data whose type is mixed or unknown"). The caller's types of the
// memory it passes now go into the callee's request (requests/CallerTypes.h),
// so the copies move doubles. Against central differences.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

typedef struct { double a, b; } P;

__attribute__((noinline)) static void swap_pairs(P *p, P *q) {
  P t = *p;
  *p = *q;
  *q = t;
}

double loss(const double *x) {
  P p = {x[0] * exp(0.3 * x[1]), x[1] * x[2]};
  P q = {sin(x[2]), x[3] * x[0]};
  swap_pairs(&p, &q);
  return p.a * q.b + sin(p.b) * q.a + p.a;
}

static double loss_at(const double *x, void *ctx) {
  (void)ctx;
  return loss(x);
}

int main(void) {
  double x[4] = {1.5, -0.25, 0.75, 3.1}, dx[4] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx);
  for (int k = 0; k < 4; ++k) {
    double dir[4] = {0};
    dir[k] = 1.0;
    CHECK_CLOSE(fd_dir(loss_at, 0, x, dir, 4), dx[k]);
  }
  return fd_report();
}
