/* Vector reverse mode (width 2) through Vec growth (vecs.rs at opt-level
 * 3, items in vecs-width.specs): each lane of a w_ item, with its own seed
 * and its own initial shadow, must equal the width-1 r_ item run with that
 * lane's seed and shadow, and the width-1 item is checked against central
 * differences. The growth path's buffers come back as integers kept in
 * stack slots (and a Vec's empty buffer is the constant address 8); the
 * widening refused them before. `driver short` passes lane 1 a too-short
 * shadow, which the lowering's check must stop. */
#include "fdcheck.h"

#include <string.h>

typedef struct {
  double primal, d;
} pair;
typedef struct {
  double primal, d0, d1;
} triple;
typedef double (*primal_fn)(const double *, long);
typedef double (*grad_fn)(const double *, long, double *, long, double);
typedef double (*wide_fn)(const double *, long, double *, long, double *,
                          long, double, double);

#define SLICE_ITEM(name)                                                       \
  double name(const double *x, long n);                                        \
  double r_##name(const double *x, long n, double *dx, long dn, double dret);  \
  double w_##name(const double *x, long n, double *dx0, long dn0, double *dx1, \
                  long dn1, double dret0, double dret1);
SLICE_ITEM(vec_push)
SLICE_ITEM(push_then_update)
SLICE_ITEM(two_vecs)
SLICE_ITEM(stack_machine)
SLICE_ITEM(insert_front)
SLICE_ITEM(retain_pos)
SLICE_ITEM(rev_iter)
SLICE_ITEM(vec_of_vec)
SLICE_ITEM(windows_diff)
SLICE_ITEM(truncate_sum)
double extend_and_scale(const double *x, long n, double k);
pair r_extend_and_scale(const double *x, long n, double *dx, long dn, double k,
                        double dret);
triple w_extend_and_scale(const double *x, long n, double *dx0, long dn0,
                          double *dx1, long dn1, double k, double dret0,
                          double dret1);

enum { N = 11 };

static void check(const char *name, primal_fn f, grad_fn g, wide_fn w,
                  const double *x0) {
  double x[N], one[2][N], lanes[2][N];
  const double seeds[2] = {1.75, -0.5};
  memcpy(x, x0, sizeof x);
  printf("%s\n", name);
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < N; ++i)
      one[k][i] = lanes[k][i] = 0.125 * k * (i + 1); /* kept: accumulated */
  for (int k = 0; k < 2; ++k)
    CHECK_CLOSE(f(x, N), g(x, N, one[k], N, seeds[k]));
  CHECK_CLOSE(f(x, N), w(x, N, lanes[0], N, lanes[1], N, seeds[0], seeds[1]));
  for (int i = 0; i < N; ++i) {
    double h = 1e-6 * (1 + fabs(x[i]));
    double keep = x[i];
    x[i] = keep + h;
    double up = f(x, N);
    x[i] = keep - h;
    double down = f(x, N);
    x[i] = keep;
    CHECK_CLOSE_TOL(seeds[0] * (up - down) / (2 * h), one[0][i], 1e-6, 1e-8);
    for (int k = 0; k < 2; ++k)
      CHECK_CLOSE_TOL(one[k][i], lanes[k][i], 1e-12, 1e-14);
  }
}

#define CHECK_ITEM(name, x) check(#name, name, r_##name, w_##name, x)

int main(int argc, char **argv) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.313 + 0.17 * i - 0.02 * i * i;
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    double d0[N] = {0}, d1[N] = {0};
    w_vec_push(x, N, d0, N, d1, N - 3, 1.0, 1.0);
    printf("not stopped\n");
    return 0;
  }
  CHECK_ITEM(vec_push, x);
  CHECK_ITEM(push_then_update, x);
  CHECK_ITEM(two_vecs, x);
  CHECK_ITEM(stack_machine, x);
  CHECK_ITEM(insert_front, x);
  CHECK_ITEM(retain_pos, x);
  CHECK_ITEM(rev_iter, x);
  CHECK_ITEM(vec_of_vec, x);
  CHECK_ITEM(windows_diff, x);
  CHECK_ITEM(truncate_sum, x);

  /* Two growths; an Active scalar's two gradients after the primal. */
  double k = 0.6, d0[N] = {0}, d1[N] = {0}, e0[N] = {0}, e1[N] = {0};
  triple t = w_extend_and_scale(x, N, d0, N, d1, N, k, 2.0, -0.5);
  pair p0 = r_extend_and_scale(x, N, e0, N, k, 2.0);
  pair p1 = r_extend_and_scale(x, N, e1, N, k, -0.5);
  CHECK_CLOSE(extend_and_scale(x, N, k), t.primal);
  CHECK_CLOSE(p0.d, t.d0);
  CHECK_CLOSE(p1.d, t.d1);
  for (int i = 0; i < N; ++i) {
    CHECK_CLOSE(2.0 * (k * (i + 1) + k * k * (N + i + 1)), d0[i]);
    CHECK_CLOSE(e0[i], d0[i]);
    CHECK_CLOSE(e1[i], d1[i]);
  }
  return fd_report();
}
