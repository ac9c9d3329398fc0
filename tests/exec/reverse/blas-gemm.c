// Numba's matrix-matrix helper numba_xxgemm (what `A @ B` lowers to) has a
// built-in rule in both modes: the derivative calls numba_xxgemm again (two
// products each way) instead of differentiating its body. Checked against
// finite differences for every combination of transposes, leading
// dimensions larger than the rows, alpha and beta other than 1 and 0, a C
// that is read before it is overwritten, operands overwritten after the
// call (the tape keeps them), a constant operand, single precision, and
// forward mode at enzyme_width 2 with beta != 0 (the primal runs once);
// Fortran's dgemm_ with alpha and beta active (their pointers' shadows get
// their gradients).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stddef.h>
#include <string.h>

/* Fortran's gemm, column-major: C (m x n) = alpha op(A) op(B) + beta C. */
#define GEMM_BODY(T)                                                           \
  const T *A = a, *B = b;                                                      \
  T *C = c, al = *(T *)alpha, be = *(T *)beta;                                 \
  int ta = transa == 't' || transa == 'T', tb = transb == 't' || transb == 'T'; \
  for (ptrdiff_t j = 0; j < n; ++j)                                            \
    for (ptrdiff_t i = 0; i < m; ++i) {                                        \
      T s = 0;                                                                 \
      for (ptrdiff_t p = 0; p < k; ++p)                                        \
        s += (ta ? A[p + i * lda] : A[i + p * lda]) *                          \
             (tb ? B[j + p * ldb] : B[p + j * ldb]);                           \
      C[i + j * ldc] = al * s + (be == 0 ? 0 : be * C[i + j * ldc]);           \
    }
__attribute__((noinline)) int numba_xxgemm(char kind, char transa, char transb,
                                           ptrdiff_t m, ptrdiff_t n, ptrdiff_t k,
                                           void *alpha, void *a, ptrdiff_t lda,
                                           void *b, ptrdiff_t ldb, void *beta,
                                           void *c, ptrdiff_t ldc) {
  if (kind == 'd') {
    GEMM_BODY(double)
    return 0;
  }
  if (kind == 's') {
    GEMM_BODY(float)
    return 0;
  }
  return 1;
}

/* x holds A (stored 4 x 3 with lda 4: the first 3 rows used when op(A) is
   3 x 2 from 't'... see below) and B: A = x[0..11], B = x[12..23]. The
   loss reads C = alpha op(A) op(B) + beta C0 (C0 from x too), 3 x 2 with
   ldc 3. */
enum { N = 24 };

static double loss(const double *c, int m, int n, int ldc) {
  double s = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      s += sin(c[i + j * ldc]) * (1.0 + 0.1 * i + 0.2 * j);
  return s;
}

static char trans_a = 'n', trans_b = 'n';

double f(double *x, int unused) {
  (void)unused;
  int m = 3, n = 2, k = 3;
  /* A: op(A) is m x k. Stored m x k (lda 4) for 'n', k x m (lda 4) for 't'. */
  double *A = x, *B = x + 12;
  /* B: op(B) is k x n. Stored k x n (ldb 4) for 'n', n x k (ldb 3) for 't'. */
  ptrdiff_t ldb = trans_b == 'n' ? 4 : 3;
  double c[6], alpha = 0.7, beta = -0.4;
  for (int i = 0; i < 6; ++i)
    c[i] = 0.3 * x[i] - 0.1 * x[23 - i]; /* C0 depends on x */
  if (numba_xxgemm('d', trans_a, trans_b, m, n, k, &alpha, A, 4, B, ldb, &beta,
                   c, 3) != 0)
    return -1;
  x[0] = 5.0; /* A and B are overwritten after the call: taped */
  x[13] = -2.0;
  return loss(c, m, n, 3);
}

static double f_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f(x, 0);
}

static double f_beta(double *x, int unused);
static double beta_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_beta(x, 0);
}

