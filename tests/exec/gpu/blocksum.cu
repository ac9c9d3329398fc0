// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// A block reduction through shared memory with __syncthreads: each block
// sums f(x) over its elements and adds the sum to y[0] atomically.
// GPU: check=512 time=4194304 n_in=N n_out=1 grid=N/256 block=256
__device__ void body(const double *x, double *y, const int *aux, int n) {
  __shared__ double partial[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? x[i] * x[i] * 0.5 + sin(x[i]) : 0.0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride)
      partial[t] += partial[t + stride] * (1.0 + 0.01 * stride);
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(&y[0], partial[0]);
}
#include "lib/gpu_kernel.h"
