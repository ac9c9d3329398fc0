// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Block-level softmax over each block's 128 elements in shared memory, two
// reduction phases (max, then sum of exponentials) separated by __syncthreads.
// GPU: check=512 time=4194304 n_in=N n_out=N grid=N/128 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  __shared__ double red[128];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  double v = i < n ? 2.0 * x[i] : -1e300;
  red[t] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] = fmax(red[t], red[t + s]);
    __syncthreads();
  }
  double m = red[0];
  __syncthreads();
  double e = i < n ? exp(v - m) : 0.0;
  red[t] = e;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      red[t] += red[t + s];
    __syncthreads();
  }
  double total = red[0];
  if (i < n)
    y[i] = e / total;
}
#include "lib/gpu_kernel.h"
