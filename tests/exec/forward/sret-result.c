// A function returning a struct too large for registers (through sret),
// differentiated with a request whose own result is that struct: the
// tangent (and with enzyme_primal_return the primal first) comes back as
// the call's result, without passing f's result buffer explicitly. The
// explicit form (enzyme_dup, &out, &dout) is checked too.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>

typedef struct { double a, b, c; } V3;
typedef struct { V3 p, t; } V3x2;
V3 __enzyme_fwddiff_v3(void *, ...) __asm__("__enzyme_fwddiff");
V3x2 __enzyme_fwddiff_v3x2(void *, ...) __asm__("__enzyme_fwddiff");
void __enzyme_fwddiff_void3(void *, ...) __asm__("__enzyme_fwddiff");

V3 f3(double x, const double *k) {
  V3 r = {x * k[0], x * x, cos(x) * k[1]};
  return r;
}

int main(void) {
  double x = 0.7, k[2] = {2, 3};
  V3 t = __enzyme_fwddiff_v3((void *)f3, x, 1.0, enzyme_const, k);
  CHECK_CLOSE(2.0, t.a);
  CHECK_CLOSE(2 * x, t.b);
  CHECK_CLOSE(-3 * sin(x), t.c);
  V3x2 w = __enzyme_fwddiff_v3x2((void *)f3, enzyme_primal_return, x, 0.5,
                                 enzyme_const, k);
  CHECK_CLOSE(x * 2, w.p.a);
  CHECK_CLOSE(x * x, w.p.b);
  CHECK_CLOSE(0.5 * 2 * x, w.t.b);
  CHECK_CLOSE(-0.5 * 3 * sin(x), w.t.c);
  V3 out, dout;
  __enzyme_fwddiff_void3((void *)f3, enzyme_dup, &out, &dout, x, 1.0,
                         enzyme_const, k);
  CHECK_CLOSE(x * x, out.b);
  CHECK_CLOSE(2 * x, dout.b);
  return fd_report();
}
