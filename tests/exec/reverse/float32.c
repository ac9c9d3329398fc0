// Reverse mode on float32 code: a log-sum-exp over a float array (fmaxf,
// expf, logf; vectorized at -O2 into vector max and add reductions), and
// two float enzyme_out results returned as a struct of two floats (<2 x
// float> in the C ABI). Checked against the analytic gradients.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

typedef struct {
  float a, b;
} f2;
f2 __enzyme_autodiff_ff(float (*)(float, float), float, float);
void __enzyme_autodiff_lse(float (*)(const float *, int), int, const float *,
                           float *, int, int);

float lse(const float *x, int n) {
  float m = x[0];
  for (int i = 1; i < n; ++i)
    m = fmaxf(m, x[i]);
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += expf(x[i] - m);
  return m + logf(s);
}
float mulsin(float a, float b) { return a * sinf(b); }

int main(void) {
  float x[13], dx[13];
  for (int n = 1; n <= 13; n += 4) {
    for (int i = 0; i < n; ++i) {
      x[i] = 0.3f * (float)((i * 7) % 5) - 0.4f;
      dx[i] = 0;
    }
    __enzyme_autodiff_lse(lse, enzyme_dup, x, dx, enzyme_const, n);
    float s = 0;
    for (int i = 0; i < n; ++i)
      s += expf(x[i]);
    for (int i = 0; i < n; ++i)
      CHECK_CLOSE_F(expf(x[i]) / s, dx[i]);
  }
  f2 g = __enzyme_autodiff_ff(mulsin, 2.0f, 0.5f);
  CHECK_CLOSE_F(sinf(0.5f), g.a);
  CHECK_CLOSE_F(2.0f * cosf(0.5f), g.b);
  return fd_report();
}
