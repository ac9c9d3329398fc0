/*===- bench/kernels.h - Benchmark kernels and their derivatives -*- C -*-===*
 *
 * K(args) is the primal; fwd_K takes each active argument followed by its
 * tangent (a pointer's shadow) and returns the tangent of K's result, or
 * writes output tangents to the output's shadow. Built by bench.cmake from
 * kernels.c through autodiff-opt.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AUTODIFF_BENCH_KERNELS_H
#define AUTODIFF_BENCH_KERNELS_H

#ifdef __cplusplus
extern "C" {
#endif

double k_dot(const double *a, const double *b, long n);
double fwd_dot(const double *a, const double *da, const double *b,
               const double *db, long n);

double k_libm(double x);
double fwd_libm(double x, double dx);

/* y[m] = A[m x n] x[n] */
void k_matvec(double *y, const double *A, const double *x, long m, long n);
void fwd_matvec(double *y, double *dy, const double *A, const double *dA,
                const double *x, const double *dx, long m, long n);

/* One explicit step on an nx x ny grid; the border of out is not written. */
void k_stencil(double *out, const double *in, long nx, long ny);
void fwd_stencil(double *out, double *dout, const double *in,
                 const double *din, long nx, long ny);

/* n steps of x <- r x (1 - x) */
double k_logistic(double x0, double r, long n);
double fwd_logistic(double x0, double dx0, double r, double dr, long n);
void k_normalize(double *out, const double *x, long n);
void fwd_normalize(double *out, double *dout, const double *x,
                   const double *dx, long n);

#ifdef __cplusplus
}
#endif

#endif /* AUTODIFF_BENCH_KERNELS_H */
