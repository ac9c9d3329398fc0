// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Data-dependent while loop: Newton iteration for Kepler's equation
// E - e sin E = M per thread, to a tolerance, bounded at 50 steps.
// GPU: check=512 time=4194304 n_in=2*N n_out=N grid=N/128 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double e = 0.5 * x[2 * i], M = 2.0 * x[2 * i + 1];
  double E = M + e * sin(M);
  int it = 0;
  double dE = 1.0;
  while (fabs(dE) > 1e-14 && it < 50) {
    double f = E - e * sin(E) - M;
    double fp = 1.0 - e * cos(E);
    dE = f / fp;
    E -= dE;
    ++it;
  }
  y[i] = E * E + sin(E) * e;
}
#include "lib/gpu_kernel.h"
