// Reverse mode through noinline call chains three deep, helpers that take
// pointers and write through them, a helper called from two sites with
// different activities, a helper whose result is only partly active, and a
// static helper called in a loop. FD checks.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double a, b; } two;
typedef struct { double a, b, c, d; } four;
two __enzyme_autodiff_two(void *, ...);
four __enzyme_autodiff_four(void *, ...);

#define NOINLINE __attribute__((noinline))

NOINLINE static double sq(double v) { return v * v; }
NOINLINE static double lj(double r2, double eps, double sig) {
  double s2 = sig * sig / r2, s6 = s2 * s2 * s2;
  return 4 * eps * (s6 * s6 - s6);
}
NOINLINE static double pair_energy(const double *p, const double *q, double eps,
                                   double sig) {
  double r2 = sq(p[0] - q[0]) + sq(p[1] - q[1]) + sq(p[2] - q[2]);
  return lj(r2, eps, sig);
}
/* Lennard-Jones cluster energy: three levels of noinline calls */
double cluster(const double *pos, int n, double eps, double sig) {
  double e = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) e += pair_energy(pos + 3 * i, pos + 3 * j, eps, sig);
  return e;
}
/* helper writing through an out pointer */
NOINLINE static void polar(double r, double th, double *xy) {
  xy[0] = r * cos(th);
  xy[1] = r * sin(th);
}
NOINLINE static double dist2(const double *a, const double *b) {
  return sq(a[0] - b[0]) + sq(a[1] - b[1]);
}
double polar_dist(double r1, double t1, double r2, double t2) {
  double a[2], b[2];
  polar(r1, t1, a);
  polar(r2, t2, b);
  return dist2(a, b);
}
/* helper called with an active and with a constant argument */
NOINLINE static double damp(double x, double k) { return exp(-k * x) * x; }
double two_sites(double x, double k) { return damp(x, k) + damp(2.0, k) * damp(x, 0.5); }
/* helper returning an integer and a double through pointers */
NOINLINE static int bracket(const double *t, int n, double x, double *frac) {
  int i = 0;
  while (i + 2 < n && t[i + 1] <= x) ++i;
  *frac = (x - t[i]) / (t[i + 1] - t[i]);
  return i;
}
double interp(const double *t, const double *y, int n, double x) {
  double f;
  int i = bracket(t, n, x, &f);
  return (1 - f) * y[i] + f * y[i + 1];
}

struct ctx { int n; double a, b; const double *p; };
static double cluster_F(const double *v, void *p) {
  struct ctx *c = p; return cluster(v, c->n, c->a, c->b);
}
static double interp_y(const double *v, void *p) {
  struct ctx *c = p; return interp(c->p, v, c->n, c->a);
}
static double interp_t(const double *v, void *p) {
  struct ctx *c = p; return interp(v, c->p, c->n, c->a);
}
static double g4[4];
static int gi;
static double polar_i(double v) {
  double a[4] = {g4[0], g4[1], g4[2], g4[3]};
  a[gi] = v;
  return polar_dist(a[0], a[1], a[2], a[3]);
}
static double two_x(double v) { return two_sites(v, g4[1]); }
static double two_k(double v) { return two_sites(g4[0], v); }

int main(void) {
  {
    double pos[15], dpos[15] = {0};
    for (int i = 0; i < 15; ++i) pos[i] = 1.1 * (i / 3) + 0.3 * sin(2.3 * i);
    two g = __enzyme_autodiff_two((void *)cluster, enzyme_dup, pos, dpos, enzyme_const, 5,
                                  1.2, 0.9);
    struct ctx c = {5, 1.2, 0.9, 0};
    for (int i = 0; i < 15; ++i) {
      double e[15] = {0};
      e[i] = 1;
      CHECK_CLOSE_TOL(fd_dir(cluster_F, &c, pos, e, 15), dpos[i], 1e-6, 1e-8);
    }
    CHECK_CLOSE(cluster(pos, 5, 1.2, 0.9) / 1.2, g.a);
    double h = 1e-6;
    CHECK_CLOSE_TOL((cluster(pos, 5, 1.2, 0.9 + h) - cluster(pos, 5, 1.2, 0.9 - h)) / (2 * h),
                    g.b, 1e-6, 1e-8);
  }
  {
    g4[0] = 1.3; g4[1] = 0.4; g4[2] = 0.7; g4[3] = 2.1;
    four g = __enzyme_autodiff_four((void *)polar_dist, g4[0], g4[1], g4[2], g4[3]);
    double got[4] = {g.a, g.b, g.c, g.d};
    for (gi = 0; gi < 4; ++gi) CHECK_CLOSE(fd_scalar(polar_i, g4[gi]), got[gi]);
    /* law of cosines: d2 = r1^2 + r2^2 - 2 r1 r2 cos(t1 - t2) */
    CHECK_CLOSE(2 * g4[0] - 2 * g4[2] * cos(g4[1] - g4[3]), g.a);
  }
  {
    g4[0] = 0.8; g4[1] = 1.7;
    two g = __enzyme_autodiff_two((void *)two_sites, g4[0], g4[1]);
    CHECK_CLOSE(fd_scalar(two_x, g4[0]), g.a);
    CHECK_CLOSE(fd_scalar(two_k, g4[1]), g.b);
    double gk = __enzyme_autodiff((void *)two_sites, enzyme_const, g4[0], g4[1]);
    CHECK_CLOSE(g.b, gk);
  }
  {
    double t[6] = {0, 0.5, 1.2, 2.0, 2.4, 3.5}, y[6] = {1, 0.3, -0.4, 0.8, 1.6, 0.2};
    for (double x = 0.1; x < 3.5; x += 0.45) {
      double dt[6] = {0}, dy[6] = {0};
      double dx = __enzyme_autodiff((void *)interp, enzyme_dup, t, dt, enzyme_dup, y, dy,
                                    enzyme_const, 6, x);
      int i = 0;
      while (i + 2 < 6 && t[i + 1] <= x) ++i;
      CHECK_CLOSE((y[i + 1] - y[i]) / (t[i + 1] - t[i]), dx);
      struct ctx cy = {6, x, 0, t}, ct = {6, x, 0, y};
      for (int k = 0; k < 6; ++k) {
        double e[6] = {0};
        e[k] = 1;
        CHECK_CLOSE_TOL(fd_dir(interp_y, &cy, y, e, 6), dy[k], 1e-6, 1e-8);
        CHECK_CLOSE_TOL(fd_dir(interp_t, &ct, t, e, 6), dt[k], 1e-6, 1e-8);
      }
    }
  }
  return fd_report();
}
