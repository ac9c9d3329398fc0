// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// libdevice functions with rules of their own: norm3d, rnorm3d, norm4d,
// rnorm4d, rhypot, erfcx, the modified Bessel functions cyl_bessel_i0 and
// cyl_bessel_i1, lgamma and tgamma (through the digamma function computed
// in device code), and sincospi with its two outputs.
// GPU: check=512 time=4194304 n_in=3*N n_out=3*N grid=N/128 block=128
#include <math.h>
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = x[3 * i] + 1.5, b = x[3 * i + 1] - 0.25, c = 2.0 * x[3 * i + 2];
  double s, co;
  sincospi(0.3 * a * b, &s, &co);
  y[3 * i] = norm3d(a, b, c) + rnorm3d(b, c, a) * s + rhypot(a, c);
  y[3 * i + 1] = norm4d(a, b, c, a * b) * rnorm4d(c, 1.0, b, a) +
                 erfcx(0.5 * b) + co * cyl_bessel_i0(c);
  y[3 * i + 2] = lgamma(a + 0.5) + 0.1 * tgamma(a) + cyl_bessel_i1(b);
}
#include "lib/gpu_kernel.h"
