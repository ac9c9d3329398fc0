// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// A small ODE per thread: 40 explicit midpoint steps of a damped
// nonlinear oscillator whose parameters come from x; the loop's values are
// recomputed or kept on the thread's tape for the reverse sweep.
// GPU: check=512 time=65536 n_in=2*N n_out=N grid=N/64 block=64
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double k = x[2 * i], c = x[2 * i + 1];
  double p = 1.0, v = 0.0, h = 0.05;
  for (int s = 0; s < 40; ++s) {
    double a = -k * sin(p) - c * v;
    double pm = p + 0.5 * h * v, vm = v + 0.5 * h * a;
    double am = -k * sin(pm) - c * vm;
    p += h * vm;
    v += h * am;
  }
  y[i] = p * p + 0.5 * v;
}
#include "lib/gpu_kernel.h"
