/* Checks the derivatives of constslice.rs against analytic formulas.
 * `constslice_driver short` passes a too-short shadow slice. */
#include "fdcheck.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

typedef struct { double primal, tangent; } dual;
dual d_cs_map(const double *x, size_t n, double s, double ds);
dual d_cs_loop(const double *x, size_t n, double s, double ds);
dual d_cs_weighted(const double *w, size_t nw, const double *x, size_t n,
                   const double *dx, size_t dn, double s, double ds);

int main(int argc, char **argv) {
  double w[4] = {0.5, -1.0, 2.0, 0.25}, x[4] = {1.0, 2.0, 3.0, -0.5};
  double dx[4] = {0.1, 0.2, -0.3, 1.0};
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    d_cs_weighted(w, 4, x, 4, dx, 3, 0.7, 1.0);
    return 0;
  }
  double s = 1.5, ds = 2.0, sum = 0;
  for (int i = 0; i < 4; ++i)
    sum += x[i];
  dual m = d_cs_map(x, 4, s, ds);
  CHECK_CLOSE(sum * s, m.primal);
  CHECK_CLOSE(sum * ds, m.tangent);
  dual l = d_cs_loop(x, 4, s, ds);
  CHECK_CLOSE(sum * s, l.primal);
  CHECK_CLOSE(sum * ds, l.tangent);
  dual c = d_cs_weighted(w, 4, x, 4, dx, 4, s, ds);
  double p = 0, t = 0;
  for (int i = 0; i < 4; ++i) {
    p += w[i] * sin(x[i] * s);
    t += w[i] * cos(x[i] * s) * (dx[i] * s + x[i] * ds);
  }
  CHECK_CLOSE(p, c.primal);
  CHECK_CLOSE(t, c.tangent);
  return fd_report();
}
