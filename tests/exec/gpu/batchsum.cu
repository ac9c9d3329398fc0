// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Two rows of a batch on a 2-D grid of 1-D blocks (blockIdx.y is the row):
// each block reduces its part of a row through shared memory. The shared
// tree's adjoints are plain when the block is one-dimensional, whatever
// the grid's shape (only the block shares the array).
// GPU: check=512 time=2097152 n_in=2*N n_out=2*N/256 grid=N/256,2 block=256
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  __shared__ double s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int row = blockIdx.y;
  s[t] = i < n ? exp(0.1 * x[row * n + i]) * x[row * n + i] : 0.0;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k)
      s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0)
    y[row * gridDim.x + blockIdx.x] = log(1.0 + s[0] * s[0]);
}
#include "lib/gpu_kernel.h"
