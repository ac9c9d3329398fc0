// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Grid-stride loop: fewer threads than elements, each thread handles several.
// GPU: check=512 time=4194304 n_in=N n_out=N grid=N/512 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int stride = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    double v = x[i];
    y[i] = v * exp(-0.5 * v) + log(1.0 + v) * cos(v);
  }
}
#include "lib/gpu_kernel.h"
