// Forward mode with `enzyme_primal_return` (first, as rustc emits it): the
// request returns {primal, tangent} as a struct of two doubles, for a
// scalar function and for an array reduction; the primal must be the
// function's value, the tangent the same as without the marker.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double f(double x, double y) { return exp(x) * cos(y) + x / y; }

double lse(const double *x, int n) { /* log-sum-exp */
  double m = x[0];
  for (int i = 1; i < n; ++i)
    m = x[i] > m ? x[i] : m;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += exp(x[i] - m);
  return m + log(s);
}

struct ctx {
  int n;
};
static double lse_fd(const double *v, void *p) {
  return lse(v, ((struct ctx *)p)->n);
}

enum { N = 7 };

int main(void) {
  double x = 0.45, y = 1.8, dx = 0.7, dy = -1.2;
  double an = (exp(x) * cos(y) + 1 / y) * dx +
              (-exp(x) * sin(y) - x / (y * y)) * dy;
  enzyme_dual r = __enzyme_fwddiff_dual((void *)f, enzyme_primal_return,
                                        enzyme_dup, x, dx, enzyme_dup, y, dy);
  CHECK_CLOSE(f(x, y), r.primal);
  CHECK_CLOSE(an, r.tangent);
  CHECK_CLOSE(an, __enzyme_fwddiff((void *)f, x, dx, y, dy));
  r = __enzyme_fwddiff_dual((void *)f, enzyme_primal_return, x, 0.0, y, 1.0);
  CHECK_CLOSE(f(x, y), r.primal);
  CHECK_CLOSE(-exp(x) * sin(y) - x / (y * y), r.tangent);

  volatile int nv = N;
  int n = nv;
  double v[N], dv[N], s = 0, m = -1e300;
  for (int i = 0; i < N; ++i) {
    v[i] = 1.5 * sin(1.9 * i + 0.4);
    dv[i] = 0.3 + 0.1 * i;
    m = v[i] > m ? v[i] : m;
  }
  for (int i = 0; i < N; ++i)
    s += exp(v[i] - m);
  double an_lse = 0; /* softmax . dv */
  for (int i = 0; i < N; ++i)
    an_lse += exp(v[i] - m) / s * dv[i];
  struct ctx c = {n};
  CHECK_CLOSE(an_lse, fd_dir(lse_fd, &c, v, dv, n));
  r = __enzyme_fwddiff_dual((void *)lse, enzyme_primal_return, enzyme_dup, v,
                            dv, enzyme_const, n);
  CHECK_CLOSE(m + log(s), r.primal);
  CHECK_CLOSE(an_lse, r.tangent);
  return fd_report();
}
