// Built-in rules for cblas_dgemv / cblas_sgemv (and Fortran's dgemv_,
// alpha and beta through their pointers) in both modes: row- and
// column-major layouts, both transposes, strides (a negative one
// included), active alpha and beta, y read before the call, A and x
// overwritten after it (the tape keeps them); forward mode at width 1 and
// 2 against the reverse gradient, single precision against finite
// differences. The cblas functions are defined below, out of line; the
// rules replace them.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <string.h>

enum { RowMajor = 101, ColMajor = 102, NoTrans = 111, Trans = 112 };

#define CBLAS_GEMV_BODY(T)                                                     \
  int tr = trans != NoTrans;                                                   \
  int ylen = tr ? n : m, xlen = tr ? m : n;                                    \
  int iy = incy < 0 ? (ylen - 1) * -incy : 0;                                  \
  for (int r = 0; r < ylen; ++r, iy += incy) {                                 \
    T s = 0;                                                                   \
    int ix = incx < 0 ? (xlen - 1) * -incx : 0;                                \
    for (int q = 0; q < xlen; ++q, ix += incx) {                               \
      int i = tr ? q : r, j = tr ? r : q; /* element (i, j) of A */           \
      T av = layout == ColMajor ? a[i + j * lda] : a[i * lda + j];             \
      s += av * x[ix];                                                         \
    }                                                                          \
    y[iy] = alpha * s + (beta == 0 ? 0 : beta * y[iy]);                        \
  }

__attribute__((noinline)) void cblas_dgemv(int layout, int trans, int m, int n,
                                           double alpha, const double *a,
                                           int lda, const double *x, int incx,
                                           double beta, double *y, int incy) {
  CBLAS_GEMV_BODY(double)
}
__attribute__((noinline)) void cblas_sgemv(int layout, int trans, int m, int n,
                                           float alpha, const float *a,
                                           int lda, const float *x, int incx,
                                           float beta, float *y, int incy) {
  CBLAS_GEMV_BODY(float)
}

/* Fortran's dgemv_: column-major, every argument by pointer. */
__attribute__((noinline)) void dgemv_(const char *trans, const int *m,
                                      const int *n, const double *alpha,
                                      const double *a, const int *lda,
                                      const double *x, const int *incx,
                                      const double *beta, double *y,
                                      const int *incy) {
  cblas_dgemv(ColMajor, *trans == 'n' || *trans == 'N' ? NoTrans : Trans, *m,
              *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);
}

/* A (3 x 4 used, ld 4 or 5) in x[0..14], the vector in x[15..22] (stride
   2 or -2), alpha x[23], beta x[24]. */
enum { N = 25 };
static int layout_ = ColMajor, trans_ = NoTrans, inc_ = 2;

double f(double *x, int unused) {
  (void)unused;
  int m = 3, n = 4;
  int ylen = trans_ == NoTrans ? m : n;
  int lda = layout_ == ColMajor ? 4 : 5;
  double y[4];
  for (int i = 0; i < 4; ++i)
    y[i] = 0.3 * x[i + 2] - 0.2;
  cblas_dgemv(layout_, trans_, m, n, x[23], x, lda, x + 15, inc_, x[24], y, 1);
  double r = 0;
  for (int i = 0; i < ylen; ++i)
    r += sin(y[i]) * (1.0 + 0.25 * i);
  x[1] = 3.0;
  x[16] = -3.0;
  return r;
}

static double f_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f(x, 0);
}

/* dgemv_ with alpha and beta active through their pointers. */
static double f_fortran(double *x, int unused) {
  (void)unused;
  double y[3] = {0.25, x[20], -0.5}, alpha = x[23] * x[22], beta = x[24];
  int m = 3, n = 2, lda = 4, incx = -2, incy = 1;
  char t = 'n';
  dgemv_(&t, &m, &n, &alpha, x, &lda, x + 15, &incx, &beta, y, &incy);
  x[0] = 2.0;
  return sin(y[0]) * y[1] + y[2] * y[2];
}
static double fortran_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_fortran(x, 0);
}

float g(float *x, int unused) {
  (void)unused;
  float y[2] = {0.5f, -0.5f};
  cblas_sgemv(RowMajor, Trans, 3, 2, x[9], x, 2, x + 6, 1, 0.25f, y, 1);
  return y[0] * y[1] + y[1];
}

int main(void) {
  double x0[N], x[N], dx[N];
  for (int i = 0; i < N; ++i)
    x0[i] = (i % 2 ? -1 : 1) * (0.35 + 0.029 * i);
  x0[23] = 0.9;
  x0[24] = -0.7;
  const int layouts[2] = {ColMajor, RowMajor}, trans[2] = {NoTrans, Trans};
  const int incs[2] = {2, -1};
  for (int l = 0; l < 2; ++l)
    for (int p = 0; p < 2; ++p)
      for (int s = 0; s < 2; ++s) {
        layout_ = layouts[l];
        trans_ = trans[p];
        inc_ = incs[s];
        memcpy(x, x0, sizeof x);
        memset(dx, 0, sizeof dx);
        __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 0);
        CHECK_GRADIENT(f_fd, 0, x0, N, dx);
        double v[N], dv[N], want = 0;
        for (int i = 0; i < N; ++i) {
          v[i] = 0.45 - 0.035 * i;
          want += dx[i] * v[i];
        }
        memcpy(x, x0, sizeof x);
        memcpy(dv, v, sizeof dv);
        CHECK_CLOSE(want,
                    __enzyme_fwddiff((void *)f, enzyme_dup, x, dv, enzyme_const, 0));
        double e0[N] = {0}, e1[N] = {0};
        e0[23] = 1;
        e1[24] = 1;
        memcpy(x, x0, sizeof x);
        enzyme_v2 t = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2,
                                          enzyme_dup, x, e0, e1, enzyme_const, 0);
        CHECK_CLOSE(dx[23], t.d[0]);
        CHECK_CLOSE(dx[24], t.d[1]);
      }

  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f_fortran, enzyme_dup, x, dx, enzyme_const, 0);
  CHECK_GRADIENT(fortran_fd, 0, x0, N, dx);
  {
    double v[N], dv[N], want = 0;
    for (int i = 0; i < N; ++i) {
      v[i] = 0.2 - 0.02 * i;
      want += dx[i] * v[i];
    }
    memcpy(x, x0, sizeof x);
    memcpy(dv, v, sizeof dv);
    CHECK_CLOSE(want, __enzyme_fwddiff((void *)f_fortran, enzyme_dup, x, dv,
                                       enzyme_const, 0));
  }

  float xf[10], dxf[10] = {0};
  for (int i = 0; i < 10; ++i)
    xf[i] = (float)x0[i];
  __enzyme_autodiff((void *)g, enzyme_dup, xf, dxf, enzyme_const, 0);
  for (int i = 0; i < 10; ++i) {
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
