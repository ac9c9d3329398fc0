// Reverse mode on two time-stepping simulations written as C programmers
// write them: (1) a 2-D reaction-diffusion grid allocated inside the
// function as double** rows (malloc'd row pointers and rows), Neumann
// boundaries by copying edge rows, the two grids swapped by pointer each
// step, freed at the end; (2) velocity Verlet for a chain of particles whose
// forces are written by a noinline helper into a calloc'd buffer that is
// memset to zero each step, positions and velocities updated in place in
// the caller's arrays. Gradients against finite differences.
// RUN: sh %testlib/run-c.sh %s
// RUN: env ADTEST_LEVELS=3 sh %testlib/run-c.sh %s -march=native

#include <stdlib.h>
#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double a, b; } two;
two __enzyme_autodiff_two(void *, ...);

static double **grid_new(int nx, int ny) {
  double **g = malloc(nx * sizeof(double *));
  for (int i = 0; i < nx; ++i) g[i] = malloc(ny * sizeof(double));
  return g;
}
static void grid_free(double **g, int nx) {
  for (int i = 0; i < nx; ++i) free(g[i]);
  free(g);
}
/* u0: nx*ny row-major initial field; returns the mean of u^2 at the end */
double react_diffuse(const double *u0, int nx, int ny, double D, double k, int steps) {
  double **u = grid_new(nx, ny), **v = grid_new(nx, ny);
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) u[i][j] = u0[i * ny + j];
  const double dt = 0.05;
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i < nx - 1; ++i)
      for (int j = 1; j < ny - 1; ++j) {
        double lap = u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - 4 * u[i][j];
        v[i][j] = u[i][j] + dt * (D * lap + k * u[i][j] * (1 - u[i][j]));
      }
    for (int j = 1; j < ny - 1; ++j) { v[0][j] = v[1][j]; v[nx - 1][j] = v[nx - 2][j]; }
    for (int i = 0; i < nx; ++i) { v[i][0] = v[i][1]; v[i][ny - 1] = v[i][ny - 2]; }
    double **t = u; u = v; v = t;
  }
  double m = 0;
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) m += u[i][j] * u[i][j];
  grid_free(u, nx);
  grid_free(v, nx);
  return m / (nx * ny);
}

__attribute__((noinline)) static void forces(double *f, const double *x, int n, double k, double r0) {
  memset(f, 0, n * sizeof(double));
  for (int i = 0; i + 1 < n; ++i) {
    double d = x[i + 1] - x[i] - r0;
    double fi = k * d + 0.1 * k * d * d * d;
    f[i] += fi;
    f[i + 1] -= fi;
  }
}
/* x, v updated in place; returns the kinetic energy at the end */
double verlet(double *x, double *v, int n, double k, double r0, int steps) {
  const double dt = 0.01;
  double *f = calloc(n, sizeof(double));
  forces(f, x, n, k, r0);
  for (int s = 0; s < steps; ++s) {
    for (int i = 0; i < n; ++i) { v[i] += 0.5 * dt * f[i]; x[i] += dt * v[i]; }
    forces(f, x, n, k, r0);
    for (int i = 0; i < n; ++i) v[i] += 0.5 * dt * f[i];
  }
  double ke = 0;
  for (int i = 0; i < n; ++i) ke += 0.5 * v[i] * v[i];
  free(f);
  return ke;
}

struct ctx { int nx, ny, steps; double D, k; const double *sx, *sv; };
static double rd_F(const double *u, void *p) {
  struct ctx *c = p; return react_diffuse(u, c->nx, c->ny, c->D, c->k, c->steps);
}
/* L = ke + sx . x_final + sv . v_final, over [x0, v0] */
static double verlet_F(const double *xv, void *p) {
  struct ctx *c = p; int n = c->nx; double x[16], v[16];
  memcpy(x, xv, n * sizeof(double)); memcpy(v, xv + n, n * sizeof(double));
  double L = verlet(x, v, n, c->k, c->D, c->steps);
  for (int i = 0; i < n; ++i) L += c->sx[i] * x[i] + c->sv[i] * v[i];
  return L;
}

