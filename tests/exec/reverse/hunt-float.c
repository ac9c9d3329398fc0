// Reverse mode on float32 code: a float Rosenbrock with two, three and four
// float enzyme_out results (the C ABI packs them as <2 x float> pairs),
// with enzyme_primal_return; a float array kernel (a damped spring chain
// energy with sqrtf, expf, powf, fmaxf) through enzyme_dup; a float time
// loop updating its state in place. Checked with float tolerances against
// analytic gradients and double-precision finite differences.
// RUN: sh %testlib/run-c.sh %s
// RUN: env ADTEST_LEVELS=3 sh %testlib/run-c.sh %s -march=native

#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { float a, b; } f2;
typedef struct { float a, b, c; } f3;
typedef struct { float a, b, c, d; } f4;
typedef struct { float a, b, c, d, e; } f5;
f2 __enzyme_autodiff_f2(float (*)(float, float), float, float);
f3 __enzyme_autodiff_f3(float (*)(float, float, float), float, float, float);
f4 __enzyme_autodiff_f4(float (*)(float, float, float, float), float, float, float, float);
f3 __enzyme_autodiff_f3p(float (*)(float, float), int, float, float);
f4 __enzyme_autodiff_f4p(float (*)(float, float, float), int, float, float, float);
f5 __enzyme_autodiff_f5p(float (*)(float, float, float, float), int, float, float,
                         float, float);
float __enzyme_autodiff_f1(float (*)(float), float);
float __enzyme_autodiff_chain(float (*)(const float *, int, float), int, const float *,
                              float *, int, int, float);
void __enzyme_autodiff_evolve(void (*)(float *, int, float), int, float *, float *,
                              int, int, int, float);

float rosen(float x, float y) { return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x); }
float r3(float x, float y, float z) { return rosen(x, y) + rosen(y, z) * 0.5f; }
float r4(float x, float y, float z, float w) { return r3(x, y, z) + sinf(w * x) * coshf(z); }
float sigmoid(float x) { return 1 / (1 + expf(-x)); }

/* spring chain: positions x[0..n), rest length L, stiffness k */
float chain(const float *x, int n, float k) {
  float e = 0;
  for (int i = 0; i + 1 < n; ++i) {
    float d = sqrtf((x[i + 1] - x[i]) * (x[i + 1] - x[i]) + 0.01f);
    e += 0.5f * k * (d - 1) * (d - 1) + 0.1f * powf(fmaxf(d, 0.2f), 1.5f) * expf(-d);
  }
  return e;
}
/* y' = -a y + sin(y) in place, Euler, n components */
void evolve(float *y, int n, float a) {
  for (int s = 0; s < 200; ++s)
    for (int i = 0; i < n; ++i) y[i] += 0.01f * (-a * y[i] + sinf(y[i]));
}

static double rosen_d(double x, double y) { return (1 - x) * (1 - x) + 100 * (y - x * x) * (y - x * x); }

