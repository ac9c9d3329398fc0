// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// __restrict__ pointers throughout and a __noinline__ __device__ helper that
// reads through a restrict pointer and returns a value (a real call on GPU).
// GPU: check=512 time=4194304 n_in=3*N n_out=N grid=N/128 block=128
#include <math.h>
__device__ __noinline__ double rational(const double *__restrict__ p, int k) {
  double a = p[3 * k], b = p[3 * k + 1], c = p[3 * k + 2];
  return (a * a + b) / (1.0 + c * c) + log(a + b * c);
}
__device__ void body(const double *__restrict__ x, double *__restrict__ y,
                     const int *__restrict__ aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = rational(x, i) * x[3 * i + 1];
}
#include "lib/gpu_kernel.h"
