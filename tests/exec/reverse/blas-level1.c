// Built-in rules for cblas_daxpy / cblas_saxpy (y += alpha x),
// cblas_dscal / cblas_sscal (x = alpha x) and cblas_dnrm2 / cblas_snrm2,
// and Fortran's daxpy_ / dscal_ / dnrm2_ (alpha through its pointer), in
// both modes: an active alpha, strides (a
// negative one included), x overwritten after the call (the tape keeps
// it), the norm's gradient; forward mode at width 1 and 2 against the
// reverse gradient. The BLAS functions are defined below, out of line, so
// the test needs no BLAS; the rules replace their bodies.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <string.h>

__attribute__((noinline)) void cblas_daxpy(int n, double alpha,
                                           const double *x, int incx,
                                           double *y, int incy) {
  int ix = incx < 0 ? (n - 1) * -incx : 0, iy = incy < 0 ? (n - 1) * -incy : 0;
  for (int i = 0; i < n; ++i, ix += incx, iy += incy) y[iy] += alpha * x[ix];
}
__attribute__((noinline)) double cblas_dnrm2(int n, const double *x, int inc) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i * inc] * x[i * inc];
  return sqrt(s);
}
__attribute__((noinline)) void cblas_dscal(int n, double alpha, double *x,
                                           int inc) {
  for (int i = 0; i < n; ++i) x[i * inc] *= alpha;
}
__attribute__((noinline)) void cblas_sscal(int n, float alpha, float *x,
                                           int inc) {
  for (int i = 0; i < n; ++i) x[i * inc] *= alpha;
}
__attribute__((noinline)) void cblas_saxpy(int n, float alpha, const float *x,
                                           int incx, float *y, int incy) {
  for (int i = 0; i < n; ++i) y[i * incy] += alpha * x[i * incx];
}
__attribute__((noinline)) float cblas_snrm2(int n, const float *x, int inc) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += x[i * inc] * x[i * inc];
  return sqrtf(s);
}

/* Fortran's forms: every argument by pointer. */
__attribute__((noinline)) void daxpy_(const int *n, const double *alpha,
                                      const double *x, const int *incx,
                                      double *y, const int *incy) {
  cblas_daxpy(*n, *alpha, x, *incx, y, *incy);
}
__attribute__((noinline)) void dscal_(const int *n, const double *alpha,
                                      double *x, const int *inc) {
  cblas_dscal(*n, *alpha, x, *inc);
}
__attribute__((noinline)) double dnrm2_(const int *n, const double *x,
                                        const int *inc) {
  return cblas_dnrm2(*n, x, *inc);
}

enum { N = 8 };

/* Fortran's forms with alpha active through its pointer. */
static double f_fortran(double *x, int unused) {
  (void)unused;
  double y[3] = {x[1], 0.25, -0.5}, alpha = x[7] * 0.5, beta = x[6];
  int three = 3, two = 2, one = 1;
  daxpy_(&three, &alpha, x, &two, y, &one);
  dscal_(&two, &beta, y + 1, &one);
  double r = dnrm2_(&three, y, &one);
  x[0] = -9.0;
  return r * y[2] + sin(y[0]);
}
static double fortran_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f_fortran(x, 0);
}

/* alpha = x[7] (active); y from x; x[0..5] strided; then x overwritten. */
double f(double *x, int unused) {
  (void)unused;
  double y[3] = {sin(x[6]), 0.5, -x[1]};
  cblas_daxpy(3, x[7] * x[7], x, 2, y, 1);
  cblas_daxpy(2, 0.3, x + 1, -2, y + 1, 1);
  cblas_dscal(2, x[5] - x[6], y + 1, 1); /* in place, alpha active */
  double r = cblas_dnrm2(3, y, 1) + cblas_dnrm2(4, x, 2);
  x[0] = 9.0;
  x[7] = -3.0;
  return r * y[0] + cos(y[2]);
}

static double f_fd(const double *v, void *ctx) {
  (void)ctx;
  double x[N];
  memcpy(x, v, sizeof x);
  return f(x, 0);
}

float g(float *x, int unused) {
  (void)unused;
  float y[2] = {0.5f, -0.25f};
  cblas_saxpy(2, x[4], x, 2, y, 1);
  cblas_sscal(2, x[1], y, 1);
  return cblas_snrm2(2, y, 1) * y[1] + cblas_snrm2(4, x, 1);
}

int main(void) {
  const double x0[N] = {0.4, -0.3, 0.9, -0.8, 0.2, 1.1, 0.7, -0.6};
  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 0);
  CHECK_GRADIENT(f_fd, 0, x0, N, dx);

  /* Forward along v, and two directions at once (enzyme_width 2). */
  const double v[N] = {0.3, -1.0, 0.5, 0.25, -0.7, 1.2, 0.1, 0.9};
  double want = 0, dv[N], w2[N] = {0};
  for (int i = 0; i < N; ++i) want += dx[i] * v[i];
  memcpy(x, x0, sizeof x);
  memcpy(dv, v, sizeof dv);
  CHECK_CLOSE(want, __enzyme_fwddiff((void *)f, enzyme_dup, x, dv, enzyme_const, 0));
  double e0[N] = {0}, e1[N] = {0};
  e0[7] = 1;
  e1[2] = 1;
  memcpy(x, x0, sizeof x);
  enzyme_v2 t = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, enzyme_dup, x,
                                    e0, e1, enzyme_const, 0);
  CHECK_CLOSE(dx[7], t.d[0]);
  CHECK_CLOSE(dx[2], t.d[1]);
  (void)w2;

  memcpy(x, x0, sizeof x);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)f_fortran, enzyme_dup, x, dx, enzyme_const, 0);
  CHECK_GRADIENT(fortran_fd, 0, x0, N, dx);
  want = 0;
  for (int i = 0; i < N; ++i) want += dx[i] * v[i];
  memcpy(x, x0, sizeof x);
  memcpy(dv, v, sizeof dv);
  CHECK_CLOSE(want, __enzyme_fwddiff((void *)f_fortran, enzyme_dup, x, dv,
                                     enzyme_const, 0));

  float xf[5] = {0.5f, -1.0f, 0.25f, 2.0f, 0.75f}, dxf[5] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, xf, dxf, enzyme_const, 0);
  for (int i = 0; i < 5; ++i) {
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
