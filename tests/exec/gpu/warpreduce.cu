// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Shared-memory block sum without shuffles: tree steps with __syncthreads
// down to 64 elements, then the last warp finishes on a volatile pointer
// to the shared array (read, __syncwarp, write, as Volta+ requires).
// y[blockIdx.x] = log(1 + block sum of f(x)).
// GPU: check=512 time=4194304 n_in=N n_out=N/256 grid=N/256 block=256
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  __shared__ double sdata[256];
  unsigned t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  double v = i < n ? x[i] : 0.0;
  sdata[t] = i < n ? v * v * exp(-0.5 * v) + 0.1 * v : 0.0;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t < 32) {
    volatile double *vs = sdata;
    for (unsigned s = 32; s > 0; s >>= 1) {
      double r = vs[t] + vs[t + s];
      __syncwarp();
      vs[t] = r;
      __syncwarp();
    }
  }
  if (t == 0)
    y[blockIdx.x] = log(1.0 + sdata[0]);
}
#include "lib/gpu_kernel.h"
