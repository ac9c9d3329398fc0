// A registered forward derivative of a function that returns nothing or an
// integer status and writes through a pointer replaces the call: it does
// the primal's work itself (once), its integer result is the primal's,
// and the function itself is not called. (Before, the call stayed and the
// rule ran as well: the side effect happened twice.)
//
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

static int acc_calls, acc_rule_calls, solve_calls, solve_rule_calls;

__attribute__((noinline)) void acc(double x, double *out) {
  ++acc_calls;
  *out += x * x;
}
void acc_fwd(double x, double dx, double *out, double *dout) {
  ++acc_rule_calls;
  *out += x * x;
  *dout += 2 * x * dx;
}
void *__enzyme_register_derivative_acc[2] = {(void *)acc, (void *)acc_fwd};

/* y = b / a, with a status: 1 when a is 0. */
__attribute__((noinline)) int solve(double a, double b, double *y) {
  ++solve_calls;
  if (a == 0)
    return 1;
  *y = b / a;
  return 0;
}
int solve_fwd(double a, double da, double b, double db, double *y,
              double *dy) {
  ++solve_rule_calls;
  if (a == 0)
    return 1;
  *y = b / a;
  *dy = (db - *y * da) / a;
  return 0;
}
void *__enzyme_register_derivative_solve[2] = {(void *)solve,
                                               (void *)solve_fwd};

static int status;

double f(double x) {
  double s = 1.0;
  acc(x, &s);
  double y = 0;
  status += solve(x, s, &y);
  return s + y;
}

int main(void) {
  double x = 3.0;
  double d = __enzyme_fwddiff((void *)f, x, 1.0);
  /* s = 1 + x^2, y = s / x: f = s + s/x. */
  double s = 1 + x * x, ds = 2 * x;
  CHECK_CLOSE(ds + (ds * x - s) / (x * x), d);
  CHECK(acc_calls == 0 && acc_rule_calls == 1);
  CHECK(solve_calls == 0 && solve_rule_calls == 1);
  CHECK(status == 0);
  /* The status the rule returns is the primal's. */
  double d0 = __enzyme_fwddiff((void *)f, 0.0, 1.0);
  CHECK_CLOSE(0.0, d0);
  CHECK(status == 1);
  CHECK(acc_calls == 0 && solve_calls == 0);
  return fd_report();
}
