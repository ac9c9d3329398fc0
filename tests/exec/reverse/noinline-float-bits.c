// Floating-point bits handed across noinline calls as integers: a double
// encoded as uint64_t by one helper and decoded by another (legal punning
// through memcpy), and in forward mode a `struct {float; int;}` that the
// x86-64 ABI passes and returns packed in one i64, which -O2 repacks with
// a funnel shift. Both were silently wrong (reverse: the double's adjoint
// stopped at the integer return, 1.5625 for 4.6875; forward: the funnel
// shift dropped the tangent, 0 for 15). Kept out of line, the helpers'
// integer interfaces lose the floats' types, so reverse mode inlines them;
// forward mode moves the tangent bytes through the funnel shift. Inlined,
// the packing (stack slots at -O0, the funnel shift at -O2) folds away in
// reverse mode, which refused it before (FoldFloatPacking).
// RUN: sh %testlib/run-c.sh %s
#include <stdint.h>
#include <string.h>
#include "enzyme.h"
#include "fdcheck.h"

__attribute__((noinline)) uint64_t encode(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
__attribute__((noinline)) double decode(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
double cube(double x) { return decode(encode(x * x)) * x; }

typedef struct { float w; int idx; } Weighted;
typedef struct { int tag; float val; } Tagged;
__attribute__((noinline)) Weighted make_weighted(float w, int i) {
  Weighted r = {w * w, i};
  return r;
}
__attribute__((noinline)) Tagged retag(Weighted a) {
  Tagged r = {a.idx, a.w * 2.0f};
  return r;
}
__attribute__((noinline)) float use_tagged(Tagged t) { return t.val * t.tag; }
double packed(double x) { return use_tagged(retag(make_weighted((float)x, 3))); }

int main(void) {
  double x = 1.25;
  CHECK_CLOSE(3 * x * x, fd_scalar(cube, x));
  CHECK_CLOSE(3 * x * x, __enzyme_autodiff((void *)cube, x));
  CHECK_CLOSE(3 * x * x, __enzyme_fwddiff((void *)cube, x, 1.0));
  /* packed = 6 x^2 */
  CHECK_CLOSE_F(12 * x, fd_scalar(packed, x));
  CHECK_CLOSE_F(12 * x, __enzyme_fwddiff((void *)packed, x, 1.0));
  CHECK_CLOSE_F(12 * x, __enzyme_autodiff((void *)packed, x));
  return fd_report();
}
