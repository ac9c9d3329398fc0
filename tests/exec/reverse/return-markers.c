// Return markers, as Enzyme reads them: enzyme_noret only drops the primal
// result (the return is still seeded in reverse, its tangent still returned
// in forward); enzyme_const_return makes the return inactive.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
extern int enzyme_const_return, enzyme_noret, enzyme_primal_return;
typedef struct { double primal, da; } primal_and_grad;
primal_and_grad __enzyme_autodiff_pg(void *, ...);
double f(double *x, double a) { x[0] = a * x[0] * x[0]; return a * 10; }
int main(void) {
  // d/da of (10 a) + dx-weighted x[0] = a x0^2, with x0 = 3, a = 2.
  double x[1] = {3}, dx[1] = {1};
  CHECK_CLOSE(9.0, __enzyme_autodiff((void *)f, enzyme_const_return,
                                     enzyme_dup, x, dx, 2.0));
  CHECK_CLOSE(12.0, dx[0]);
  double y[1] = {3}, dy[1] = {1};
  CHECK_CLOSE(9.0 + 10.0, __enzyme_autodiff((void *)f, enzyme_noret,
                                            enzyme_dup, y, dy, 2.0));
  CHECK_CLOSE(12.0, dy[0]);
  // enzyme_noret after enzyme_primal_return: the primal is dropped again.
  double z[1] = {3}, dz[1] = {1};
  CHECK_CLOSE(9.0 + 10.0,
              __enzyme_autodiff((void *)f, enzyme_primal_return, enzyme_noret,
                                enzyme_dup, z, dz, 2.0));
  double w[1] = {3}, dw[1] = {1};
  primal_and_grad pg = __enzyme_autodiff_pg((void *)f, enzyme_primal_return,
                                           enzyme_dup, w, dw, 2.0);
  CHECK_CLOSE(20.0, pg.primal);
  CHECK_CLOSE(19.0, pg.da);
  // Forward: tangent of the result along da = 1 is 10 either way; const
  // return gives no tangent (a void-like call whose shadow output is dx).
  double u[1] = {3}, du[1] = {0};
  CHECK_CLOSE(10.0, __enzyme_fwddiff((void *)f, enzyme_noret, enzyme_dup, u,
                                     du, 2.0, 1.0));
  CHECK_CLOSE(9.0, du[0]);
  return fd_report();
}
