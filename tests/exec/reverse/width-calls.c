// Vector reverse mode through `noinline` callees: at width 1 they stay
// calls (the callee's split derivative), which the widening cannot repeat
// per lane; at a width they are inlined into the lane body instead (they
// were refused). A dot-product helper, a helper writing through a pointer
// into a buffer the caller then reads, a chain two calls deep and a callee
// called in a loop; every lane is compared with a width-1 call with that
// lane's shadows and seed, and with the analytic gradient.
//
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

extern int enzyme_seed;

enum { N = 5 };

__attribute__((noinline)) static double dot(const double *a, const double *b,
                                            long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

__attribute__((noinline)) static void squash(const double *x, double *y,
                                             long n) {
  for (long i = 0; i < n; ++i)
    y[i] = tanh(x[i]);
}

__attribute__((noinline)) static double energy(const double *x, long n) {
  double y[N];
  squash(x, y, n);
  return dot(y, y, n);
}

/// loss = energy(x) + sum_k dot(x, x) * x[k] over a loop of calls, and
/// out[i] = x[i] * dot(x, x).
static double loss(const double *x, double *out, long n) {
  double e = energy(x, n);
  double acc = 0;
  for (long k = 0; k < n; ++k)
    acc += dot(x, x, n) * x[k];
  double d = dot(x, x, n);
  for (long i = 0; i < n; ++i)
    out[i] = x[i] * d;
  return e + acc;
}

#define WIDE(...) __enzyme_autodiff((void *)loss, __VA_ARGS__)

int main(void) {
  double x[N] = {0.4, -0.3, 0.9, 0.1, -0.7}, out[N];
  double s = 0, sum = 0;
  for (int i = 0; i < N; ++i) {
    s += x[i] * x[i];
    sum += x[i];
  }
  const double seeds[3] = {1.0, -2.0, 0.5};
  double dx[3][N] = {{0}}, dout[3][N];
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < N; ++i)
      dout[k][i] = (k + 1) * 0.25 * (i + 1);
  WIDE(enzyme_width, 3, enzyme_seed, seeds[0], seeds[1], seeds[2], enzyme_dup,
       x, dx[0], dx[1], dx[2], enzyme_dup, out, dout[0], dout[1], dout[2],
       enzyme_const, (long)N);
  for (int k = 0; k < 3; ++k) {
    // The same lane at width 1 (where the noinline callees stay calls).
    double dx1[N] = {0}, dout1[N], wsum = 0;
    for (int i = 0; i < N; ++i) {
      dout1[i] = (k + 1) * 0.25 * (i + 1);
      wsum += dout1[i] * x[i];
    }
    WIDE(enzyme_seed, seeds[k], enzyme_dup, x, dx1, enzyme_dup, out, dout1,
         enzyme_const, (long)N);
    for (int i = 0; i < N; ++i) {
      double t = tanh(x[i]);
      double de = 2 * t * (1 - t * t);
      double dacc = 2 * x[i] * sum + s;
      // d/dx_i of sum_j w_j x_j s, with w_j lane k's output shadow.
      double dw = (k + 1) * 0.25 * (i + 1) * s + 2 * x[i] * wsum;
      CHECK_CLOSE(seeds[k] * (de + dacc) + dw, dx[k][i]);
      CHECK_CLOSE(dx1[i], dx[k][i]);
      CHECK_CLOSE(0.0, dout[k][i]);
    }
  }
  return fd_report();
}