struct ctx { int n; float k; const float *seed; };
static double chain_F(const double *v, void *p) {
  struct ctx *c = p; float f[16];
  for (int i = 0; i < c->n; ++i) f[i] = (float)v[i];
  return chain(f, c->n, c->k);
}
int main(void) {
  float x = 0.8f, y = 0.5f, z = 1.2f, w = -0.7f;
  double gx = -2 * (1 - x) - 400 * x * (y - x * x), gy = 200 * (y - x * x);
  f2 g2 = __enzyme_autodiff_f2(rosen, x, y);
  CHECK_CLOSE_F(gx, g2.a);
  CHECK_CLOSE_F(gy, g2.b);
  f3 g3p = __enzyme_autodiff_f3p(rosen, enzyme_primal_return, x, y);
  CHECK_CLOSE_F(rosen_d(x, y), g3p.a);
  CHECK_CLOSE_F(gx, g3p.b);
  CHECK_CLOSE_F(gy, g3p.c);
  double gy3 = gy + 0.5 * (-400 * y * (z - y * y) - 2 * (1 - y)), gz3 = 0.5 * 200 * (z - y * y);
  f3 g3 = __enzyme_autodiff_f3(r3, x, y, z);
  CHECK_CLOSE_F(gx, g3.a);
  CHECK_CLOSE_F(gy3, g3.b);
  CHECK_CLOSE_F(gz3, g3.c);
  f4 g4p = __enzyme_autodiff_f4p(r3, enzyme_primal_return, x, y, z);
  CHECK_CLOSE_F(rosen_d(x, y) + 0.5 * rosen_d(y, z), g4p.a);
  CHECK_CLOSE_F(gx, g4p.b);
  CHECK_CLOSE_F(gy3, g4p.c);
  CHECK_CLOSE_F(gz3, g4p.d);
  f4 g4 = __enzyme_autodiff_f4(r4, x, y, z, w);
  CHECK_CLOSE_F(gx + w * cos(w * x) * cosh(z), g4.a);
  CHECK_CLOSE_F(gy3, g4.b);
  CHECK_CLOSE_F(gz3 + sin(w * x) * sinh(z), g4.c);
  CHECK_CLOSE_F(x * cos(w * x) * cosh(z), g4.d);
  f5 g5p = __enzyme_autodiff_f5p(r4, enzyme_primal_return, x, y, z, w);
  CHECK_CLOSE_F(r4(x, y, z, w), g5p.a);
  CHECK_CLOSE_F(g4.a, g5p.b);
  CHECK_CLOSE_F(g4.b, g5p.c);
  CHECK_CLOSE_F(g4.c, g5p.d);
  CHECK_CLOSE_F(g4.d, g5p.e);
  for (float v = -2.5f; v < 3; v += 1.1f) {
    float s = sigmoid(v);
    CHECK_CLOSE_F(s * (1 - s), __enzyme_autodiff_f1(sigmoid, v));
  }
  /* spring chain */
  {
    float xs[9], dxs[9];
    double xd[9];
    for (int i = 0; i < 9; ++i) { xs[i] = 1.1f * i + 0.3f * sinf(1.9f * i); xd[i] = xs[i]; dxs[i] = 0.5f; }
    float dk = __enzyme_autodiff_chain(chain, enzyme_dup, xs, dxs, enzyme_const, 9, 3.0f);
    struct ctx c = {9, 3.0f, 0};
    for (int i = 0; i < 9; ++i) {
      double e[9] = {0};
      e[i] = 1;
      CHECK_CLOSE_TOL(0.5 + fd_dir(chain_F, &c, xd, e, 9), dxs[i], 2e-3, 2e-3);
    }
    double ek = 0;
    for (int i = 0; i + 1 < 9; ++i) {
      double d = sqrt((xd[i + 1] - xd[i]) * (xd[i + 1] - xd[i]) + 0.01);
      ek += 0.5 * (d - 1) * (d - 1);
    }
    CHECK_CLOSE_F(ek, dk);
  }
  /* in-place float evolution */
  {
    float y0[6], dy[6], seed[6];
    double yd[6];
    for (int i = 0; i < 6; ++i) { y0[i] = 0.4f + 0.3f * i; yd[i] = y0[i]; seed[i] = 1.0f + 0.25f * i; dy[i] = seed[i]; }
    __enzyme_autodiff_evolve(evolve, enzyme_dup, y0, dy, enzyme_const, 6, enzyme_const, 0.7f);
    /* each component evolves alone: the gradient is the product of the
     * step Jacobians 1 + 0.01 (cos y_s - a) along the float trajectory */
    for (int i = 0; i < 6; ++i) {
      float yi = (float)yd[i];
      double g = 1;
      for (int s = 0; s < 200; ++s) {
        g *= 1 + 0.01 * (cos((double)yi) - 0.7);
        yi += 0.01f * (-0.7f * yi + sinf(yi));
      }
      CHECK_CLOSE_F(yi, y0[i]);
      CHECK_CLOSE_F(seed[i] * g, dy[i]);
    }
  }
  return fd_report();
}
