// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// An elementwise map through libdevice math: each thread reads and writes
// its own element (the thread-private case: plain adjoint stores).
// GPU: check=512 time=4194304 n_in=N n_out=N grid=N/128 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double v = x[i];
    y[i] = sin(v) * exp(0.5 * v) + log(1.0 + v * v) + sqrt(2.0 + cos(v)) +
           tanh(v) * pow(1.5 + v * v, 0.75) + rsqrt(3.0 + v * v) +
           erf(0.3 * v) + fabs(v) * cbrt(1.0 + fabs(v));
  }
}
#include "lib/gpu_kernel.h"
