// Built-in rules for cblas_dgemm / cblas_sgemm in both modes: row- and
// column-major layouts, every combination of transposes, leading
// dimensions larger than needed, active alpha and beta (by value), C read
// before the call and A and B overwritten after it (the tape keeps them);
// forward mode at width 1 and 2 against the reverse gradient, single
// precision against finite differences. The cblas functions are defined
// below, out of line, so the test needs no BLAS; the rules replace them.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <string.h>

enum { RowMajor = 101, ColMajor = 102, NoTrans = 111, Trans = 112 };

#define CBLAS_GEMM_BODY(T)                                                     \
  int ta = transa != NoTrans, tb = transb != NoTrans;                          \
  for (int i = 0; i < m; ++i)                                                  \
    for (int j = 0; j < n; ++j) {                                              \
      T s = 0;                                                                 \
      for (int p = 0; p < k; ++p) {                                            \
        /* element (r, c) of a matrix with leading dimension ld */             \
        int ar = ta ? p : i, ac = ta ? i : p, br = tb ? j : p, bc = tb ? p : j; \
        T av = layout == ColMajor ? a[ar + ac * lda] : a[ar * lda + ac];       \
        T bv = layout == ColMajor ? b[br + bc * ldb] : b[br * ldb + bc];       \
        s += av * bv;                                                          \
      }                                                                        \
      T *cv = layout == ColMajor ? &c[i + j * ldc] : &c[i * ldc + j];          \
      *cv = alpha * s + (beta == 0 ? 0 : beta * *cv);                          \
    }

__attribute__((noinline)) void cblas_dgemm(int layout, int transa, int transb,
                                           int m, int n, int k, double alpha,
                                           const double *a, int lda,
                                           const double *b, int ldb,
                                           double beta, double *c, int ldc) {
  CBLAS_GEMM_BODY(double)
}
__attribute__((noinline)) void cblas_sgemm(int layout, int transa, int transb,
                                           int m, int n, int k, float alpha,
                                           const float *a, int lda,
                                           const float *b, int ldb, float beta,
                                           float *c, int ldc) {
  CBLAS_GEMM_BODY(float)
}

/* x: A in x[0..11] (ld 4), B in x[12..23] (ld 4), alpha x[24], beta x[25].
   C (3 x 2) starts from x too. op(A) 3 x 3, op(B) 3 x 2. */
enum { N = 26 };
static int layout_ = ColMajor, ta_ = NoTrans, tb_ = NoTrans;

double f(double *x, int unused) {
  (void)unused;
  double c[8];
  for (int i = 0; i < 8; ++i)
    c[i] = 0.2 * x[i + 3] - 0.1 * x[20 - i];
  /* ldc: 3 for column-major (3 rows), 2 for row-major (2 columns). */
  int ldc = layout_ == ColMajor ? 3 : 2;
  cblas_dgemm(layout_, ta_, tb_, 3, 2, 3, x[24], x, 4, x + 12, 4, x[25], c,
              ldc);
  double r = 0;
  for (int i = 0; i < 6; ++i)
    r += sin(c[i]) * (1.0 + 0.3 * i);
  x[0] = 4.0;
  x[12] = -4.0;
  return r;
}

static double f_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f(x, 0);
}

float g(float *x, int unused) {
  (void)unused;
  float c[4] = {0.5f, -0.25f, 1.0f, 0.75f};
  cblas_sgemm(RowMajor, NoTrans, Trans, 2, 2, 3, x[12], x, 3, x + 6, 3, 0.5f,
              c, 2);
  return c[0] * c[3] - c[1] * c[2];
}

int main(void) {
  double x0[N], x[N], dx[N];
  for (int i = 0; i < N; ++i)
    x0[i] = (i % 2 ? -1 : 1) * (0.3 + 0.031 * i);
  x0[24] = 0.8;
  x0[25] = -0.6;
  const int layouts[2] = {ColMajor, RowMajor}, trans[2] = {NoTrans, Trans};
  for (int l = 0; l < 2; ++l)
    for (int p = 0; p < 2; ++p)
      for (int q = 0; q < 2; ++q) {
        layout_ = layouts[l];
        ta_ = trans[p];
        tb_ = trans[q];
        memcpy(x, x0, sizeof x);
        memset(dx, 0, sizeof dx);
        __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 0);
        CHECK_GRADIENT(f_fd, 0, x0, N, dx);
        double v[N], dv[N], want = 0;
        for (int i = 0; i < N; ++i) {
          v[i] = 0.4 - 0.03 * i;
          want += dx[i] * v[i];
        }
        memcpy(x, x0, sizeof x);
        memcpy(dv, v, sizeof dv);
        CHECK_CLOSE(want,
                    __enzyme_fwddiff((void *)f, enzyme_dup, x, dv, enzyme_const, 0));
        /* Width 2: alpha's and beta's directions at once. */
        double e0[N] = {0}, e1[N] = {0};
        e0[24] = 1;
        e1[25] = 1;
        memcpy(x, x0, sizeof x);
        enzyme_v2 t = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2,
                                          enzyme_dup, x, e0, e1, enzyme_const, 0);
        CHECK_CLOSE(dx[24], t.d[0]);
        CHECK_CLOSE(dx[25], t.d[1]);
      }

  float xf[13], dxf[13] = {0};
  for (int i = 0; i < 13; ++i)
    xf[i] = (float)x0[i];
  __enzyme_autodiff((void *)g, enzyme_dup, xf, dxf, enzyme_const, 0);
  for (int i = 0; i < 13; ++i) {
    float keep = xf[i], h = 1e-2f;
    xf[i] = keep + h;
    float up = g(xf, 0);
    xf[i] = keep - h;
    float down = g(xf, 0);
    xf[i] = keep;
    CHECK_CLOSE_F((up - down) / (2 * h), dxf[i]);
  }
  return fd_report();
}
