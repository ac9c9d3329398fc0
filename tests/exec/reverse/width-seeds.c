// Vector reverse mode with explicit seeds of the return: `enzyme_width, N,
// enzyme_seed, s_0, ..., s_{N-1}` seeds lane k's return with s_k (rustc's
// reverse items with a width pass them this way). Each lane equals a
// width-1 call with `enzyme_seed, s_k` and lane k's shadows, and the
// gradients are s_k times the analytic gradient plus what the lane's output
// shadow contributes. Double and float, with the primal returned too.
//
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

/// Our extension of the convention (docs/user-guide.md).
extern int enzyme_seed;

enum { N = 4 };

/// Writes out[i] = x[i] * a and returns sum(sin(x[i]) * b) + a * b.
static double mix(double a, double b, const double *x, double *out, long n) {
  double s = a * b;
  for (long i = 0; i < n; ++i) {
    out[i] = x[i] * a;
    s += sin(x[i]) * b;
  }
  return s;
}

static float mixf(float a, const float *x, long n) {
  float s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i] * x[i] * a;
  return s;
}

typedef struct { double a0, a1, a2, b0, b1, b2; } Grads3;
typedef struct { double primal, a0, a1; } PrimalGrads2;
typedef struct { float a0, a1; } GradsF2;

#define MIX3(...) ((Grads3(*)(void *, ...))__enzyme_autodiff)((void *)mix, __VA_ARGS__)
#define MIX2P(...) ((PrimalGrads2(*)(void *, ...))__enzyme_autodiff)((void *)mix, __VA_ARGS__)
#define MIX1(...) ((GradsD2(*)(void *, ...))__enzyme_autodiff)((void *)mix, __VA_ARGS__)
#define MIXF2(...) ((GradsF2(*)(void *, ...))__enzyme_autodiff)((void *)mixf, __VA_ARGS__)

typedef struct { double a, b; } GradsD2;

int main(void) {
  const double a = 0.7, b = -1.3;
  double x[N] = {0.25, -1.0, 2.0, 0.5}, out[N];
  const double seeds[3] = {2.0, -0.5, 0.0};
  // Lane k's output shadow holds k + 1 per element.
  double dx[3][N] = {{0}}, dout[3][N];
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < N; ++i)
      dout[k][i] = k + 1;
  Grads3 g = MIX3(enzyme_width, 3, enzyme_seed, seeds[0], seeds[1], seeds[2],
                  enzyme_out, a, enzyme_out, b, enzyme_dup, x, dx[0], dx[1],
                  dx[2], enzyme_dup, out, dout[0], dout[1], dout[2],
                  enzyme_const, (long)N);
  double ga[3] = {g.a0, g.a1, g.a2}, gb[3] = {g.b0, g.b1, g.b2};
  double sum_x = 0, sum_sin = 0;
  for (int i = 0; i < N; ++i) {
    sum_x += x[i];
    sum_sin += sin(x[i]);
  }
  for (int k = 0; k < 3; ++k) {
    double s = seeds[k], w = k + 1;
    CHECK_CLOSE(s * b + w * sum_x, ga[k]);
    CHECK_CLOSE(s * (a + sum_sin), gb[k]);
    // The same lane at width 1.
    double dx1[N] = {0}, dout1[N];
    for (int i = 0; i < N; ++i)
      dout1[i] = w;
    GradsD2 one = MIX1(enzyme_seed, s, enzyme_out, a, enzyme_out, b,
                       enzyme_dup, x, dx1, enzyme_dup, out, dout1,
                       enzyme_const, (long)N);
    CHECK_CLOSE(one.a, ga[k]);
    CHECK_CLOSE(one.b, gb[k]);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(s * cos(x[i]) * b + w * a, dx[k][i]);
      CHECK_CLOSE(dx1[i], dx[k][i]);
      CHECK_CLOSE(0.0, dout[k][i]); // overwritten: consumed
    }
  }
  // Width 2 with the primal returned.
  double dy[2][N] = {{0}}, dz[2][N] = {{0}};
  PrimalGrads2 p = MIX2P(enzyme_primal_return, enzyme_width, 2, enzyme_seed,
                         3.0, 0.25, enzyme_out, a, enzyme_const, b,
                         enzyme_dup, x, dy[0], dy[1], enzyme_dup, out, dz[0],
                         dz[1], enzyme_const, (long)N);
  CHECK_CLOSE(mix(a, b, x, out, N), p.primal);
  CHECK_CLOSE(3.0 * b, p.a0);
  CHECK_CLOSE(0.25 * b, p.a1);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(3.0 * cos(x[i]) * b, dy[0][i]);
    CHECK_CLOSE(0.25 * cos(x[i]) * b, dy[1][i]);
  }
  // Float, width 2.
  float xf[N] = {0.5f, -1.5f, 1.0f, 2.0f}, dxf[2][N] = {{0}};
  float af = 1.5f, sumsq = 0;
  for (int i = 0; i < N; ++i)
    sumsq += xf[i] * xf[i];
  GradsF2 gf = MIXF2(enzyme_width, 2, enzyme_seed, 2.0f, -1.0f, enzyme_out,
                     af, enzyme_dup, xf, dxf[0], dxf[1], enzyme_const, (long)N);
  CHECK_CLOSE_F(2.0f * sumsq, gf.a0);
  CHECK_CLOSE_F(-1.0f * sumsq, gf.a1);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE_F(2.0f * 2 * xf[i] * af, dxf[0][i]);
    CHECK_CLOSE_F(-1.0f * 2 * xf[i] * af, dxf[1][i]);
  }
  return fd_report();
}
