/* Checks the forward derivatives of heap.rs (Box, Vec) against analytic
 * formulas. The Vec targets exist only at opt-level 3 (weak here).
 * `heap_driver short` passes a too-short shadow slice. */
#include "fdcheck.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

typedef struct { double primal, tangent; } dual;
dual d_boxed(double s, double ds);
dual d_boxed_slice(const double *x, size_t n, const double *dx, size_t dn);
__attribute__((weak)) dual d_vec_collect(const double *, size_t,
                                         const double *, size_t);
__attribute__((weak)) dual d_vec_push(const double *, size_t, const double *,
                                      size_t);

int main(int argc, char **argv) {
  double x[4] = {0.5, 1.25, -0.75, 2.0}, dx[4] = {1.0, -0.5, 0.25, 2.0};
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    d_boxed_slice(x, 4, dx, 2);
    return 0;
  }
  dual b = d_boxed(1.5, 2.0);
  CHECK_CLOSE(1.5 * 1.5 + 1.5, b.primal);
  CHECK_CLOSE(2.0 * (2 * 1.5 + 1), b.tangent);
  dual bs = d_boxed_slice(x, 4, dx, 4);
  CHECK_CLOSE(x[0] * x[1] + sin(x[2]), bs.primal);
  CHECK_CLOSE(dx[0] * x[1] + x[0] * dx[1] + cos(x[2]) * dx[2], bs.tangent);
  if (d_vec_collect) {
    dual v = d_vec_collect(x, 4, dx, 4);
    double p = 0, t = 0;
    for (int i = 0; i < 4; ++i) {
      p += sin(x[i]) * x[i];
      t += (cos(x[i]) * x[i] + sin(x[i])) * dx[i];
    }
    CHECK_CLOSE(p, v.primal);
    CHECK_CLOSE(t, v.tangent);
  }
  if (d_vec_push) {
    dual v = d_vec_push(x, 4, dx, 4);
    double p = 0, t = 0;
    for (int i = 0; i < 4; ++i) {
      p += log(x[i] * x[i] + 1);
      t += 2 * x[i] * dx[i] / (x[i] * x[i] + 1);
    }
    CHECK_CLOSE(p, v.primal);
    CHECK_CLOSE(t, v.tangent);
  }
  return fd_report();
}
