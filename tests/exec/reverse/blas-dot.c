// Built-in rules for BLAS dot products, in both modes: no user rule is
// registered, and the core differentiates cblas_ddot / cblas_sdot (with
// strides, a negative one included), the Fortran ddot_, and Numba's
// helper numba_xxdot (kinds 'd' and 's', status checked by the caller, a
// constant operand) and its matrix-vector helper numba_xxgemv (both
// transposes, alpha and beta), the operands overwritten by the caller after the
// call. The BLAS functions are defined below (out of line, as a library's
// would be) so the test needs no BLAS. Reverse gradients against finite
// differences; forward derivatives along a direction against the reverse
// gradient.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stddef.h>
#include <string.h>

__attribute__((noinline)) double cblas_ddot(int n, const double *x, int incx,
                                            const double *y, int incy) {
  double s = 0;
  int ix = incx < 0 ? (n - 1) * -incx : 0, iy = incy < 0 ? (n - 1) * -incy : 0;
  for (int i = 0; i < n; ++i, ix += incx, iy += incy) s += x[ix] * y[iy];
  return s;
}
__attribute__((noinline)) float cblas_sdot(int n, const float *x, int incx,
                                           const float *y, int incy) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += x[i * incx] * y[i * incy];
  return s;
}
__attribute__((noinline)) double ddot_(const int *n, const double *x, const int *incx,
                                       const double *y, const int *incy) {
  return cblas_ddot(*n, x, *incx, y, *incy);
}
__attribute__((noinline)) int numba_xxdot(char kind, char conj, size_t n, const void *x,
                                          const void *y, void *out) {
  (void)conj;
  if (kind == 'd') {
    *(double *)out = cblas_ddot((int)n, x, 1, y, 1);
    return 0;
  }
  if (kind == 's') {
    *(float *)out = cblas_sdot((int)n, x, 1, y, 1);
    return 0;
  }
  return 1;
}

/* Numba's matrix-vector helper: y = alpha op(A) x + beta y, A m x n
   column-major with leading dimension lda, op(A) = A for 'n', A^T for 't'. */
__attribute__((noinline)) int numba_xxgemv(char kind, char trans, ptrdiff_t m, ptrdiff_t n,
                                           void *alpha, void *a, ptrdiff_t lda, void *x,
                                           void *beta, void *y) {
  if (kind != 'd') return 1;
  const double *A = a, *X = x;
  double *Y = y, al = *(double *)alpha, be = *(double *)beta;
  int tr = trans == 't' || trans == 'T';
  ptrdiff_t ylen = tr ? n : m, xlen = tr ? m : n;
  for (ptrdiff_t r = 0; r < ylen; ++r) {
    double s = 0;
    for (ptrdiff_t k = 0; k < xlen; ++k)
      s += (tr ? A[k + r * lda] : A[r + k * lda]) * X[k];
    Y[r] = al * s + be * Y[r];
  }
  return 0;
}

enum { N = 6 };
static const double table[3] = {0.5, -1.5, 2.0};

double f_cblas(double *x, int n) {
  double a = cblas_ddot(n, x, 1, x, 1);            /* x . x */
  double b = cblas_ddot(n / 2, x, 2, x + 1, -2);   /* strided, one reversed */
  x[0] = 7.0;                                      /* overwritten afterwards */
  return sin(a) + a * b;
}

double f_fortran(double *x, int n) {
  int h = n / 2, one = 1;
  double d = ddot_(&h, x, &one, x + h, &one);
  return d * d;
}

double f_numba(double *x, int n) {
  double out;
  if (numba_xxdot('d', 0, 3, x, table, &out) != 0) return -1;
  double out2;
  if (numba_xxdot('d', 0, n, x, x, &out2) != 0) return -1;
  return exp(0.1 * out) * out2;
}

/* A (2 x 3, column-major, lda 2) is x[0..5]; v = x[0..2] for 'n' (length
   3), x[3..4] for 't' (length 2). */
double f_gemv(double *x, int n) {
  (void)n;
  double one = 1, half = 0.5, y[3] = {0.1, -0.2, 0.3}, z[3] = {0, 0, 0};
  if (numba_xxgemv('d', 'n', 2, 3, &one, x, 2, x, &half, y) != 0) return -1;
  if (numba_xxgemv('d', 't', 2, 3, &half, x, 2, x + 3, &one, z) != 0) return -1;
  return sin(y[0]) * y[1] + z[0] * z[1] - z[2] * z[2];
}

float f_sdot(float *x, int n) {
  float out;
  if (numba_xxdot('s', 0, n, x, x, &out) != 0) return -1;
  return out * cblas_sdot(n, x, 1, x, 1);
}

static double cblas_fd(const double *v, void *c) {
  (void)c;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_cblas(x, N);
}
static double fortran_fd(const double *v, void *c) {
  (void)c;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_fortran(x, N);
}
static double gemv_fd(const double *v, void *c) {
  (void)c;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_gemv(x, N);
}
static double numba_fd(const double *v, void *c) {
  (void)c;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_numba(x, N);
}

float __enzyme_autodiff_f(void *, ...);

int main(void) {
  const double x0[N] = {0.4, -0.3, 0.9, -0.8, 0.2, 1.1};
  double x[N], dx[N];

  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f_cblas, enzyme_dup, x, dx, enzyme_const, N);
  CHECK_GRADIENT(cblas_fd, 0, x0, N, dx);

  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f_fortran, enzyme_dup, x, dx, enzyme_const, N);
  CHECK_GRADIENT(fortran_fd, 0, x0, N, dx);

  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f_numba, enzyme_dup, x, dx, enzyme_const, N);
  CHECK_GRADIENT(numba_fd, 0, x0, N, dx);

  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f_gemv, enzyme_dup, x, dx, enzyme_const, N);
  CHECK_GRADIENT(gemv_fd, 0, x0, N, dx);

  /* Forward mode along v: the tangent is grad . v. */
  const double v[N] = {0.3, -1.0, 0.5, 0.25, -0.7, 1.2};
#define FORWARD_MATCHES_REVERSE(F)                                              \
  do {                                                                         \
    double g[N] = {0}, dv[N];                                                  \
    memcpy(x, x0, sizeof x);                                                   \
    __enzyme_autodiff((void *)F, enzyme_dup, x, g, enzyme_const, N);           \
    memcpy(x, x0, sizeof x);                                                   \
    memcpy(dv, v, sizeof dv);                                                  \
    double t = __enzyme_fwddiff((void *)F, enzyme_dup, x, dv, enzyme_const, N); \
    double want = 0;                                                           \
    for (int i = 0; i < N; ++i) want += g[i] * v[i];                           \
    CHECK_CLOSE(want, t);                                                      \
  } while (0)
  FORWARD_MATCHES_REVERSE(f_cblas);
  FORWARD_MATCHES_REVERSE(f_fortran);
  FORWARD_MATCHES_REVERSE(f_numba);
  FORWARD_MATCHES_REVERSE(f_gemv);

  /* float: d/dx (x.x)^2 = 4 (x.x) x */
  float xf[4] = {0.5f, -1.0f, 0.25f, 2.0f}, dxf[4] = {0};
  __enzyme_autodiff((void *)f_sdot, enzyme_dup, xf, dxf, enzyme_const, 4);
  float ss = 0;
  for (int i = 0; i < 4; ++i) ss += xf[i] * xf[i];
  for (int i = 0; i < 4; ++i) CHECK_CLOSE_F(4 * ss * xf[i], dxf[i]);
  return fd_report();
}
