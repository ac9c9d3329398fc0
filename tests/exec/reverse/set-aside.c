// Post-optimization sets aside the functions differentiation does not
// reach (codegen/SetAside.h): here a constructor, which the derivative
// never reaches, writes a static the derivative reads and calls a static
// helper the derivative calls too, with other arguments. Were the
// set-aside code simply hidden from the optimizer, GlobalOpt would fold
// `scale` to its initializer (a gradient 3x too small) and IPSCCP would
// give `steps` the derivative's constant arguments (the constructor's
// count would come back wrong). Against the analytic gradient and central
// differences, in both modes.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>

static double scale = 1.0;
static int ctor_steps;

__attribute__((noinline)) static int steps(int n, int k) { return n * k; }

__attribute__((constructor)) static void init(void) {
  scale = 3.0;
  ctor_steps = steps(3, 4);
}

double f(double x) {
  double s = 0.0;
  int n = steps(2, 1);
  for (int i = 0; i < n; ++i)
    s += sin(x * (i + 1));
  return scale * s;
}

static double f_at(double x) { return f(x); }

int main(void) {
  double x = 0.7;
  double analytic = 3.0 * (cos(x) + 2.0 * cos(2.0 * x));
  double dx = __enzyme_autodiff((void *)f, x);
  double tangent = __enzyme_fwddiff((void *)f, x, 1.0);
  CHECK_CLOSE(analytic, dx);
  CHECK_CLOSE(analytic, tangent);
  CHECK_CLOSE(fd_scalar(f_at, x), dx);
  CHECK(ctor_steps == 12);
  return fd_report();
}
