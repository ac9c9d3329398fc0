/* Checks the forward derivatives of pairs.rs against analytic formulas and
 * finite differences of the Rust primal. `pairs_driver short` passes a
 * shadow slice shorter than the primal, which must stop the program. */
#include "fdcheck.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

typedef struct { double a, b; } pair;
typedef struct { pair primal, tangent; } dpair;

pair polar(double r, double t);
pair moments(const double *x, size_t n);
dpair d_polar(double r, double dr, double t, double dt);
dpair d_moments(const double *x, size_t n, const double *dx, size_t dn);
typedef struct { float primal, tangent; } dual32;
typedef struct { float a, b; } pair32f;
typedef struct { pair32f primal, tangent; } dpair32;
dual32 d_sq32(float x, float dx);
dpair32 d_pair32(float x, float dx, float y, float dy);

int main(int argc, char **argv) {
  double x[4] = {1.5, -2.0, 0.25, 3.0}, dx[4] = {0.5, -1.0, 2.0, 0.125};
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    d_moments(x, 4, dx, 3);
    return 0;
  }
  double r = 2.0, t = 0.3, dr = 0.5, dt = -1.0, h = 1e-6;
  dpair v = d_polar(r, dr, t, dt);
  pair p = polar(r, t);
  pair hi = polar(r + h * dr, t + h * dt), lo = polar(r - h * dr, t - h * dt);
  CHECK_CLOSE(p.a, v.primal.a);
  CHECK_CLOSE(p.b, v.primal.b);
  CHECK_CLOSE(dr * cos(t) - r * sin(t) * dt, v.tangent.a);
  CHECK_CLOSE(dr * sin(t) + r * cos(t) * dt, v.tangent.b);
  CHECK_CLOSE_TOL((hi.a - lo.a) / (2 * h), v.tangent.a, 1e-6, 1e-8);
  CHECK_CLOSE_TOL((hi.b - lo.b) / (2 * h), v.tangent.b, 1e-6, 1e-8);

  dpair m = d_moments(x, 4, dx, 4);
  pair mp = moments(x, 4);
  double ds = 0, dq = 0;
  for (int i = 0; i < 4; ++i) {
    ds += dx[i];
    dq += 2 * x[i] * dx[i];
  }
  CHECK_CLOSE(mp.a, m.primal.a);
  CHECK_CLOSE(mp.b, m.primal.b);
  CHECK_CLOSE(ds, m.tangent.a);
  CHECK_CLOSE(dq, m.tangent.b);

  dual32 s32 = d_sq32(3.0f, 1.5f);
  CHECK_CLOSE(9.0, s32.primal);
  CHECK_CLOSE(9.0, s32.tangent);
  dpair32 p32 = d_pair32(2.0f, 1.0f, 5.0f, 0.5f);
  CHECK_CLOSE(10.0, p32.primal.a);
  CHECK_CLOSE(27.0, p32.primal.b);
  CHECK_CLOSE(1.0 * 5.0 + 2.0 * 0.5, p32.tangent.a);
  CHECK_CLOSE(1.0 + 2 * 5.0 * 0.5, p32.tangent.b);
  return fd_report();
}
