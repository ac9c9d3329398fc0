// Reverse mode on in-place dense linear algebra as a scientist writes it:
// LU factorization with partial pivoting (row swaps chosen by comparisons,
// in place) followed by a solve, the Thomas algorithm for a tridiagonal
// system with malloc'd work arrays, Gauss-Seidel sweeps updating the
// solution in place, a Cholesky factorization, power iteration that
// normalizes its vector in place, and an insertion sort of the input
// followed by a weighted sum (the gradient is the permuted weights).
// Pointer-walking loops (*p++, while (p < end)). Checked against finite
// differences and analytic formulas.
// RUN: sh %testlib/run-c.sh %s
// RUN: env ADTEST_LEVELS=3 sh %testlib/run-c.sh %s -march=native

#include <stdlib.h>
#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

enum { MAXN = 8 };

/* solves A x = b in place (A overwritten by LU, b by x); returns sum c_i x_i */
double lu_solve(double *A, double *b, const double *c, int n) {
  int piv[MAXN];
  for (int k = 0; k < n; ++k) {
    int p = k;
    double best = fabs(A[k * n + k]);
    for (int i = k + 1; i < n; ++i)
      if (fabs(A[i * n + k]) > best) { best = fabs(A[i * n + k]); p = i; }
    piv[k] = p;
    if (p != k) {
      for (int j = 0; j < n; ++j) {
        double t = A[k * n + j]; A[k * n + j] = A[p * n + j]; A[p * n + j] = t;
      }
      double t = b[k]; b[k] = b[p]; b[p] = t;
    }
    for (int i = k + 1; i < n; ++i) {
      double l = A[i * n + k] / A[k * n + k];
      A[i * n + k] = l;
      for (int j = k + 1; j < n; ++j) A[i * n + j] -= l * A[k * n + j];
      b[i] -= l * b[k];
    }
  }
  for (int i = n - 1; i >= 0; --i) {
    double s = b[i];
    for (int j = i + 1; j < n; ++j) s -= A[i * n + j] * b[j];
    b[i] = s / A[i * n + i];
  }
  double r = 0;
  for (int i = 0; i < n; ++i) r += c[i] * b[i];
  (void)piv;
  return r;
}
/* tridiagonal: a sub, d diag, u super, r rhs; returns x . x */
double thomas(const double *a, const double *d, const double *u, const double *r, int n) {
  double *cp = malloc(n * sizeof(double)), *dp = malloc(n * sizeof(double));
  cp[0] = u[0] / d[0];
  dp[0] = r[0] / d[0];
  for (int i = 1; i < n; ++i) {
    double m = d[i] - a[i] * cp[i - 1];
    cp[i] = i + 1 < n ? u[i] / m : 0;
    dp[i] = (r[i] - a[i] * dp[i - 1]) / m;
  }
  for (int i = n - 2; i >= 0; --i) dp[i] -= cp[i] * dp[i + 1];
  double s = 0;
  const double *p = dp, *end = dp + n;
  while (p < end) { s += *p * *p; ++p; }
  free(cp);
  free(dp);
  return s;
}
/* Gauss-Seidel on the 1-D Poisson matrix (2 on the diagonal, -1 off), x in place */
void gauss_seidel(double *x, const double *f, int n, int sweeps) {
  for (int s = 0; s < sweeps; ++s)
    for (int i = 0; i < n; ++i) {
      double left = i > 0 ? x[i - 1] : 0, right = i + 1 < n ? x[i + 1] : 0;
      x[i] = 0.5 * (f[i] + left + right);
    }
}
/* Cholesky of SPD A (lower, in a local copy); returns log det A */
double logdet(const double *A, int n) {
  double L[MAXN * MAXN];
  memcpy(L, A, n * n * sizeof(double));
  double ld = 0;
  for (int j = 0; j < n; ++j) {
    double s = L[j * n + j];
    for (int k = 0; k < j; ++k) s -= L[j * n + k] * L[j * n + k];
    double ljj = sqrt(s);
    L[j * n + j] = ljj;
    ld += 2 * log(ljj);
    for (int i = j + 1; i < n; ++i) {
      double t = L[i * n + j];
      for (int k = 0; k < j; ++k) t -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = t / ljj;
    }
  }
  return ld;
}
/* dominant eigenvalue of symmetric A by power iteration, v normalized in place */
double power_iter(const double *A, double *v, int n, int iters) {
  double w[MAXN], lambda = 0;
  for (int it = 0; it < iters; ++it) {
    for (int i = 0; i < n; ++i) {
      double s = 0;
      for (int j = 0; j < n; ++j) s += A[i * n + j] * v[j];
      w[i] = s;
    }
    double nrm = 0;
    for (int i = 0; i < n; ++i) nrm += w[i] * w[i];
    nrm = sqrt(nrm);
    lambda = 0;
    for (int i = 0; i < n; ++i) lambda += v[i] * w[i];
    for (int i = 0; i < n; ++i) v[i] = w[i] / nrm;
  }
  return lambda;
}
/* insertion sort of a copy, then sum w_i * sorted_i */
double sorted_dot(const double *x, const double *w, int n) {
  double s[MAXN];
  double *q = s;
  for (const double *p = x; p != x + n; ) *q++ = *p++;
  for (int i = 1; i < n; ++i) {
    double key = s[i];
    int j = i - 1;
    while (j >= 0 && s[j] > key) { s[j + 1] = s[j]; --j; }
    s[j + 1] = key;
  }
  double r = 0;
  for (int i = 0; i < n; ++i) r += w[i] * s[i] * s[i];
  return r;
}

