/* Calls the reverse derivatives of vecs.rs (items in vecs.specs: Vec growth
 * at opt-level 3) and checks every gradient entry against central
 * differences of the Rust primal, with the seed dret honoured (and one
 * against the analytic formula). `driver short` passes a too-short shadow,
 * which the lowering's check must stop. */
#include "fdcheck.h"

#include <string.h>

typedef struct {
  double primal, d;
} pair;
typedef double (*primal_fn)(const double *, long);
typedef double (*grad_fn)(const double *, long, double *, long, double);

#define SLICE_ITEM(name)                                                       \
  double name(const double *x, long n);                                        \
  double r_##name(const double *x, long n, double *dx, long dn, double dret);
SLICE_ITEM(vec_push)
SLICE_ITEM(push_then_update)
SLICE_ITEM(two_vecs)
SLICE_ITEM(stack_machine)
SLICE_ITEM(insert_front)
SLICE_ITEM(retain_pos)
SLICE_ITEM(rev_iter)
SLICE_ITEM(vec_of_vec)
SLICE_ITEM(rows_and_copy)
SLICE_ITEM(records_clone)
SLICE_ITEM(records_rotate)
SLICE_ITEM(windows_diff)
SLICE_ITEM(truncate_sum)
double extend_and_scale(const double *x, long n, double k);
pair r_extend_and_scale(const double *x, long n, double *dx, long dn, double k,
                        double dret);

/* 11 elements: Vecs grow from 0 to 4, 8 and 16 (three reallocations). */
enum { N = 11 };

/* The gradient of f at x, seeded with dret, against central differences. */
static void check(const char *name, primal_fn f, grad_fn g, const double *x0) {
  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  double dret = 1.75;
  printf("%s\n", name);
  CHECK_CLOSE(f(x, N), g(x, N, dx, N, dret));
  for (int i = 0; i < N; ++i) {
    double h = 1e-6 * (1 + fabs(x[i]));
    double keep = x[i];
    x[i] = keep + h;
    double up = f(x, N);
    x[i] = keep - h;
    double down = f(x, N);
    x[i] = keep;
    CHECK_CLOSE_TOL(dret * (up - down) / (2 * h), dx[i], 1e-6, 1e-8);
  }
}

#define CHECK_ITEM(name, x) check(#name, name, r_##name, x)

int main(int argc, char **argv) {
  double x[N];
  /* No entry at 0: retain_pos keeps sin(x) > 0, a kink there. */
  for (int i = 0; i < N; ++i)
    x[i] = 0.313 + 0.17 * i - 0.02 * i * i;
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    double dx[N] = {0};
    r_vec_push(x, N, dx, N - 3, 1.0);
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
  CHECK_ITEM(rows_and_copy, x);
  CHECK_ITEM(records_clone, x);
  CHECK_ITEM(records_rotate, x);
  CHECK_ITEM(windows_diff, x);
  CHECK_ITEM(truncate_sum, x);

  /* extend_from_slice, then extend: the second growth reallocates the
   * buffer the first one made. s = k sum_i x_i (i + 1) + k^2 sum_i x_i
   * (N + i + 1). */
  double dx[N] = {0}, k = 0.6, h = 1e-6;
  pair e = r_extend_and_scale(x, N, dx, N, k, -0.5);
  CHECK_CLOSE(extend_and_scale(x, N, k), e.primal);
  CHECK_CLOSE_TOL(-0.5 * (extend_and_scale(x, N, k + h) -
                          extend_and_scale(x, N, k - h)) / (2 * h),
                  e.d, 1e-6, 1e-8);
  for (int i = 0; i < N; ++i)
    CHECK_CLOSE(-0.5 * (k * (i + 1) + k * k * (N + i + 1)), dx[i]);
  return fd_report();
}
