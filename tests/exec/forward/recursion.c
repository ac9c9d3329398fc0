// Forward mode through recursion: power by repeated squaring (two recursive
// shapes, the exponent an int), a weighted binary tree sum over an array
// range (non-tail recursion on both halves), and mutual recursion.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double rpow(double x, int n) {
  if (n == 0)
    return 1.0;
  if (n % 2 == 0) {
    double h = rpow(x, n / 2);
    return h * h;
  }
  return x * rpow(x, n - 1);
}

/* Leaves contribute x^2; an inner node combines as left * c + sin(right). */
double tree_sum(const double *x, int lo, int hi, double c) {
  if (hi - lo == 1)
    return x[lo] * x[lo];
  int mid = lo + (hi - lo) / 2;
  return tree_sum(x, lo, mid, c) * c + sin(tree_sum(x, mid, hi, c));
}

double odd_chain(double x, int n);
double even_chain(double x, int n) {
  return n == 0 ? x : cos(odd_chain(x, n - 1)) + 0.5 * x;
}
double odd_chain(double x, int n) {
  return n == 0 ? x : x * even_chain(x, n - 1);
}

/* Hand-written tangents. */
static void tree_tangent(const double *x, const double *dx, int lo, int hi,
                         double c, double dc, double *v, double *dv) {
  if (hi - lo == 1) {
    *v = x[lo] * x[lo];
    *dv = 2 * x[lo] * dx[lo];
    return;
  }
  int mid = lo + (hi - lo) / 2;
  double l, dl, r, dr;
  tree_tangent(x, dx, lo, mid, c, dc, &l, &dl);
  tree_tangent(x, dx, mid, hi, c, dc, &r, &dr);
  *v = l * c + sin(r);
  *dv = dl * c + l * dc + cos(r) * dr;
}
static void chain_tangent(double x, int n, int even, double *v, double *dv) {
  if (n == 0) {
    *v = x;
    *dv = 1;
    return;
  }
  double u, du;
  chain_tangent(x, n - 1, !even, &u, &du);
  if (even) {
    *v = cos(u) + 0.5 * x;
    *dv = -sin(u) * du + 0.5;
  } else {
    *v = x * u;
    *dv = u + x * du;
  }
}

struct ctx {
  int lo, hi, n;
};
static double tree_fd(const double *v, void *p) {
  struct ctx *c = (struct ctx *)p;
  return tree_sum(v, c->lo, c->hi, v[c->n]); /* c is the last component */
}
static int chain_n;
static double even_fd(double x) { return even_chain(x, chain_n); }

enum { N = 11 };

int main(void) {
  static const double xs[] = {1.07, 0.83, -1.6};
  static const int ns[] = {0, 1, 2, 7, 13, 20};
  for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; ++i)
    for (unsigned j = 0; j < sizeof ns / sizeof ns[0]; ++j) {
      double x = xs[i];
      int n = ns[j];
      double an = n == 0 ? 0 : n * pow(x, n - 1);
      CHECK_CLOSE(pow(x, n), rpow(x, n));
      CHECK_CLOSE(an, __enzyme_fwddiff((void *)rpow, x, 1.0, n));
      CHECK_CLOSE(-0.5 * an, __enzyme_fwddiff((void *)rpow, enzyme_dup, x,
                                              -0.5, enzyme_const, n));
    }

  volatile int nv = N;
  int n = nv;
  double x[N + 1], dx[N + 1];
  for (int i = 0; i < n; ++i) {
    x[i] = 0.7 * cos(0.9 * i) + 0.2;
    dx[i] = 0.1 * (i % 5) - 0.15;
  }
  x[n] = 0.6; /* c */
  dx[n] = 0.25;
  double v, dv, dv_c0;
  tree_tangent(x, dx, 0, n, x[n], dx[n], &v, &dv);
  tree_tangent(x, dx, 0, n, x[n], 0.0, &v, &dv_c0);
  struct ctx c = {0, n, n};
  CHECK_CLOSE(dv, fd_dir(tree_fd, &c, x, dx, n + 1));
  CHECK_CLOSE(dv, __enzyme_fwddiff((void *)tree_sum, enzyme_dup, x, dx,
                                   enzyme_const, 0, enzyme_const, n, enzyme_dup,
                                   x[n], dx[n]));
  CHECK_CLOSE(dv_c0, __enzyme_fwddiff((void *)tree_sum, x, dx, 0, n,
                                      enzyme_const, x[n]));
  /* A sub-range. */
  tree_tangent(x, dx, 3, 9, x[n], dx[n], &v, &dv);
  struct ctx c2 = {3, 9, n};
  CHECK_CLOSE(dv, fd_dir(tree_fd, &c2, x, dx, n + 1));
  CHECK_CLOSE(dv, __enzyme_fwddiff((void *)tree_sum, x, dx, 3, 9, x[n], dx[n]));

  static const int chains[] = {0, 1, 4, 9};
  for (unsigned k = 0; k < sizeof chains / sizeof chains[0]; ++k) {
    double y = 0.77, u, du;
    chain_n = chains[k];
    chain_tangent(y, chain_n, 1, &u, &du);
    CHECK_CLOSE(u, even_chain(y, chain_n));
    CHECK_CLOSE(du, fd_scalar(even_fd, y));
    CHECK_CLOSE(du, __enzyme_fwddiff((void *)even_chain, y, 1.0, chain_n));
  }
  return fd_report();
}
