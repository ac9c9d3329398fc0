// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Four weights every thread reads (stored after the n inputs): the
// adjoints of all 32 lanes of a warp go to one address, which the reverse
// sweep adds with one warp-summed atomic per warp (WarpAggregation.cpp).
// GPU: check=512 time=4194304 n_in=N+4 n_out=N grid=N/128 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const double *w = x + n;
    double v = x[i];
    y[i] = w[0] + v * (w[1] + v * (w[2] + v * w[3])) + tanh(w[0] * v);
  }
}
#include "lib/gpu_kernel.h"
