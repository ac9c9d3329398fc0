// REQUIRES: cuda-toolkit
// RUN: sh %testlib/../gpu/lib/run-gpu.sh %s | FileCheck %s
// CHECK: O0: {{passed|built}}
// CHECK: O1: {{passed|built}}
// CHECK: O2: {{passed|built}}
// CHECK: O3: {{passed|built}}
//
// Templated __device__ helpers (template<typename T>, one also with a
// non-type parameter) instantiated for double: Horner evaluation of a
// constant-coefficient polynomial, a 2-D rotation through references, and a
// generic softplus.
// GPU: check=512 time=4194304 n_in=2*N n_out=N grid=N/128 block=128
#include <math.h>
template <typename T, int K> __device__ T horner(const T (&c)[K], T v) {
  T acc = c[K - 1];
  for (int k = K - 2; k >= 0; --k)
    acc = acc * v + c[k];
  return acc;
}
template <typename T> __device__ void rotate(T &a, T &b, T angle) {
  T ca = cos(angle), sa = sin(angle);
  T na = ca * a - sa * b;
  b = sa * a + ca * b;
  a = na;
}
template <typename T> __device__ T softplus(T v) {
  return v > T(0) ? v + log1p(exp(-v)) : log1p(exp(v));
}
__device__ void body(const double *x, double *y, const int *aux, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double a = x[2 * i], b = x[2 * i + 1];
  const double coef[5] = {0.5, -0.25, 0.125, 0.3, -0.05};
  double p = horner<double, 5>(coef, a);
  rotate<double>(a, b, 0.7 * p);
  y[i] = softplus<double>(a - b) + p * b;
}
#include "lib/gpu_kernel.h"
