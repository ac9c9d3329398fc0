// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// y = tanh(M v) for a 256 x 256 matrix M (row per thread) and a vector v
// staged through a 64-element shared tile: each tile step's fill is
// computed (v scaled by exp), the barrier at the top of the step guards
// the previous step's reads. The reverse sweep fills the tile again.
// GPU: check=256 time=4096 n_in=N*N+N n_out=N grid=N/64 block=64
#include <math.h>
#define TILE 64
__device__ void body(const double *x, double *y, const int *aux, int n) {
  __shared__ double vt[TILE];
  const double *M = x, *v = x + n * n;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double acc = 0.0;
  for (int t = 0; t < n; t += TILE) {
    __syncthreads();
    vt[threadIdx.x] = v[t + threadIdx.x] * exp(0.1 * v[t + threadIdx.x]);
    __syncthreads();
    for (int j = 0; j < TILE; ++j)
      acc += M[(long)i * n + t + j] * vt[j];
  }
  y[i] = tanh(acc);
}
#include "lib/gpu_kernel.h"
