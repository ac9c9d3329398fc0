// Reverse mode through recursion: each recursive function gets one reverse
// derivative that calls itself. Direct and mutual recursion, recursion over
// a linked list and over array halves, tree recursion, a recursive helper
// called in a loop, locals written inside the recursion, several enzyme_out
// results. Gradients against finite differences or the analytic formula.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double rpow(double x, int n) { return n == 0 ? 1.0 : x * rpow(x, n - 1); }

struct node { double v; struct node *next; };
double rsum(const struct node *p) {
  return p ? sin(p->v) * p->v + 0.5 * rsum(p->next) : 0.0;
}

double fibx(double x, int n) {
  return n < 2 ? x : fibx(x, n - 1) * 0.5 + sin(fibx(x, n - 2));
}

double halves(const double *x, int lo, int hi) {
  if (hi - lo == 1) return x[lo] * x[lo];
  int mid = (lo + hi) / 2;
  return halves(x, lo, mid) * halves(x, mid, hi);
}

double odd_part(double x, double y, int n);
double even_part(double x, double y, int n) {
  return n == 0 ? x * y : exp(0.1 * odd_part(y, x, n - 1)) + x;
}
double odd_part(double x, double y, int n) {
  return n == 0 ? x - y : even_part(x * 0.9, y, n - 1) * y;
}

/* A recursion with a local scratch array (writes only its own stack). */
double smooth(const double *x, int n, int depth) {
  double t[8];
  for (int i = 0; i < n; ++i) t[i] = 0.5 * x[i] + 0.25 * x[(i + 1) % n];
  if (depth == 0) return t[0] * t[1] + t[n - 1];
  return smooth(t, n, depth - 1) + t[2];
}

/* The top function is not recursive; the helper it calls in a loop is. */
double loop_over_recursion(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += rpow(x[i], i + 1) * x[(i + 1) % n];
  return s;
}

struct two { double a, b; };
struct two __enzyme_autodiff_two(void *, ...);

enum { N = 5 };

static double halves_fd(const double *x, void *c) { (void)c; return halves(x, 0, N); }
static double smooth_fd(const double *x, void *c) { (void)c; return smooth(x, N, 3); }
static double loop_fd(const double *x, void *c) { (void)c; return loop_over_recursion(x, N); }
static double fib_fd(const double *x, void *c) { (void)c; return fibx(x[0], 8); }
static double even_fd_x(const double *x, void *c) { return even_part(x[0], *(double *)c, 5); }
static double even_fd_y(const double *y, void *c) { return even_part(*(double *)c, y[0], 5); }

int main(void) {
  const double x[N] = {1.1, 0.9, 1.2, 0.8, 1.05};
  double d[N];

  CHECK_CLOSE(6 * pow(1.3, 5),
              __enzyme_autodiff((void *)rpow, enzyme_out, 1.3, enzyme_const, 6));

  struct node c = {0.7, 0}, b = {1.1, &c}, a = {0.4, &b};
  struct node dc = {0, 0}, db = {0, &dc}, da = {0, &db};
  __enzyme_autodiff((void *)rsum, enzyme_dup, &a, &da);
  CHECK_CLOSE(cos(0.4) * 0.4 + sin(0.4), da.v);
  CHECK_CLOSE(0.5 * (cos(1.1) * 1.1 + sin(1.1)), db.v);
  CHECK_CLOSE(0.25 * (cos(0.7) * 0.7 + sin(0.7)), dc.v);

  double g = __enzyme_autodiff((void *)fibx, enzyme_out, 0.8, enzyme_const, 8);
  double x0[1] = {0.8};
  CHECK_GRADIENT(fib_fd, 0, x0, 1, &g);

  for (int i = 0; i < N; ++i) d[i] = 0;
  __enzyme_autodiff((void *)halves, enzyme_dup, x, d, enzyme_const, 0, enzyme_const, N);
  CHECK_GRADIENT(halves_fd, 0, x, N, d);

  struct two gxy = __enzyme_autodiff_two((void *)even_part, enzyme_out, 0.7, enzyme_out, 1.2,
                                         enzyme_const, 5);
  double y0 = 1.2, xv = 0.7, xs[1] = {0.7}, ys[1] = {1.2};
  CHECK_GRADIENT(even_fd_x, &y0, xs, 1, &gxy.a);
  CHECK_GRADIENT(even_fd_y, &xv, ys, 1, &gxy.b);

  for (int i = 0; i < N; ++i) d[i] = 0;
  __enzyme_autodiff((void *)smooth, enzyme_dup, x, d, enzyme_const, N, enzyme_const, 3);
  CHECK_GRADIENT(smooth_fd, 0, x, N, d);

  for (int i = 0; i < N; ++i) d[i] = 0;
  __enzyme_autodiff((void *)loop_over_recursion, enzyme_dup, x, d, enzyme_const, N);
  CHECK_GRADIENT(loop_fd, 0, x, N, d);
  return fd_report();
}