struct ctx { int n; const double *p[4]; int which; };
static double lu_A(const double *v, void *p) {
  struct ctx *c = p; double A[64], b[8];
  memcpy(A, v, c->n * c->n * sizeof(double)); memcpy(b, c->p[0], c->n * sizeof(double));
  double r = lu_solve(A, b, c->p[1], c->n);
  for (int i = 0; i < c->n * c->n; ++i) r += 0.125 * A[i];
  for (int i = 0; i < c->n; ++i) r += 0.25 * b[i];
  return r;
}
static double lu_b(const double *v, void *p) {
  struct ctx *c = p; double A[64], b[8];
  memcpy(A, c->p[0], c->n * c->n * sizeof(double)); memcpy(b, v, c->n * sizeof(double));
  double r = lu_solve(A, b, c->p[1], c->n);
  for (int i = 0; i < c->n * c->n; ++i) r += 0.125 * A[i];
  for (int i = 0; i < c->n; ++i) r += 0.25 * b[i];
  return r;
}
static double thomas_F(const double *v, void *p) {
  struct ctx *c = p; const double *q[4] = {c->p[0], c->p[1], c->p[2], c->p[3]};
  q[c->which] = v;
  return thomas(q[0], q[1], q[2], q[3], c->n);
}
static double gs_F(const double *v, void *p) {
  struct ctx *c = p; double x[16];
  memcpy(x, c->p[0], c->n * sizeof(double));
  gauss_seidel(x, v, c->n, 6);
  double s = 0; for (int i = 0; i < c->n; ++i) s += c->p[1][i] * x[i];
  return s;
}
static double gs_x(const double *v, void *p) {
  struct ctx *c = p; double x[16];
  memcpy(x, v, c->n * sizeof(double));
  gauss_seidel(x, c->p[0], c->n, 6);
  double s = 0; for (int i = 0; i < c->n; ++i) s += c->p[1][i] * x[i];
  return s;
}
static double logdet_F(const double *v, void *p) { struct ctx *c = p; return logdet(v, c->n); }
static double power_F(const double *v, void *p) {
  struct ctx *c = p; double v0[8];
  memcpy(v0, c->p[0], c->n * sizeof(double));
  return power_iter(v, v0, c->n, 30);
}
static double sorted_F(const double *v, void *p) { struct ctx *c = p; return sorted_dot(v, c->p[0], c->n); }
static void check_grad(double (*F)(const double *, void *), void *ctx, const double *x, int n,
                       const double *got, double rtol) {
  for (int i = 0; i < n; ++i) {
    double e[64] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(F, ctx, x, e, n), got[i], rtol, 1e-8);
  }
}

