// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// One explicit step of 2-D diffusion with a nonlinear source on an n x n
// grid, launched on a 2-D grid of 2-D blocks: each input is read by five
// threads, so its adjoint is added atomically.
// GPU: check=32 time=2048 n_in=N*N n_out=N*N grid=N/16,N/16 block=16,16
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n)
    return;
  int k = row * n + col;
  double c = x[k];
  double up = row > 0 ? x[k - n] : 0.0;
  double down = row + 1 < n ? x[k + n] : 0.0;
  double left = col > 0 ? x[k - 1] : 0.0;
  double right = col + 1 < n ? x[k + 1] : 0.0;
  y[k] = c + 0.1 * (up + down + left + right - 4.0 * c) + 0.05 * c * c * c;
}
#include "lib/gpu_kernel.h"