/* A constant operand: B is a fixed table. */
static double table[8] = {0.5, -1.0, 0.25, 2.0, 1.5, -0.5, 0.75, 0.1};
double f_const_b(double *x, int unused) {
  (void)unused;
  double c[4] = {0}, one = 1, zero = 0;
  /* C (2 x 2) = A (2 x 4, lda 2) B (4 x 2, ldb 4). */
  numba_xxgemm('d', 'n', 'n', 2, 2, 4, &one, x, 2, table, 4, &zero, c, 2);
  return c[0] * c[3] - c[1] * c[2];
}
static double const_b_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_const_b(x, 0);
}

/* Fortran's dgemm_: everything by pointer. */
__attribute__((noinline)) void dgemm_(const char *transa, const char *transb,
                                      const int *pm, const int *pn,
                                      const int *pk, const double *alpha,
                                      const double *a, const int *plda,
                                      const double *b, const int *pldb,
                                      const double *beta, double *c,
                                      const int *pldc) {
  ptrdiff_t m = *pm, n = *pn, k = *pk, lda = *plda, ldb = *pldb, ldc = *pldc;
  char ta_ = *transa, tb_ = *transb;
  double al = *alpha, be = *beta;
  int ta = ta_ == 't' || ta_ == 'T', tb = tb_ == 't' || tb_ == 'T';
  for (ptrdiff_t j = 0; j < n; ++j)
    for (ptrdiff_t i = 0; i < m; ++i) {
      double s = 0;
      for (ptrdiff_t p = 0; p < k; ++p)
        s += (ta ? a[p + i * lda] : a[i + p * lda]) *
             (tb ? b[j + p * ldb] : b[p + j * ldb]);
      c[i + j * ldc] = al * s + (be == 0 ? 0 : be * c[i + j * ldc]);
    }
}

/* Active alpha and beta through pointers: C = alpha A^T B + beta C0, with
   alpha = x[22] * x[23] and beta = x[21]. */
static double f_fortran(double *x, int unused);
static double fortran_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_fortran(x, 0);
}
static double f_fortran(double *x, int unused) {
  (void)unused;
  int m = 2, n = 3, k = 3, lda = 3, ldb = 3, ldc = 2;
  double c[6], alpha = x[22] * x[23], beta = x[21];
  for (int i = 0; i < 6; ++i)
    c[i] = x[i + 12] * 0.5;
  char t = 't', nn = 'n';
  dgemm_(&t, &nn, &m, &n, &k, &alpha, x, &lda, x + 3, &ldb, &beta, c, &ldc);
  return sin(c[0]) + c[1] * c[2] + cos(c[3]) * c[4] + c[5];
}

/* Numba's matrix-vector helper, for the width-2 check below. */
__attribute__((noinline)) int numba_xxgemv(char kind, char trans, ptrdiff_t m,
                                           ptrdiff_t n, void *alpha, void *a,
                                           ptrdiff_t lda, void *x, void *beta,
                                           void *y) {
  if (kind != 'd') return 1;
  const double *A = a, *X = x;
  double *Y = y, al = *(double *)alpha, be = *(double *)beta;
  int tr = trans == 't' || trans == 'T';
  for (ptrdiff_t r = 0; r < (tr ? n : m); ++r) {
    double s = 0;
    for (ptrdiff_t q = 0; q < (tr ? m : n); ++q)
      s += (tr ? A[q + r * lda] : A[r + q * lda]) * X[q];
    Y[r] = al * s + (be == 0 ? 0 : be * Y[r]);
  }
  return 0;
}

/* beta != 0 and a nonlinear use of the result: with enzyme_width 2 the
   forward rules run once per lane, and the primal (C = ... + beta C) must
   still run once (it ran twice, silently changing C and the tangents). */
static double f_beta(double *x, int unused) {
  (void)unused;
  double c[4] = {1, 2, 3, 4}, y[2] = {0.5, -0.5}, one = 1, half = 0.5;
  numba_xxgemm('d', 'n', 'n', 2, 2, 2, &one, x, 2, x + 4, 2, &half, c, 2);
  numba_xxgemv('d', 'n', 2, 2, &one, x, 2, x + 6, &half, y);
  return sin(c[0]) + c[1] * c[2] + cos(c[3]) + sin(y[0]) * y[1];
}

float f_single(float *x, int unused) {
  (void)unused;
  float c[4] = {0}, one = 1, zero = 0;
  numba_xxgemm('s', 'n', 't', 2, 2, 3, &one, x, 2, x + 6, 2, &zero, c, 2);
  return c[0] * c[0] + c[1] * c[2] + c[3];
}

