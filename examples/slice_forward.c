/*===- examples/slice_forward.c - The rustc-style route --------------------===//
 *
 * A host like rustc does not write `__enzyme_*` calls: it declares the
 * derivative function and names it in an attribute. Here C plays that host.
 * log_sum_exp stands for the Rust function
 *
 *   #[autodiff_forward(d_log_sum_exp, Dual, Dual)]
 *   fn log_sum_exp(x: &[f64]) -> f64
 *
 * whose slice argument arrives at the LLVM level as a data pointer and a
 * length. d_log_sum_exp is only declared; autodiff-opt gives it a body when
 * told about the attribute on its command line:
 *
 *   autodiff-opt in.ll -S -o out.ll \
 *     --autodiff 'log_sum_exp(x: &[f64]) -> f64=autodiff_forward(d_log_sum_exp, Dual, Dual)'
 *
 * With Dual on the slice, the target takes the primal slice and then its
 * shadow slice (the direction); with Dual on the return it returns the
 * primal value and its tangent.
 *
 *===----------------------------------------------------------------------===*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>

double log_sum_exp(const double *x, size_t len) {
  double m = x[0];
  for (size_t i = 1; i < len; ++i)
    if (x[i] > m)
      m = x[i];
  double s = 0.0;
  for (size_t i = 0; i < len; ++i)
    s += exp(x[i] - m);
  return m + log(s);
}

/* (primal, tangent), returned in two registers like Rust's (f64, f64). */
struct dual {
  double value;
  double tangent;
};
struct dual d_log_sum_exp(const double *x, size_t x_len, const double *dx,
                          size_t dx_len);

#define N 5

int main(void) {
  double x[N] = {0.5, -1.0, 2.0, 0.25, 1.5};
  double v[N] = {1.0, -0.5, 0.25, 2.0, -1.0};

  struct dual d = d_log_sum_exp(x, N, v, N);

  const double h = 1e-6;
  double xp[N], xm[N];
  for (int i = 0; i < N; ++i) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  double value = log_sum_exp(x, N);
  double fd = (log_sum_exp(xp, N) - log_sum_exp(xm, N)) / (2.0 * h);
  double err = fabs(d.tangent - fd);

  printf("log_sum_exp(x)            = %.12f (from d_log_sum_exp: %.12f)\n",
         value, d.value);
  printf("directional derivative    = %.12f\n", d.tangent);
  printf("central finite difference = %.12f\n", fd);
  printf("absolute difference       = %.3e\n", err);
  if (!(fabs(d.value - value) <= 1e-12 * (1.0 + fabs(value))) ||
      !(err <= 1e-6 * (1.0 + fabs(fd)))) {
    printf("MISMATCH: the derivative disagrees with the finite difference\n");
    return 1;
  }
  printf("OK: derivative matches the finite difference\n");
  return 0;
}
