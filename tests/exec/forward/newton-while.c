// Forward mode through data-dependent while loops: Newton's iteration for
// sqrt(a) and cbrt(a), run until the residual is small (the trip count
// depends on the input), with a plain while and a do-while. The tangent of
// the converged iterate is the derivative of the root: 1 / (2 sqrt a) and
// 1 / (3 cbrt(a)^2); the hand-written tangent iteration is the tight
// reference.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double newton_sqrt(double a) {
  double x = a > 1 ? a : 1;
  int it = 0;
  while (fabs(x * x - a) > 1e-15 * a && it < 100) {
    x = 0.5 * (x + a / x);
    ++it;
  }
  return x;
}

/* Writes the root and returns the iteration count (an int result). */
int newton_cbrt(const double *a, double *root) {
  double x = *a > 1 ? *a / 2 : 1, prev;
  int it = 0;
  do {
    prev = x;
    x = (2 * x + *a / (x * x)) / 3;
    ++it;
  } while (fabs(x - prev) > 1e-15 * x && it < 200);
  *root = x;
  return it;
}

/* The tangent iteration, written by hand. */
static double newton_sqrt_tangent(double a, double da) {
  double x = a > 1 ? a : 1, dx = 0;
  int it = 0;
  while (fabs(x * x - a) > 1e-15 * a && it < 100) {
    double nx = 0.5 * (x + a / x);
    dx = 0.5 * (dx + da / x - a * dx / (x * x));
    x = nx;
    ++it;
  }
  return dx;
}

int main(void) {
  static const double as[] = {2.0, 0.37, 17.5, 1234.5, 0.0123};
  for (unsigned k = 0; k < sizeof as / sizeof as[0]; ++k) {
    double a = as[k];
    double an = 0.5 / sqrt(a);
    CHECK_CLOSE(sqrt(a), newton_sqrt(a));
    CHECK_CLOSE(an, newton_sqrt_tangent(a, 1.0));
    CHECK_CLOSE(an, fd_scalar(newton_sqrt, a));
    CHECK_CLOSE(newton_sqrt_tangent(a, 1.0),
                __enzyme_fwddiff((void *)newton_sqrt, a, 1.0));
    CHECK_CLOSE(-3 * an, __enzyme_fwddiff((void *)newton_sqrt, enzyme_dup, a,
                                          -3.0));

    double c = cbrt(a), root = -1, droot = 42, da = 1.5;
    int it_primal;
    {
      double r;
      it_primal = newton_cbrt(&a, &r);
      CHECK_CLOSE(c, r);
      CHECK(it_primal > 1);
    }
    /* The int return is inactive: request the void-typed form and read the
     * tangent through the root's shadow. */
    __enzyme_fwddiff_void((void *)newton_cbrt, enzyme_dup, &a, &da, enzyme_dup,
                          &root, &droot);
    CHECK_CLOSE(c, root);
    CHECK_CLOSE(1.5 / (3 * c * c), droot);
    CHECK(a == as[k] && da == 1.5);
  }
  return fd_report();
}