int main(void) {
  enum { N = 5 };
  double A0[N * N], b0[N], c[N];
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) A0[i * N + j] = sin(1.3 * i + 0.7 * j + 0.2) + (i == j ? 0.5 : 0);
    b0[i] = cos(0.9 * i) + 0.3;
    c[i] = 1.0 + 0.2 * i;
  }
  /* LU with pivoting: A and b overwritten, shadows zeroed */
  {
    double A[N * N], b[N], dA[N * N], db[N];
    memcpy(A, A0, sizeof A); memcpy(b, b0, sizeof b);
    for (int i = 0; i < N * N; ++i) dA[i] = 0.125;
    for (int i = 0; i < N; ++i) db[i] = 0.25;
    __enzyme_autodiff((void *)lu_solve, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, c,
                      enzyme_const, N);
    /* A and b are overwritten: their initial shadows seed the final LU
     * factors and the solution, so the reference is
     * r + 0.125 sum(LU) + 0.25 sum(x), and the shadows end as its gradient */
    struct ctx cA = {N, {b0, c}, 0}, cb = {N, {A0, c}, 0};
    check_grad(lu_A, &cA, A0, N * N, dA, 1e-6);
    check_grad(lu_b, &cb, b0, N, db, 1e-6);
  }
  /* Thomas */
  {
    enum { M = 9 };
    double a[M], d[M], u[M], r[M], ga[M] = {0}, gd[M] = {0}, gu[M] = {0}, gr[M] = {0};
    for (int i = 0; i < M; ++i) {
      a[i] = i ? -1.0 + 0.1 * sin(i) : 0;
      u[i] = i + 1 < M ? -1.0 + 0.1 * cos(i) : 0;
      d[i] = 3.0 + 0.2 * i;
      r[i] = sin(0.5 * i) + 0.5;
    }
    __enzyme_autodiff((void *)thomas, enzyme_dup, a, ga, enzyme_dup, d, gd, enzyme_dup, u, gu,
                      enzyme_dup, r, gr, enzyme_const, M);
    const double *g[4] = {ga, gd, gu, gr}, *v[4] = {a, d, u, r};
    for (int w = 0; w < 4; ++w) {
      struct ctx cc = {M, {a, d, u, r}, w};
      /* the unused corners a[0] and u[M-1] get exactly zero */
      double e0 = w == 0 ? g[w][0] : 0, e1 = w == 2 ? g[w][M - 1] : 0;
      CHECK(e0 == 0 && e1 == 0);
      for (int i = 0; i < M; ++i) {
        if ((w == 0 && i == 0) || (w == 2 && i == M - 1)) continue;
        double e[M] = {0};
        e[i] = 1;
        CHECK_CLOSE_TOL(fd_dir(thomas_F, &cc, v[w], e, M), g[w][i], 1e-6, 1e-9);
      }
    }
  }
  /* Gauss-Seidel: x in place (its seed is the output weight), f read */
  {
    enum { M = 10 };
    double x[M], x0[M], dx[M], f[M], df[M] = {0}, wts[M];
    for (int i = 0; i < M; ++i) { x0[i] = x[i] = 0.1 * i; f[i] = sin(0.4 * i) + 1; wts[i] = 1 + 0.3 * i; dx[i] = wts[i]; }
    __enzyme_autodiff_void((void *)gauss_seidel, enzyme_dup, x, dx, enzyme_dup, f, df,
                           enzyme_const, M, enzyme_const, 6);
    struct ctx cf = {M, {x0, wts}, 0}, cx = {M, {f, wts}, 0};
    check_grad(gs_F, &cf, f, M, df, 1e-6);
    check_grad(gs_x, &cx, x0, M, dx, 1e-6);
  }
  /* log det by Cholesky: gradient of log det A is inv(A) (only the lower triangle is read) */
  {
    double S[N * N], dS[N * N] = {0};
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0;
        for (int k = 0; k < N; ++k) s += A0[i * N + k] * A0[j * N + k];
        S[i * N + j] = s + (i == j ? 1.0 : 0);
      }
    __enzyme_autodiff((void *)logdet, enzyme_dup, S, dS, enzyme_const, N);
    struct ctx cc = {N, {0}, 0};
    check_grad(logdet_F, &cc, S, N * N, dS, 1e-6);
    for (int i = 0; i < N; ++i)
      for (int j = i + 1; j < N; ++j) CHECK(dS[i * N + j] == 0);
  }
  /* power iteration: d lambda / dA = v v^T at convergence; 30 iterations */
  {
    double S[N * N], dS[N * N] = {0}, v[N], v0[N], dv[N] = {0};
    for (int i = 0; i < N; ++i) {
      v0[i] = v[i] = 1.0 / (1 + i);
      for (int j = 0; j < N; ++j) S[i * N + j] = 1.0 / (1 + i + j) + (i == j ? 0.1 * i : 0);
    }
    __enzyme_autodiff((void *)power_iter, enzyme_dup, S, dS, enzyme_dup, v, dv, enzyme_const, N,
                      enzyme_const, 30);
    struct ctx cc = {N, {v0}, 0};
    check_grad(power_F, &cc, S, N * N, dS, 1e-5);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) CHECK_CLOSE_TOL(v[i] * v[j], dS[i * N + j], 1e-6, 1e-8);
  }
  /* sort */
  {
    double x[7] = {0.9, -0.3, 2.1, 0.4, -1.7, 1.2, 0.05}, dx[7] = {0}, w[7], dw[7] = {0};
    for (int i = 0; i < 7; ++i) w[i] = 1 + i;
    __enzyme_autodiff((void *)sorted_dot, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const, 7);
    struct ctx cc = {7, {w}, 0};
    check_grad(sorted_F, &cc, x, 7, dx, 1e-6);
    /* rank of each x: the sorted position */
    for (int i = 0; i < 7; ++i) {
      int rank = 0;
      for (int j = 0; j < 7; ++j) rank += x[j] < x[i];
      CHECK_CLOSE(2 * w[rank] * x[i], dx[i]);
      CHECK_CLOSE(x[i] * x[i], dw[rank]);
    }
  }
  return fd_report();
}
