// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Read-only cache loads: __ldg() on the thread's own x, on the gather index
// from aux, and on the gathered x; gathered inputs repeat across threads.
// GPU: check=512 time=4194304 n_in=N n_out=N grid=N/128 block=128 aux=gather
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = __ldg(&x[i]);
  int j = __ldg(&aux[i]);
  double b = __ldg(x + j);
  double c = __ldg(&x[(i + 1) % n]);
  y[i] = a * exp(-b) + sqrt(a * b + c) - 0.25 * c * c;
}
#include "lib/gpu_kernel.h"
