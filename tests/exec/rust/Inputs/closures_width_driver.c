/* Vector reverse mode (width 2) through closures called by `&dyn Fn`
 * (closures.rs, items in closures-width.specs): each lane, with its own
 * seed or output shadow, must equal the width-1 item run like it, which is
 * checked against central differences. The widening refused the adjoint
 * of the captured scalar (reached through the table, whose other words
 * are the vtables' shadows). `driver short` passes lane 1 a too-short
 * shadow, which the lowering's check must stop. */
#include "fdcheck.h"

#include <string.h>

typedef struct {
  double primal, d;
} pair;
typedef struct {
  double primal, d0, d1;
} triple;
double dyn_pick(const double *x, long n, double k);
pair r_dyn_pick(const double *x, long n, double *dx, long dn, double k,
                double dret);
triple w_dyn_pick(const double *x, long n, double *dx0, long dn0, double *dx1,
                  long dn1, double k, double dret0, double dret1);
enum { N = 7 };

int main(int argc, char **argv) {
  double x[N], k = 0.7, h = 1e-6;
  for (int i = 0; i < N; ++i)
    x[i] = 0.25 + 0.3 * i - 0.05 * i * i;
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    double d0[N] = {0}, d1[N] = {0};
    w_dyn_pick(x, N, d0, N, d1, N - 2, k, 1.0, 1.0);
    printf("not stopped\n");
    return 0;
  }
  /* dyn_pick: two seeds. */
  const double seeds[2] = {1.5, -0.25};
  double one[2][N] = {{0}}, lanes[2][N] = {{0}};
  pair p[2];
  for (int l = 0; l < 2; ++l)
    p[l] = r_dyn_pick(x, N, one[l], N, k, seeds[l]);
  triple t = w_dyn_pick(x, N, lanes[0], N, lanes[1], N, k, seeds[0], seeds[1]);
  CHECK_CLOSE(dyn_pick(x, N, k), t.primal);
  CHECK_CLOSE(p[0].d, t.d0);
  CHECK_CLOSE(p[1].d, t.d1);
  CHECK_CLOSE_TOL(seeds[0] * (dyn_pick(x, N, k + h) - dyn_pick(x, N, k - h)) /
                      (2 * h),
                  p[0].d, 1e-6, 1e-8);
  for (int i = 0; i < N; ++i) {
    double keep = x[i];
    x[i] = keep + h;
    double up = dyn_pick(x, N, k);
    x[i] = keep - h;
    double down = dyn_pick(x, N, k);
    x[i] = keep;
    CHECK_CLOSE_TOL(seeds[0] * (up - down) / (2 * h), one[0][i], 1e-6, 1e-8);
    for (int l = 0; l < 2; ++l)
      CHECK_CLOSE_TOL(one[l][i], lanes[l][i], 1e-12, 1e-14);
  }

  return fd_report();
}
