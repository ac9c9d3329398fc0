// Forward mode through nested loops: a non-square matrix-vector product
// writing an output array (dy = dA x + A dx, with A and x dup, and with A
// const), a quadratic form x^T A x returned by value, and one Jacobi sweep
// of a 2D 5-point stencil over a grid with fixed borders.
// RUN: sh %testlib/run-c.sh %s
// RUN: sh %testlib/run-c.sh %s -DFD_REAL=float

#include "enzyme.h"
#include "fdcheck.h"

#if FD_REAL_IS_DOUBLE
#define FWD __enzyme_fwddiff
#else
#define FWD __enzyme_fwddiff_float
#endif

void matvec(real *y, const real *A, const real *x, int m, int n) {
  for (int i = 0; i < m; ++i) {
    real s = 0;
    for (int j = 0; j < n; ++j)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

real quadform(const real *A, const real *x, int n) {
  real q = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      q += x[i] * A[i * n + j] * x[j];
  return q;
}

/* out = in on the border, the 5-point average plus a source inside. */
void jacobi(real *out, const real *in, const real *src, int rows, int cols) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      int k = i * cols + j;
      if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
        out[k] = in[k];
      else
        out[k] = (real)0.2 * (in[k] + in[k - 1] + in[k + 1] + in[k - cols] +
                              in[k + cols]) +
                 src[k] * in[k] * in[k];
    }
}

enum { M = 5, N = 7, R = 6, C = 9 };

struct mv_ctx {
  int m, n;
};
/* v = [A (m*n); x (n)] */
static void matvec_fd(const double *v, double *out, void *p) {
  struct mv_ctx *c = (struct mv_ctx *)p;
  real A[M * N], x[N], y[M];
  for (int i = 0; i < c->m * c->n; ++i)
    A[i] = (real)v[i];
  for (int j = 0; j < c->n; ++j)
    x[j] = (real)v[c->m * c->n + j];
  matvec(y, A, x, c->m, c->n);
  for (int i = 0; i < c->m; ++i)
    out[i] = y[i];
}
static double quadform_fd(const double *v, void *p) {
  int n = ((struct mv_ctx *)p)->n;
  real A[N * N], x[N];
  for (int i = 0; i < n * n; ++i)
    A[i] = (real)v[i];
  for (int j = 0; j < n; ++j)
    x[j] = (real)v[n * n + j];
  return quadform(A, x, n);
}
static const real *jacobi_src;
static void jacobi_fd(const double *v, double *out, void *p) {
  (void)p;
  real in[R * C], o[R * C];
  for (int i = 0; i < R * C; ++i)
    in[i] = (real)v[i];
  jacobi(o, in, jacobi_src, R, C);
  for (int i = 0; i < R * C; ++i)
    out[i] = o[i];
}

int main(void) {
  volatile int mv = M, nv = N;
  int m = mv, n = nv;
  real A[N * N], dA[N * N], x[N], dx[N], y[M], dy[M];
  double v[N * N + N], dv[N * N + N], fd[R * C], an[R * C];
  for (int i = 0; i < N * N; ++i) {
    A[i] = (real)(0.3 * sin(0.9 * i + 0.1) + 0.02 * i);
    dA[i] = (real)(0.5 * cos(1.1 * i));
  }
  for (int j = 0; j < N; ++j) {
    x[j] = (real)(1.2 - 0.25 * j);
    dx[j] = (real)(0.1 + 0.3 * sin(2.0 * j));
  }

  /* matvec, A and x dup. */
  for (int i = 0; i < m; ++i) {
    an[i] = 0;
    for (int j = 0; j < n; ++j)
      an[i] += (double)dA[i * n + j] * x[j] + (double)A[i * n + j] * dx[j];
  }
  for (int i = 0; i < m * n; ++i) {
    v[i] = A[i];
    dv[i] = dA[i];
  }
  for (int j = 0; j < n; ++j) {
    v[m * n + j] = x[j];
    dv[m * n + j] = dx[j];
  }
  struct mv_ctx c = {m, n};
  fd_dir_vec(matvec_fd, &c, v, dv, m * n + n, fd, m);
  for (int i = 0; i < m; ++i)
    CHECK_CLOSE(an[i], fd[i]);
  for (int i = 0; i < m; ++i)
    y[i] = dy[i] = 555;
  __enzyme_fwddiff_void((void *)matvec, enzyme_dup, y, dy, enzyme_dup, A, dA,
                        enzyme_dup, x, dx, enzyme_const, m, enzyme_const, n);
  for (int i = 0; i < m; ++i) {
    double yi = 0;
    for (int j = 0; j < n; ++j)
      yi += (double)A[i * n + j] * x[j];
    CHECK_CLOSE(yi, y[i]);
    CHECK_CLOSE(an[i], dy[i]);
  }

  /* matvec, A const: dy = A dx. */
  for (int i = 0; i < m; ++i) {
    an[i] = 0;
    for (int j = 0; j < n; ++j)
      an[i] += (double)A[i * n + j] * dx[j];
    dy[i] = -1;
  }
  __enzyme_fwddiff_void((void *)matvec, y, dy, enzyme_const, A, x, dx, m, n);
  for (int i = 0; i < m; ++i)
    CHECK_CLOSE(an[i], dy[i]);

  /* quadform over the n x n matrix: dq = dx'Ax + x'dAx + x'Adx. */
  double dq = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      dq += (double)dx[i] * A[i * n + j] * x[j] +
            (double)x[i] * dA[i * n + j] * x[j] +
            (double)x[i] * A[i * n + j] * dx[j];
  for (int i = 0; i < n * n; ++i) {
    v[i] = A[i];
    dv[i] = dA[i];
  }
  for (int j = 0; j < n; ++j) {
    v[n * n + j] = x[j];
    dv[n * n + j] = dx[j];
  }
  CHECK_CLOSE(dq, fd_dir(quadform_fd, &c, v, dv, n * n + n));
  CHECK_CLOSE(dq, FWD((void *)quadform, enzyme_dup, A, dA, enzyme_dup, x, dx,
                      enzyme_const, n));

  /* One Jacobi sweep; src const. */
  volatile int rv = R, cv = C;
  int rows = rv, cols = cv;
  real in[R * C], din[R * C], out[R * C], dout[R * C], src[R * C];
  double inv[R * C], dinv[R * C];
  for (int k = 0; k < R * C; ++k) {
    in[k] = (real)(1 + 0.5 * sin(0.37 * k));
    din[k] = (real)(0.2 * cos(0.61 * k) + 0.05);
    src[k] = (real)(0.01 * (k % 7));
    inv[k] = in[k];
    dinv[k] = din[k];
    out[k] = dout[k] = 8;
  }
  jacobi_src = src;
  fd_dir_vec(jacobi_fd, 0, inv, dinv, R * C, fd, R * C);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      int k = i * cols + j;
      if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1)
        an[k] = din[k];
      else
        an[k] = 0.2 * ((double)din[k] + din[k - 1] + din[k + 1] +
                       din[k - cols] + din[k + cols]) +
                2.0 * src[k] * in[k] * din[k];
      CHECK_CLOSE(an[k], fd[k]);
    }
  __enzyme_fwddiff_void((void *)jacobi, enzyme_dup, out, dout, enzyme_dup, in,
                        din, enzyme_const, src, enzyme_const, rows,
                        enzyme_const, cols);
  real ref[R * C];
  jacobi(ref, in, src, rows, cols);
  for (int k = 0; k < R * C; ++k) {
    CHECK_CLOSE(ref[k], out[k]);
    CHECK_CLOSE(an[k], dout[k]);
  }
  return fd_report();
}
