// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Per-thread struct of values and a 4-element local array updated in a loop
// with a rotating (dynamic) index, so it may live in local memory.
// GPU: check=512 time=1048576 n_in=N n_out=N grid=N/128 block=128
#include <math.h>
struct State {
  double pos, vel;
  double hist[4];
};
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  State s;
  s.pos = x[i];
  s.vel = 0.1;
  for (int k = 0; k < 4; ++k)
    s.hist[k] = s.pos * (k + 1) * 0.25;
  for (int step = 0; step < 12; ++step) {
    int slot = (step + i) & 3;
    double avg = 0.25 * (s.hist[0] + s.hist[1] + s.hist[2] + s.hist[3]);
    s.vel += 0.05 * (avg - s.pos) - 0.02 * sin(s.pos);
    s.pos += 0.1 * s.vel;
    s.hist[slot] = s.pos * s.pos;
  }
  y[i] = s.pos + s.vel * s.hist[i & 3];
}
#include "lib/gpu_kernel.h"
