/*===- bench/kernels.c - Primal kernels and their forward derivatives -----===*
 *
 * Compiled to IR with clang -O2, differentiated by autodiff-opt -O2 and
 * compiled to an object at build time (see bench.cmake). Each kernel K has
 * a primal entry point K and a forward-derivative entry point fwd_K that
 * requests __enzyme_fwddiff of K; both are plain C functions, so the
 * benchmark calls them alike. Declarations: kernels.h.
 *
 *===----------------------------------------------------------------------===*/
#include "kernels.h"

#include <math.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_void(void *, ...);

/* ---- Dot product ------------------------------------------------------ */

double k_dot(const double *a, const double *b, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

double fwd_dot(const double *a, const double *da, const double *b,
               const double *db, long n) {
  return __enzyme_fwddiff((void *)k_dot, enzyme_dup, a, da, enzyme_dup, b, db,
                          enzyme_const, n);
}

/* ---- A libm-heavy scalar function ------------------------------------- */

double k_libm(double x) {
  double x2 = x * x;
  return sin(x) * exp(-0.1 * x2) + log1p(x2) * atan(x) + sqrt(1 + x2) +
         pow(1 + x2, 0.3) * tanh(x) + cbrt(x) * cos(2 * x);
}

double fwd_libm(double x, double dx) {
  return __enzyme_fwddiff((void *)k_libm, enzyme_dup, x, dx);
}

/* ---- Matrix-vector product -------------------------------------------- */

void k_matvec(double *y, const double *A, const double *x, long m, long n) {
  for (long i = 0; i < m; ++i) {
    double s = 0;
    for (long j = 0; j < n; ++j)
      s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

void fwd_matvec(double *y, double *dy, const double *A, const double *dA,
                const double *x, const double *dx, long m, long n) {
  __enzyme_fwddiff_void((void *)k_matvec, enzyme_dup, y, dy, enzyme_dup, A, dA,
                        enzyme_dup, x, dx, enzyme_const, m, enzyme_const, n);
}

/* ---- A 2D 5-point stencil with a nonlinear source term ---------------- */

void k_stencil(double *out, const double *in, long nx, long ny) {
  for (long i = 1; i + 1 < ny; ++i)
    for (long j = 1; j + 1 < nx; ++j) {
      long k = i * nx + j;
      double u = in[k];
      out[k] = u + 0.1 * (in[k - 1] + in[k + 1] + in[k - nx] + in[k + nx] -
                          4 * u) -
               0.01 * u * u * u;
    }
}

void fwd_stencil(double *out, double *dout, const double *in,
                 const double *din, long nx, long ny) {
  __enzyme_fwddiff_void((void *)k_stencil, enzyme_dup, out, dout, enzyme_dup,
                        in, din, enzyme_const, nx, enzyme_const, ny);
}

/* ---- A loop-carried recurrence ---------------------------------------- */

double k_logistic(double x0, double r, long n) {
  double x = x0;
  for (long k = 0; k < n; ++k)
    x = r * x * (1 - x);
  return x;
}

double fwd_logistic(double x0, double dx0, double r, double dr, long n) {
  return __enzyme_fwddiff((void *)k_logistic, enzyme_dup, x0, dx0, enzyme_dup,
                          r, dr, enzyme_const, n);
}

/* ---- Vector normalization (divisions by a shared norm) ---------------- */

void k_normalize(double *out, const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i] * x[i];
  double norm = sqrt(s);
  for (long i = 0; i < n; ++i)
    out[i] = x[i] / norm;
}

void fwd_normalize(double *out, double *dout, const double *x,
                   const double *dx, long n) {
  __enzyme_fwddiff_void((void *)k_normalize, enzyme_dup, out, dout,
                        enzyme_dup, x, dx, enzyme_const, n);
}
