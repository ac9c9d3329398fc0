// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// A gather with repeated indices: y[i] = g(x[aux[i]]), many i reading the
// same x element, so the adjoints of x meet in one place (the atomic case).
// GPU: check=512 time=4194304 n_in=N/8 n_out=N grid=N/128 block=128 aux=gather
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[aux[i]];
    y[i] = exp(-v * v) + v * log1p(v * v);
  }
}
#include "lib/gpu_kernel.h"
