/* Calls the two reverse derivatives of Inputs/merged.rs, whose
   placeholders rustc merged into one function and an alias, and checks
   both against their analytic gradients. */
#include <math.h>
#include <stdio.h>
typedef struct {
  double primal, da, db;
} grad3;
grad3 d_f(double a, double b, double dret);
grad3 d_g(double a, double b, double dret);
static int close_to(double want, double got) {
  return fabs(want - got) <= 1e-12 * (1 + fabs(want));
}
int main(void) {
  double a = 0.7, b = -1.3, s = 2.0;
  grad3 f = d_f(a, b, s), g = d_g(a, b, s);
  int ok = close_to(a * sin(b), f.primal) && close_to(s * sin(b), f.da) &&
           close_to(s * a * cos(b), f.db) && close_to(exp(a) + b, g.primal) &&
           close_to(s * exp(a), g.da) && close_to(s, g.db);
  printf("d_f = (%g, %g, %g), d_g = (%g, %g, %g): %s\n", f.primal, f.da, f.db,
         g.primal, g.da, g.db, ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
