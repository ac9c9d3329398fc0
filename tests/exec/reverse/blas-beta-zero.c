// BLAS does not read C (or y) when beta is zero: it may hold anything,
// NaN included (Numba's `A @ B` passes beta = 0 and C from np.empty). The
// built-in gemm and gemv rules read it anyway, in `beta dC + dbeta C`
// (forward) and `dbeta = G . C` (reverse), and 0 * NaN made the tangent
// and gradients NaN. Here C and y are NaN before each call with beta 0:
// cblas_dgemm, Fortran's dgemm_ and cblas_dgemv, both modes, against
// finite differences. The BLAS functions are defined below, out of line,
// so the test needs no BLAS; the rules replace them.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>
#include <string.h>

enum { RowMajor = 101, ColMajor = 102, NoTrans = 111, Trans = 112 };

/* Every layout and transpose: the rules call these for their products. */
__attribute__((noinline)) void cblas_dgemm(int layout, int transa, int transb,
                                           int m, int n, int k, double alpha,
                                           const double *a, int lda,
                                           const double *b, int ldb,
                                           double beta, double *c, int ldc) {
  int ta = transa != NoTrans, tb = transb != NoTrans;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) {
        int ar = ta ? p : i, ac = ta ? i : p, br = tb ? j : p, bc = tb ? p : j;
        double av = layout == ColMajor ? a[ar + ac * lda] : a[ar * lda + ac];
        double bv = layout == ColMajor ? b[br + bc * ldb] : b[br * ldb + bc];
        s += av * bv;
      }
      double *cv = layout == ColMajor ? &c[i + j * ldc] : &c[i * ldc + j];
      *cv = alpha * s + (beta == 0 ? 0 : beta * *cv);
    }
}
__attribute__((noinline)) void dgemm_(const char *ta, const char *tb,
                                      const int *m, const int *n, const int *k,
                                      const double *alpha, const double *a,
                                      const int *lda, const double *b,
                                      const int *ldb, const double *beta,
                                      double *c, const int *ldc) {
  cblas_dgemm(ColMajor, *ta == 'n' || *ta == 'N' ? NoTrans : Trans,
              *tb == 'n' || *tb == 'N' ? NoTrans : Trans, *m, *n, *k, *alpha, a, *lda, b, *ldb,
              *beta, c, *ldc);
}
__attribute__((noinline)) void cblas_dgemv(int layout, int trans, int m, int n,
                                           double alpha, const double *a,
                                           int lda, const double *x, int incx,
                                           double beta, double *y, int incy) {
  int tr = trans != NoTrans;
  int ylen = tr ? n : m, xlen = tr ? m : n;
  int iy = incy < 0 ? (ylen - 1) * -incy : 0;
  for (int r = 0; r < ylen; ++r, iy += incy) {
    double s = 0;
    int ix = incx < 0 ? (xlen - 1) * -incx : 0;
    for (int q = 0; q < xlen; ++q, ix += incx) {
      int i = tr ? q : r, j = tr ? r : q;
      double av = layout == ColMajor ? a[i + j * lda] : a[i * lda + j];
      s += av * x[ix];
    }
    y[iy] = alpha * s + (beta == 0 ? 0 : beta * y[iy]);
  }
}

/* x: A (2 x 3) in x[0..5], B (3 x 2) in x[6..11], alpha x[12]. */
enum { N = 13 };
static double weigh(const double *c) {
  return 1.5 * c[0] - c[1] + c[2] * c[2] + 0.5 * c[3];
}
double with_cblas_gemm(const double *x) {
  double c[4] = {NAN, NAN, NAN, NAN};
  cblas_dgemm(ColMajor, NoTrans, NoTrans, 2, 2, 3, x[12], x, 2, x + 6, 3, 0.0,
              c, 2);
  return weigh(c);
}
double with_fortran_gemm(const double *x) {
  double c[4] = {NAN, NAN, NAN, NAN}, zero = 0.0;
  int two = 2, three = 3;
  dgemm_("N", "N", &two, &two, &three, x + 12, x, &two, x + 6, &three, &zero,
         c, &two);
  return weigh(c);
}
/* A (2 x 3) in x[0..5], the vector in x[6..8], alpha x[12]. */
double with_cblas_gemv(const double *x) {
  double y[2] = {NAN, NAN};
  cblas_dgemv(ColMajor, NoTrans, 2, 3, x[12], x, 2, x + 6, 1, 0.0, y, 1);
  return 1.5 * y[0] + y[1] * y[1];
}

static double gemm_fd(const double *x, void *c) { (void)c; return with_cblas_gemm(x); }
static double fortran_fd(const double *x, void *c) { (void)c; return with_fortran_gemm(x); }
static double gemv_fd(const double *x, void *c) { (void)c; return with_cblas_gemv(x); }

/* Both modes for loss F (a macro: requests name their function). */
#define CHECK_BOTH(F, FD)                                                      \
  do {                                                                         \
    double dx[N], t[N];                                                        \
    memset(dx, 0, sizeof dx);                                                  \
    __enzyme_autodiff((void *)F, enzyme_dup, x, dx);                           \
    CHECK_GRADIENT(FD, 0, x, N, dx);                                           \
    for (int i = 0; i < N; ++i)                                                \
      t[i] = 1.0 - 0.1 * i;                                                    \
    double dir = __enzyme_fwddiff((void *)F, enzyme_dup, x, t);                \
    CHECK_CLOSE(fd_dir(FD, 0, x, t, N), dir);                                  \
  } while (0)

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i) x[i] = 0.5 + 0.1 * i - 0.01 * i * i; /* none near 0 */
  CHECK_BOTH(with_cblas_gemm, gemm_fd);
  CHECK_BOTH(with_fortran_gemm, fortran_fd);
  CHECK_BOTH(with_cblas_gemv, gemv_fd);
  return fd_report();
}
