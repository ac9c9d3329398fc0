// A function returning `struct {float; int}` that clang inlines at -O2:
// the packing into the ABI's i64 stays behind, with the int field chosen
// by phis (`or` of the float's bits with the truncated, zero low half of
// `i << 32`), which InstCombine does not see through. Both modes refused
// it (reverse: a bitcast of an active float's bits; forward: an integer
// `or` on them) at -O2 and -O3; the float read back is the float packed,
// and both modes now fold the packing away first. Gradient against the
// analytic one (the argmax is fixed near x), forward against reverse.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

typedef struct { float v; int i; } Best;

/* Too big for clang to keep out of line at -O0, inlined at -O2. */
Best best(const float *x, int n) {
  Best r = {x[0], 0};
  for (int k = 1; k < n; ++k) {
    float t = x[k] * x[k] + 0.1f * k;
    if (t > r.v * r.v + 0.1f * r.i) {
      r.v = x[k];
      r.i = k;
    }
  }
  for (int k = 0; k < n; ++k)
    r.v += 0.001f * x[k];
  for (int k = 0; k < n; ++k)
    r.v -= 0.0005f * x[k] * x[k];
  return r;
}

double loss(const float *x, int n) {
  Best b = best(x, n);
  return b.v * b.v * (float)(b.i + 1);
}

int main(void) {
  float x[4] = {1.0f, -3.0f, 2.0f, 0.5f}, dx[4] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx, enzyme_const, 4);
  /* argmax at 1: v = x1 + sum(0.001 x - 0.0005 x^2), loss = 2 v^2 */
  double v = x[1];
  for (int k = 0; k < 4; ++k)
    v += 0.001 * x[k] - 0.0005 * x[k] * x[k];
  for (int k = 0; k < 4; ++k)
    CHECK_CLOSE_F(4.0 * v * ((k == 1) + 0.001 - 0.001 * x[k]), dx[k]);
  float t[4] = {1, 1, 1, 1};
  double fd = __enzyme_fwddiff((void *)loss, enzyme_dup, x, t, enzyme_const, 4);
  CHECK_CLOSE_F(dx[0] + dx[1] + dx[2] + dx[3], fd);
  return fd_report();
}
