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

/* `{float; int}` through a chain of by-value helpers: a pick by the int
   field, a pass-through, a scale of the float. Forward: 0 at -O0 (the
   word returned by `scale` went back through `lvl3` without its tangent)
   and refused at -O1..-O3; reverse: refused at every level (the helpers'
   integer interfaces hid the float; calls passing a float's bits packed
   in an integer are now inlined, and the int field read back out of the
   word folds too). d/dx (x * 2) * 5 = 10. */
typedef struct { float f; int i; } FI;
__attribute__((noinline)) FI pick(FI a, FI b) { return a.i > b.i ? a : b; }
__attribute__((noinline)) FI scale(FI a, float k) {
  a.f *= k;
  return a;
}
__attribute__((noinline)) FI lvl3(FI a) { return scale(a, 2.0f); }
__attribute__((noinline)) FI lvl2(FI a, FI b) { return lvl3(pick(a, b)); }
double chain(double x) {
  FI a = {(float)x, 5}, b = {(float)(x * x), 2};
  FI r = lvl2(a, b);
  return r.f * r.i;
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
  CHECK_CLOSE_F(10, fd_scalar(chain, x));
  CHECK_CLOSE_F(10, __enzyme_fwddiff((void *)chain, x, 1.0));
  CHECK_CLOSE_F(10, __enzyme_autodiff((void *)chain, x));
  return fd_report();
}
