// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// A pair loop per thread (every thread reads all of x, then writes two
// results): y may overlap x, so the loop's loads would be cached per
// iteration (a tape of n values per thread, on the device heap past 64);
// the body is versioned on x and y not overlapping, and that copy reads x
// again instead.
// GPU: check=256 time=16384 n_in=N n_out=2*N grid=N/128 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double xi = x[i], f = 0.0, g = 0.0;
  for (int j = 0; j < n; ++j) {
    double d = x[j] - xi;
    double r = rsqrt(d * d + 0.25);
    f += d * r * r * r;
    g += r;
  }
  y[i] = f;
  y[n + i] = g;
}
#include "lib/gpu_kernel.h"
