// Forward mode through floats that travel as integers between noinline
// functions (found by a helper's hunt; each gave a silently wrong tangent):
//  - `{int; float}` returned packed in an i64 whose upper half is the
//    float, stored by the caller and read through a pointer by a callee
//    (0 for 2.6 at -O0..-O3: only byte 0 of the slot was looked at, and a
//    slot passed to a call was not taken as read);
//  - an accumulator `{float; int}` passed by value into the helper that
//    returns it, in a loop (2.6 for 3.6: the loop-carried i64 was passed
//    without its tangent, the call that returns it not being visited yet);
//  - a float's bits through a noinline `unsigned idu(unsigned)` at -O0
//    (0 for 2.6: the callee's spilled parameter was taken for an integer).
// Reverse mode refused the accumulator at every level (the fold that calls
// the helper kept the packed i64 out of line; now inlined like the helper,
// and the loop-carried word folds to a float phi). Both modes are checked.
// RUN: sh %testlib/run-c.sh %s
#include <string.h>
#include "enzyme.h"
#include "fdcheck.h"

typedef struct { int i; float f; } IntFloat;
__attribute__((noinline)) IntFloat make(float x) {
  IntFloat r;
  r.i = 1;
  r.f = x * x;
  return r;
}
__attribute__((noinline)) float get(IntFloat *a) { return a->f; }
double upper_half(double x) {
  IntFloat a = make((float)x);
  return get(&a);
}

typedef struct { float v; int n; } Acc;
__attribute__((noinline)) Acc add(Acc a, float x) {
  a.v += x;
  a.n++;
  return a;
}
__attribute__((noinline)) Acc fold(const float *xs, int n) {
  Acc a = {0, 0};
  for (int i = 0; i < n; i++)
    a = add(a, xs[i]);
  return a;
}
double accumulate(double x) {
  float xs[2] = {(float)x, (float)(x * x)};
  return fold(xs, 2).v;
}

__attribute__((noinline)) unsigned same_bits(unsigned v) { return v; }
double identity(double x) {
  float y = (float)(x * x);
  unsigned u;
  memcpy(&u, &y, 4);
  u = same_bits(u);
  memcpy(&y, &u, 4);
  return y;
}

int main(void) {
  double x = 1.3;
  CHECK_CLOSE_F(2 * x, fd_scalar(upper_half, x));
  CHECK_CLOSE_F(2 * x, __enzyme_fwddiff((void *)upper_half, x, 1.0));
  CHECK_CLOSE_F(2 * x, __enzyme_autodiff((void *)upper_half, x));
  CHECK_CLOSE_F(1 + 2 * x, fd_scalar(accumulate, x));
  CHECK_CLOSE_F(1 + 2 * x, __enzyme_fwddiff((void *)accumulate, x, 1.0));
  CHECK_CLOSE_F(1 + 2 * x, __enzyme_autodiff((void *)accumulate, x));
  CHECK_CLOSE_F(2 * x, __enzyme_fwddiff((void *)identity, x, 1.0));
  CHECK_CLOSE_F(2 * x, __enzyme_autodiff((void *)identity, x));
  return fd_report();
}
