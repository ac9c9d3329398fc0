// Reverse mode through an adaptive ODE integrator: Heun-Euler with error
// control, a data-dependent number of accepted and rejected steps (the
// step size is computed from the active state), the right-hand side in a
// noinline helper reading a struct of active parameters and writing stage
// arrays, the state updated in place. The gradient of the discrete
// algorithm (initial state and both parameters) is checked against central
// differences with steps small enough that no accept/reject decision flips.
// RUN: sh %testlib/run-c.sh %s

#include <string.h>
#include "enzyme.h"
#include "fdcheck.h"
typedef struct { double k, c; } params;
__attribute__((noinline)) static void rhs(const params *p, const double *y, double *dy) {
  dy[0] = y[1];
  dy[1] = -p->k * sin(y[0]) - p->c * y[1];
}
/* adaptive Heun-Euler with step-size control; returns y0(T) */
double adaptive(double *y, const params *p, double T, double tol) {
  double t = 0, h = 0.01, k1[2], k2[2], ytmp[2];
  int steps = 0;
  while (t < T && steps < 100000) {
    if (t + h > T) h = T - t;
    rhs(p, y, k1);
    for (int i = 0; i < 2; ++i) ytmp[i] = y[i] + h * k1[i];
    rhs(p, ytmp, k2);
    double err = 0;
    for (int i = 0; i < 2; ++i) { double e = 0.5 * h * (k2[i] - k1[i]); err += e * e; }
    err = sqrt(err);
    if (err <= tol) {
      for (int i = 0; i < 2; ++i) y[i] += 0.5 * h * (k1[i] + k2[i]);
      t += h;
      ++steps;
    }
    double fac = 0.9 * sqrt(tol / (err + 1e-300));
    h *= fmin(2.0, fmax(0.2, fac));
  }
  return y[0];
}
static double F(const double *v, void *ctx) {
  (void)ctx; double y[2] = {v[0], v[1]}; params p = {v[2], v[3]};
  return adaptive(y, &p, 2.0, 1e-6);
}
int main(void) {
  double y[2] = {0.8, 0.1}, dy[2] = {0, 0};
  params p = {4.0, 0.3}, dp = {0, 0};
  __enzyme_autodiff((void *)adaptive, enzyme_dup, y, dy, enzyme_dup, &p, &dp, enzyme_const, 2.0, enzyme_const, 1e-6);
  double v[4] = {0.8, 0.1, 4.0, 0.3}, got[4] = {dy[0], dy[1], dp.k, dp.c};
  for (int i = 0; i < 4; ++i) {
    double e[4] = {0}; e[i] = 1;
    /* FD of the discrete algorithm: small steps so accept/reject decisions do not flip */
    double h = 1e-7 * (fabs(v[i]) + 1);
    double vp[4], vm[4];
    memcpy(vp, v, sizeof vp); memcpy(vm, v, sizeof vm);
    vp[i] += h; vm[i] -= h;
    CHECK_CLOSE_TOL((F(vp, 0) - F(vm, 0)) / (2 * h), got[i], 1e-4, 1e-7);
  }
  return fd_report();
}
