// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Block-wise sums without shared memory: every thread of a block adds its
// term to y[blockIdx.x] with atomicAdd on double (y zeroed by the driver).
// GPU: check=512 time=4194304 n_in=N n_out=N/128 grid=N/128 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double v = x[i];
  double w = 1.0 + 0.01 * threadIdx.x;
  atomicAdd(&y[blockIdx.x], w * v * log(1.0 + v) + cos(v) * v);
}
#include "lib/gpu_kernel.h"
