// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Weighted histogram: every thread adds f(x[i]) into bin aux[i % n_out] %
// n_out with atomicAdd (y zeroed by the driver); many x land in one bin.
// GPU: check=512 time=4194304 n_in=N n_out=N/4 grid=N/128 block=128 aux=gather
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int nbins = n / 4;
  if (i < n) {
    int bin = aux[i % nbins] % nbins;
    double v = x[i];
    atomicAdd(&y[bin], v * exp(-v) + sqrt(v));
    atomicAdd(&y[(bin + 1) % nbins], 0.5 * v * v);
  }
}
#include "lib/gpu_kernel.h"
