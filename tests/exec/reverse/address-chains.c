// Addresses stepped on integers through long chains of adds (Numba's
// loops, unrolled by LLVM at -O3 on a host with AVX-512, walk an array
// with `inttoptr (add (add ... (ptrtoint x) 8) 8)` dozens deep): the
// shadow address was followed through at most 6 adds (and the activity
// analysis through 8), so the loop's address phi was refused ("a phi
// joining addresses computed on integers, one of which has no shadow").
// Here each iteration steps a uintptr_t twelve times. Gradients against
// finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include <stdint.h>
#include <string.h>
enum { N = 24 };

#define STEP(k)                                                                \
  v = *(const double *)p;                                                      \
  s += (k + 1) * v * v;                                                        \
  p += sizeof(double);

double chained(const double *x, long n) {
  uintptr_t a = (uintptr_t)x;
  double s = 0, v;
  for (long i = 0; i + 12 <= n; i += 12) {
    uintptr_t p = a;
    STEP(0) STEP(1) STEP(2) STEP(3) STEP(4) STEP(5)
    STEP(6) STEP(7) STEP(8) STEP(9) STEP(10) STEP(11)
    a = p;
  }
  return s;
}

static double chained_fd(const double *x, void *c) {
  (void)c;
  return chained(x, N);
}

int main(void) {
  double x[N], dx[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.1 * (i % 7) - 0.25;
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)chained, enzyme_dup, x, dx, enzyme_const, (long)N);
  CHECK_GRADIENT(chained_fd, 0, x, N, dx);
  return fd_report();
}
