// Checks the test harness itself (tests/exec/lib/fdcheck.h), without any
// differentiation: the finite differences against hand-written analytic
// derivatives, the tolerances' strength, and the failure accounting.
// RUN: %clang -O2 -Wall -Wextra -I%testlib %s -o %t -lm
// RUN: %t | FileCheck %s
// RUN: %clang -O2 -Wall -Wextra -DFD_REAL=float -I%testlib %s -o %t.float -lm
// RUN: %t.float | FileCheck %s
// RUN: not %t fail | FileCheck --check-prefix=FAIL %s
// RUN: not %t none | FileCheck --check-prefix=NONE %s
// CHECK: {{^}}[[#]] checks passed, 0 failed
// FAIL: harness-selftest.c:[[#]]: FAILED: {{.*}} expected 1, actual 1.0000100000000001
// FAIL: harness-selftest.c:[[#]]: FAILED: {{.*}} expected 2, actual nan
// FAIL: harness-selftest.c:[[#]]: FAILED: 1 + 1 == 3
// FAIL: {{^}}1 checks passed, 3 failed
// NONE: {{^}}0 checks passed, 0 failed
// NONE-NEXT: no checks ran

#include "fdcheck.h"

#include <string.h>

static double f_sin(double x) { return sin(3 * x) * x; }
static double df_sin(double x) { return 3 * cos(3 * x) * x + sin(3 * x); }
static double f_exp(double x) { return exp(-0.5 * x * x); }
static double df_exp(double x) { return -x * exp(-0.5 * x * x); }
static double f_log(double x) { return log(x) / x; }
static double df_log(double x) { return (1 - log(x)) / (x * x); }
static double f_pow(double x) { return pow(x, 2.5) + sqrt(x); }
static double df_pow(double x) { return 2.5 * pow(x, 1.5) + 0.5 / sqrt(x); }
static double f_big(double x) { return 1e6 * x * x * x; }
static double df_big(double x) { return 3e6 * x * x; }
static float g_sin(float x) { return sinf(2 * x) + x * x; }
static double dg_sin(double x) { return 2 * cos(2 * x) + 2 * x; }
static float g_exp(float x) { return expf(0.3f * x) / x; }
static double dg_exp(double x) {
  return exp(0.3 * x) * (0.3 / x - 1 / (x * x));
}

/* F(x) = sum_i x_i^2 x_{i+1} + prod_i (1 + x_i / 10). */
static double F(const double *x, void *ctx) {
  int n = *(const int *)ctx;
  double s = 0, p = 1;
  for (int i = 0; i < n; ++i) {
    real xi = (real)x[i], xn = (real)x[(i + 1) % n];
    s += (double)(xi * xi * xn);
    p *= 1 + (double)xi / 10;
  }
  return s + p;
}
static double dF(const double *x, const double *dx, int n) {
  double ds = 0, p = 1, dp = 0;
  for (int i = 0; i < n; ++i) {
    int j = (i + 1) % n;
    ds += 2 * x[i] * dx[i] * x[j] + x[i] * x[i] * dx[j];
    dp = dp * (1 + x[i] / 10) + p * dx[i] / 10;
    p *= 1 + x[i] / 10;
  }
  return ds + dp;
}

/* G(x) = x / |x| (normalization). */
static void G(const double *x, double *out, void *ctx) {
  int n = *(const int *)ctx;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (double)((real)x[i] * (real)x[i]);
  double norm = sqrt(s);
  for (int i = 0; i < n; ++i)
    out[i] = (double)(real)((real)x[i] / (real)norm);
}
static void dG(const double *x, const double *dx, double *dout, int n) {
  double s = 0, xdx = 0;
  for (int i = 0; i < n; ++i) {
    s += x[i] * x[i];
    xdx += x[i] * dx[i];
  }
  double norm = sqrt(s);
  for (int i = 0; i < n; ++i)
    dout[i] = dx[i] / norm - x[i] * xdx / (norm * norm * norm);
}

static double line_g(double t, void *ctx) {
  double a = *(const double *)ctx;
  return atan(a * t) + t * t * t;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "fail") == 0) {
    CHECK_CLOSE(1.0, 1.00001); /* 1e-5 relative: must be caught */
    CHECK_CLOSE(2.0, 2.0);
    CHECK_CLOSE(2.0, NAN);
    CHECK(1 + 1 == 3);
    return fd_report();
  }
  if (argc > 1 && strcmp(argv[1], "none") == 0)
    return fd_report();

  /* The comparison. */
  CHECK(fd_is_close(1.0, 1.0 + 1e-9, 1e-7, 0));
  CHECK(!fd_is_close(1.0, 1.0 + 1e-5, 1e-7, 1e-9));
  CHECK(!fd_is_close(0.0, 1e-6, 1e-7, 1e-9));
  CHECK(!fd_is_close(NAN, NAN, 1, 1));
  CHECK(!fd_is_close(INFINITY, 1e300, 1, 1));
  CHECK(fd_is_close(-INFINITY, -INFINITY, 0, 0));

  /* Scalar differences; in double they are good to ~1e-10. */
  static const double xs[] = {0.37, 1.3, 2.71, 5.5, 12.25};
  double worst = 0;
  for (unsigned k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
    double x = xs[k];
    struct {
      double (*f)(double), (*df)(double);
    } cases[] = {{f_sin, df_sin}, {f_exp, df_exp}, {f_log, df_log},
                 {f_pow, df_pow}, {f_big, df_big}};
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      double fd = fd_scalar(cases[c].f, x), an = cases[c].df(x);
      CHECK_CLOSE_TOL(an, fd, 1e-9, 1e-9);
      double err = fabs(fd - an) / (fabs(an) + 1e-300);
      if (err > worst)
        worst = err;
    }
    CHECK_CLOSE_TOL(dg_sin(x), fd_scalar_f(g_sin, (float)x), 2e-3, 1e-4);
    CHECK_CLOSE_TOL(dg_exp(x), fd_scalar_f(g_exp, (float)x), 2e-3, 1e-4);
  }
  printf("worst relative error of fd_scalar: %.3g\n", worst);

  /* Directional differences (the float step under -DFD_REAL=float, where
   * F and G round their inputs to float). */
  for (int n = 1; n <= 9; n += 4) {
    double x[9], dx[9], dout[9], fdout[9];
    for (int i = 0; i < n; ++i) {
      x[i] = 0.4 + 0.37 * i - 0.05 * i * i;
      dx[i] = 0.9 - 0.3 * i;
    }
    CHECK_CLOSE(dF(x, dx, n), fd_dir(F, &n, x, dx, n));
    dG(x, dx, dout, n);
    fd_dir_vec(G, &n, x, dx, n, fdout, n);
    for (int i = 0; i < n; ++i)
      CHECK_CLOSE(dout[i], fdout[i]);
  }

  /* fd_line: d/dt (atan(a t) + t^3) = a / (1 + a^2 t^2) + 3 t^2. */
  double a = 1.7, t0 = 0.8;
  CHECK_CLOSE_TOL(a / (1 + a * a * t0 * t0) + 3 * t0 * t0,
                  fd_line(line_g, &a, t0, t0), 1e-9, 1e-12);
  /* A step is exact: t + h - t == h. */
  double h = fd_step(0.1, 1e-3);
  CHECK((0.1 + h) - 0.1 == h);
  return fd_report();
}