int main(void) {
  double x0[N], x[N], dx[N];
  for (int i = 0; i < N; ++i)
    x0[i] = (i % 2 ? -1 : 1) * (0.3 + 0.037 * i); /* away from 0: FD steps are relative */
  const char modes[2] = {'n', 't'};
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < 2; ++q) {
      trans_a = modes[p];
      trans_b = modes[q];
      memcpy(x, x0, sizeof x);
      memset(dx, 0, sizeof dx);
      __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 0);
      CHECK_GRADIENT(f_fd, 0, x0, N, dx);
      /* Forward mode along v: the tangent is grad . v. */
      double v[N], dv[N], want = 0;
      for (int i = 0; i < N; ++i) {
        v[i] = 0.5 - 0.04 * i;
        want += dx[i] * v[i];
      }
      memcpy(x, x0, sizeof x);
      memcpy(dv, v, sizeof dv);
      double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, dv, enzyme_const, 0);
      CHECK_CLOSE(want, t);
    }

  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f_const_b, enzyme_dup, x, dx, enzyme_const, 0);
  CHECK_GRADIENT(const_b_fd, 0, x0, 8, dx);

  /* Fortran's dgemm_, alpha and beta active. */
  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f_fortran, enzyme_dup, x, dx, enzyme_const, 0);
  CHECK_GRADIENT(fortran_fd, 0, x0, N, dx);
  {
    double v[N], dv[N], want = 0;
    for (int i = 0; i < N; ++i) {
      v[i] = 0.25 + 0.03 * i;
      want += dx[i] * v[i];
    }
    memcpy(x, x0, sizeof x);
    memcpy(dv, v, sizeof dv);
    CHECK_CLOSE(want, __enzyme_fwddiff((void *)f_fortran, enzyme_dup, x, dv,
                                       enzyme_const, 0));
    double e0[N] = {0}, e1[N] = {0};
    e0[21] = 1;
    e1[22] = 1;
    memcpy(x, x0, sizeof x);
    enzyme_v2 t = __enzyme_fwddiff_v2((void *)f_fortran, enzyme_width, 2,
                                      enzyme_dup, x, e0, e1, enzyme_const, 0);
    CHECK_CLOSE(dx[21], t.d[0]);
    CHECK_CLOSE(dx[22], t.d[1]);
  }

  /* Width 2 against width 1, two directions at a time. */
  for (int j = 0; j + 1 < 8; j += 2) {
    double e0[N] = {0}, e1[N] = {0}, t1[2];
    e0[j] = 1;
    e1[j + 1] = 1;
    memcpy(x, x0, sizeof x);
    enzyme_v2 t2 = __enzyme_fwddiff_v2((void *)f_beta, enzyme_width, 2,
                                       enzyme_dup, x, e0, e1, enzyme_const, 0);
    for (int l = 0; l < 2; ++l) {
      double e[N] = {0};
      e[j + l] = 1;
      memcpy(x, x0, sizeof x);
      t1[l] = __enzyme_fwddiff((void *)f_beta, enzyme_dup, x, e, enzyme_const, 0);
    }
    CHECK_CLOSE(t1[0], t2.d[0]);
    CHECK_CLOSE(t1[1], t2.d[1]);
    CHECK_CLOSE(fd_dir(beta_fd, 0, x0, e0, N), t1[0]);
  }

  /* float: C = A B^T with A 2 x 3 (x[0..5]) and B 2 x 3 (x[6..11]); check
     against the same function's finite differences in double. */
  float xf[12], dxf[12] = {0};
  for (int i = 0; i < 12; ++i)
    xf[i] = (float)x0[i];
  __enzyme_autodiff((void *)f_single, enzyme_dup, xf, dxf, enzyme_const, 0);
  for (int i = 0; i < 12; ++i) {
    float keep = xf[i], h = 1e-2f;
    xf[i] = keep + h;
    float up = f_single(xf, 0);
    xf[i] = keep - h;
    float down = f_single(xf, 0);
    xf[i] = keep;
    CHECK_CLOSE_F((up - down) / (2 * h), dxf[i]);
  }
  return fd_report();
}
