// Vector forward mode, width 4 (`enzyme_width, 4`): the four tangents of a
// double return come back as a struct of four doubles, which the C ABI
// returns through an sret pointer (the request's first IR operand is then
// that pointer, not the function). The full gradient of a function of four
// scalars in one call, four directions through an array reduction, and a
// void matrix-vector product with four output shadows.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double f4(double a, double b, double c, double d) {
  return a * b * exp(-c) + sqrt(a * a + d * d) * cos(b - d) + c * c * d;
}
static void grad_f4(double a, double b, double c, double d, double g[4]) {
  double e = exp(-c), r = sqrt(a * a + d * d), cs = cos(b - d),
         sn = sin(b - d);
  g[0] = b * e + a / r * cs;
  g[1] = a * e - r * sn;
  g[2] = -a * b * e + 2 * c * d;
  g[3] = d / r * cs + r * sn + c * c;
}

double cubes(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i] * x[i] - x[i];
  return s;
}

void matvec_tanh(double *y, const double *A, const double *x, int m, int n) {
  for (int i = 0; i < m; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += A[i * n + j] * x[j];
    y[i] = tanh(s);
  }
}

struct ctx {
  int m, n;
};
static double f4_fd(const double *v, void *p) {
  (void)p;
  return f4(v[0], v[1], v[2], v[3]);
}
static double cubes_fd(const double *v, void *p) {
  return cubes(v, ((struct ctx *)p)->n);
}
static const double *mv_A;
static void mv_fd(const double *v, double *out, void *p) {
  struct ctx *c = (struct ctx *)p;
  matvec_tanh(out, mv_A, v, c->m, c->n);
}

enum { M = 3, N = 6 };

int main(void) {
  static const double pts[][4] = {{0.9, -0.4, 0.3, 1.7},
                                  {-1.3, 2.2, -0.8, 0.35}};
  for (unsigned k = 0; k < sizeof pts / sizeof pts[0]; ++k) {
    const double *p = pts[k];
    double g[4];
    grad_f4(p[0], p[1], p[2], p[3], g);
    for (int i = 0; i < 4; ++i) {
      double e[4] = {0, 0, 0, 0};
      e[i] = 1;
      CHECK_CLOSE(g[i], fd_dir(f4_fd, 0, p, e, 4));
    }
    enzyme_v4 r = __enzyme_fwddiff_v4(
        (void *)f4, enzyme_width, 4, enzyme_dup, p[0], 1.0, 0.0, 0.0, 0.0,
        enzyme_dup, p[1], 0.0, 1.0, 0.0, 0.0, enzyme_dup, p[2], 0.0, 0.0, 1.0,
        0.0, enzyme_dup, p[3], 0.0, 0.0, 0.0, 1.0);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE(g[i], r.d[i]);
    /* c const: lanes see only the seeds of a, b, d; unmarked doubles dup. */
    r = __enzyme_fwddiff_v4((void *)f4, enzyme_width, 4, p[0], 1.0, 0.0, 0.0,
                            2.0, p[1], 0.0, 1.0, 0.0, 0.0, enzyme_const, p[2],
                            p[3], 0.0, 0.0, 1.0, -1.0);
    CHECK_CLOSE(g[0], r.d[0]);
    CHECK_CLOSE(g[1], r.d[1]);
    CHECK_CLOSE(g[3], r.d[2]);
    CHECK_CLOSE(2 * g[0] - g[3], r.d[3]);
  }

  volatile int nv = N, mv = M;
  int n = nv, m = mv;
  double x[N], dxs[4][N];
  for (int j = 0; j < N; ++j) {
    x[j] = 0.35 * j - 0.8;
    for (int l = 0; l < 4; ++l)
      dxs[l][j] = (l == j % 4) ? 1.0 : 0.1 * l;
  }
  struct ctx c = {m, n};
  enzyme_v4 r = __enzyme_fwddiff_v4((void *)cubes, enzyme_width, 4, enzyme_dup,
                                    x, dxs[0], dxs[1], dxs[2], dxs[3],
                                    enzyme_const, n);
  for (int l = 0; l < 4; ++l) {
    double an = 0;
    for (int j = 0; j < n; ++j)
      an += (3 * x[j] * x[j] - 1) * dxs[l][j];
    CHECK_CLOSE(an, fd_dir(cubes_fd, &c, x, dxs[l], n));
    CHECK_CLOSE(an, r.d[l]);
  }

  double A[M * N], y[M], dys[4][M], fd[M];
  for (int i = 0; i < M * N; ++i)
    A[i] = 0.2 * sin(1.3 * i) + 0.05;
  mv_A = A;
  for (int l = 0; l < 4; ++l)
    for (int i = 0; i < M; ++i)
      dys[l][i] = 1000 + l;
  __enzyme_fwddiff_void((void *)matvec_tanh, enzyme_width, 4, enzyme_dup, y,
                        dys[0], dys[1], dys[2], dys[3], enzyme_const, A,
                        enzyme_dup, x, dxs[0], dxs[1], dxs[2], dxs[3],
                        enzyme_const, m, enzyme_const, n);
  for (int i = 0; i < m; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += A[i * n + j] * x[j];
    CHECK_CLOSE(tanh(s), y[i]);
  }
  for (int l = 0; l < 4; ++l) {
    fd_dir_vec(mv_fd, &c, x, dxs[l], n, fd, m);
    for (int i = 0; i < m; ++i) {
      double s = 0, ds = 0;
      for (int j = 0; j < n; ++j) {
        s += A[i * n + j] * x[j];
        ds += A[i * n + j] * dxs[l][j];
      }
      double an = (1 - tanh(s) * tanh(s)) * ds;
      CHECK_CLOSE(an, fd[i]);
      CHECK_CLOSE(an, dys[l][i]);
    }
  }
  return fd_report();
}
