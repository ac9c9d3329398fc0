// Reverse mode on C idioms of numerical code: C99 VLA-typed 2-D array
// parameters, `*out++` with a run-time stride, a struct of two doubles
// passed by value (two enzyme_out results), Numerical-Recipes-style row
// pointer swaps in a double** (partial pivoting by swapping rows), the
// `for (unsigned i = n; i-- > 0;)` reverse loop, inputs consumed and then
// cleared (memset and stores of zero), and an explicit Euler loop of
// 200000 steps. Checked against finite differences and analytic formulas.
// RUN: sh %testlib/run-c.sh %s

#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double a, b; } two;
two __enzyme_autodiff_two(void *, ...);

double vla_energy(int n, int m, const double a[n][m]) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      double up = i > 0 ? a[i - 1][j] : 0, left = j > 0 ? a[i][j - 1] : 0;
      s += (a[i][j] - up) * (a[i][j] - up) + (a[i][j] - left) * (a[i][j] - left) * 0.5;
    }
  return s;
}
void strided(double *out, const double *x, int n, int stride) {
  for (int i = 0; i < n; i += stride) *out++ = x[i] * x[i + 1];
}
typedef struct { double x, y; } v2;
double norm2(v2 v) { return sqrt(v.x * v.x + v.y * v.y); }
double det_rows(double **a, int n) {
  double det = 1;
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(a[i][k]) > fabs(a[p][k])) p = i;
    if (p != k) { double *t = a[k]; a[k] = a[p]; a[p] = t; det = -det; }
    det *= a[k][k];
    for (int i = k + 1; i < n; ++i) {
      double l = a[i][k] / a[k][k];
      for (int j = k; j < n; ++j) a[i][j] -= l * a[k][j];
    }
  }
  return det;
}
double rsum(const double *x, unsigned n) {
  double s = 0;
  for (unsigned i = n; i-- > 0;) s = s * 0.5 + x[i] * x[i];
  return s;
}
double consume(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i] * x[i];
  memset(x, 0, n * sizeof(double));
  return s;
}
double consume2(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) { s += sin(x[i]); x[i] = 0; }
  return s;
}
void euler(double *y, double k, long steps) {
  double dt = 1e-5;
  for (long s = 0; s < steps; ++s) {
    double y0 = y[0], y1 = y[1];
    y[0] = y0 + dt * y1;
    y[1] = y1 - dt * k * sin(y0);
  }
}

struct ctx { int n, m; };
static double vla_F(const double *v, void *p) {
  struct ctx *c = p;
  return vla_energy(c->n, c->m, (const double (*)[c->m])v);
}
static double det_F(const double *v, void *p) {
  (void)p;
  double m[9];
  memcpy(m, v, sizeof m);
  double *r[3] = {m, m + 3, m + 6};
  return det_rows(r, 3);
}
static double rsum_F(const double *v, void *p) { (void)p; return rsum(v, 5); }
static double euler_F(const double *v, void *p) {
  (void)p;
  double y[2] = {v[0], v[1]};
  euler(y, v[2], 200000);
  return y[0];
}
static void check_grad(double (*F)(const double *, void *), void *c, const double *x, int n,
                       const double *got, double rtol) {
  for (int i = 0; i < n; ++i) {
    double e[16] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(F, c, x, e, n), got[i], rtol, 1e-8);
  }
}

int main(void) {
  double a[12], da[12] = {0};
  for (int i = 0; i < 12; ++i) a[i] = sin(1.7 * i) + 0.3;
  __enzyme_autodiff((void *)vla_energy, enzyme_const, 3, enzyme_const, 4, enzyme_dup, a, da);
  struct ctx c = {3, 4};
  check_grad(vla_F, &c, a, 12, da, 1e-6);

  double out[4], dout[4] = {1, 2, 3, 4}, dx2[12] = {0}, ex[12] = {0};
  __enzyme_autodiff_void((void *)strided, enzyme_dup, out, dout, enzyme_dup, a, dx2,
                         enzyme_const, 11, enzyme_const, 3);
  for (int k = 0, i = 0; i < 11; i += 3, ++k) {
    CHECK_CLOSE(a[i] * a[i + 1], out[k]);
    ex[i] += (k + 1) * a[i + 1];
    ex[i + 1] += (k + 1) * a[i];
  }
  for (int i = 0; i < 12; ++i) CHECK_CLOSE(ex[i], dx2[i]);
  for (int k = 0; k < 4; ++k) CHECK(dout[k] == 0);

  v2 v = {3, 4};
  two g = __enzyme_autodiff_two((void *)norm2, v);
  CHECK_CLOSE(0.6, g.a);
  CHECK_CLOSE(0.8, g.b);

  double m[9] = {1, 2, 0.5, 3, 1, 2, 0.2, 4, 1}, m0[9], dm[9] = {0};
  memcpy(m0, m, sizeof m);
  double *r[3] = {m, m + 3, m + 6}, *dr[3] = {dm, dm + 3, dm + 6};
  __enzyme_autodiff((void *)det_rows, enzyme_dup, r, dr, enzyme_const, 3);
  check_grad(det_F, 0, m0, 9, dm, 1e-6);

  double x[5] = {0.5, 1, -1.5, 2, 0.25}, dx[5] = {0};
  __enzyme_autodiff((void *)rsum, enzyme_dup, x, dx, enzyme_const, 5u);
  check_grad(rsum_F, 0, x, 5, dx, 1e-6);

  double y[4] = {1, 2, 3, 4}, dy[4] = {10, 10, 10, 10};
  __enzyme_autodiff((void *)consume, enzyme_dup, y, dy, enzyme_const, 4);
  for (int i = 0; i < 4; ++i) { CHECK(y[i] == 0); CHECK_CLOSE(3.0 * (i + 1) * (i + 1), dy[i]); }
  double z[4] = {1, 2, 3, 4}, dz[4] = {10, 10, 10, 10};
  __enzyme_autodiff((void *)consume2, enzyme_dup, z, dz, enzyme_const, 4);
  for (int i = 0; i < 4; ++i) CHECK_CLOSE(cos(i + 1.0), dz[i]);

  double st[2] = {0.4, -0.2}, dst[2] = {1, 0}, e0[3] = {0.4, -0.2, 3.0};
  double dk = __enzyme_autodiff((void *)euler, enzyme_dup, st, dst, 3.0, enzyme_const, 200000L);
  double ge[3] = {dst[0], dst[1], dk};
  check_grad(euler_F, 0, e0, 3, ge, 1e-6);
  return fd_report();
}
