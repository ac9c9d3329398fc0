// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Two outputs per thread through sincos(): a polar-to-Cartesian map with a
// radius and an angle from x, written to y[2i] and y[2i+1].
// GPU: check=512 time=4194304 n_in=2*N n_out=2*N grid=N/128 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double r = x[2 * i], theta = 2.5 * x[2 * i + 1];
  double s, c;
  sincos(theta, &s, &c);
  double s2, c2;
  sincos(r * theta, &s2, &c2);
  y[2 * i] = r * c + 0.1 * s2;
  y[2 * i + 1] = r * s - 0.1 * c2 * r;
}
#include "lib/gpu_kernel.h"
