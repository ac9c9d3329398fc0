// A helper returning a struct of two floats (a <2 x float> in the C ABI)
// whose fields are multiplied: clang -O2 multiplies whole vectors with a
// poison lane, and 0 * poison in the reverse sweep gave NaN gradients.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
typedef struct { float re, im; } CF;
__attribute__((noinline)) static CF cmulf(CF a, CF b) {
  CF r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}
double f(const double *x) {
  CF a = {(float)x[0], (float)x[1]};
  CF b = {(float)x[2], (float)x[3]};
  CF r = cmulf(a, b);
  return r.re * r.im;
}
int main(void) {
  double x[4] = {0.3, -0.7, 1.1, 0.2}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double re = x[0] * x[2] - x[1] * x[3], im = x[0] * x[3] + x[1] * x[2];
  CHECK_CLOSE_F(x[2] * im + x[3] * re, dx[0]);
  CHECK_CLOSE_F(-x[3] * im + x[2] * re, dx[1]);
  CHECK_CLOSE_F(x[0] * im + x[1] * re, dx[2]);
  CHECK_CLOSE_F(-x[1] * im + x[0] * re, dx[3]);
  return fd_report();
}