int main(void) {
  enum { NX = 7, NY = 6 };
  double u0[NX * NY], du0[NX * NY] = {0};
  for (int i = 0; i < NX; ++i)
    for (int j = 0; j < NY; ++j) u0[i * NY + j] = 0.5 + 0.3 * sin(0.9 * i) * cos(1.1 * j);
  two g = __enzyme_autodiff_two((void *)react_diffuse, enzyme_dup, u0, du0, enzyme_const, NX,
                                enzyme_const, NY, 0.2, 1.5, enzyme_const, 40);
  struct ctx c = {NX, NY, 40, 0.2, 1.5, 0, 0};
  for (int i = 0; i < NX * NY; ++i) {
    double e[NX * NY] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(rd_F, &c, u0, e, NX * NY), du0[i], 1e-6, 1e-9);
  }
  double h = 1e-6;
  CHECK_CLOSE_TOL((react_diffuse(u0, NX, NY, 0.2 + h, 1.5, 40) - react_diffuse(u0, NX, NY, 0.2 - h, 1.5, 40)) / (2 * h),
                  g.a, 1e-6, 1e-9);
  CHECK_CLOSE_TOL((react_diffuse(u0, NX, NY, 0.2, 1.5 + h, 40) - react_diffuse(u0, NX, NY, 0.2, 1.5 - h, 40)) / (2 * h),
                  g.b, 1e-6, 1e-9);

  enum { N = 6 };
  double x[N], v[N], dx[N], dv[N], sx[N], sv[N], xv0[2 * N];
  for (int i = 0; i < N; ++i) {
    xv0[i] = x[i] = 1.1 * i + 0.1 * sin(2.0 * i);
    xv0[N + i] = v[i] = 0.2 * cos(1.3 * i);
    sx[i] = dx[i] = 0.1 * (i + 1);
    sv[i] = dv[i] = -0.05 * i;
  }
  two gk = __enzyme_autodiff_two((void *)verlet, enzyme_dup, x, dx, enzyme_dup, v, dv,
                                 enzyme_const, N, 3.0, 1.0, enzyme_const, 300);
  struct ctx cv = {N, 0, 300, 1.0, 3.0, sx, sv};
  double got[2 * N];
  memcpy(got, dx, sizeof dx);
  memcpy(got + N, dv, sizeof dv);
  for (int i = 0; i < 2 * N; ++i) {
    double e[2 * N];
    memset(e, 0, sizeof e);
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(verlet_F, &cv, xv0, e, 2 * N), got[i], 1e-6, 1e-9);
  }
  double xp[N], vp[N], xm[N], vm[N], Lp, Lm;
  memcpy(xp, xv0, sizeof xp); memcpy(vp, xv0 + N, sizeof vp);
  memcpy(xm, xv0, sizeof xm); memcpy(vm, xv0 + N, sizeof vm);
  Lp = verlet(xp, vp, N, 3.0 + h, 1.0, 300);
  Lm = verlet(xm, vm, N, 3.0 - h, 1.0, 300);
  for (int i = 0; i < N; ++i) { Lp += sx[i] * xp[i] + sv[i] * vp[i]; Lm += sx[i] * xm[i] + sv[i] * vm[i]; }
  CHECK_CLOSE_TOL((Lp - Lm) / (2 * h), gk.a, 1e-6, 1e-9);
  memcpy(xp, xv0, sizeof xp); memcpy(vp, xv0 + N, sizeof vp);
  memcpy(xm, xv0, sizeof xm); memcpy(vm, xv0 + N, sizeof vm);
  Lp = verlet(xp, vp, N, 3.0, 1.0 + h, 300);
  Lm = verlet(xm, vm, N, 3.0, 1.0 - h, 300);
  for (int i = 0; i < N; ++i) { Lp += sx[i] * xp[i] + sv[i] * vp[i]; Lm += sx[i] * xm[i] + sv[i] * vm[i]; }
  CHECK_CLOSE_TOL((Lp - Lm) / (2 * h), gk.b, 1e-6, 1e-9);
  return fd_report();
}
