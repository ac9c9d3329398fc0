// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// A tiled matrix product C = A B through two 16x16 shared-memory tiles
// filled at the top of each tile step, with barriers after the fill and
// after the reads; then y = C + C^2 / 8. The tiles' loads are read again
// in the reverse sweep after it fills the tiles once more (nothing is
// cached per tile step).
// GPU: check=48 time=1024 n_in=2*N*N n_out=N*N grid=N/16,N/16 block=16,16
#define TILE 16
__device__ void body(const double *x, double *y, const int *aux, int n) {
  __shared__ double As[TILE][TILE], Bs[TILE][TILE];
  const double *A = x, *B = x + n * n;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  double c = 0.0;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      c += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  y[row * n + col] = c + c * c / 8.0;
}
#include "lib/gpu_kernel.h"
