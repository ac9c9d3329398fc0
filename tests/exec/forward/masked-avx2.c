// Vectorized for AVX2 at -O2/-O3: the conditional store becomes
// llvm.masked.store, which the core mirrors on the shadow under the same
// mask; the indirect read is a gather at higher vector widths.
// REQUIRES: avx2
// RUN: env ADTEST_LEVELS="2 3" sh %testlib/run-c.sh %s -march=haswell

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>

void relu_scale(double *restrict y, const double *restrict x,
                const int *restrict idx, int n) {
  for (int i = 0; i < n; ++i)
    if (x[i] > 0.1)
      y[i] = x[i] * x[i];
  for (int i = 0; i < n; ++i)
    y[i] += 0.5 * x[idx[i]];
}

int main(void) {
  enum { N = 37 };
  double x[N], dx[N], y[N], dy[N];
  int idx[N];
  for (int i = 0; i < N; ++i) {
    x[i] = sin(i * 0.7);
    dx[i] = cos(i * 0.3);
    y[i] = 1;
    dy[i] = 0;
    idx[i] = (i * 7) % N;
  }
  __enzyme_fwddiff_void((void *)relu_scale, enzyme_dup, y, dy, enzyme_dup, x,
                        dx, enzyme_const, idx, N);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE((x[i] > 0.1 ? 2 * x[i] * dx[i] : 0) + 0.5 * dx[idx[i]], dy[i]);
  return fd_report();
}
