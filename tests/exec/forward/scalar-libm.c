// Forward mode through scalar libm mixes: sin, cos, exp, log, pow, sqrt,
// tanh, atan2, hypot, fmax, fabs, erf, expm1, log1p, cbrt. Every tangent is
// checked against the analytic derivative and against finite differences;
// doubles go without a marker (dup: value, then tangent) and with
// enzyme_dup, and the tangent seed is scaled.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double f_trig(double x) { return sin(x) * cos(2 * x) + tanh(x / 3); }
static double df_trig(double x) {
  double t = tanh(x / 3);
  return cos(x) * cos(2 * x) - 2 * sin(x) * sin(2 * x) + (1 - t * t) / 3;
}

double f_explog(double x) {
  return exp(0.5 * x) * log(x) + expm1(x / 4) - log1p(x * x);
}
static double df_explog(double x) {
  return 0.5 * exp(0.5 * x) * log(x) + exp(0.5 * x) / x + exp(x / 4) / 4 -
         2 * x / (1 + x * x);
}

double f_pow(double x) { return pow(x, 2.7) + pow(1.3, x) + sqrt(x) + cbrt(x); }
static double df_pow(double x) {
  double c = cbrt(x);
  return 2.7 * pow(x, 1.7) + pow(1.3, x) * log(1.3) + 0.5 / sqrt(x) +
         1 / (3 * c * c);
}

/* Kinks at x = 2 (fabs) and x = (3 +- sqrt 5) / 2 (fmax): inputs avoid them. */
double f_kinks(double x) {
  return erf(x) * fabs(x - 2.0) + fmax(x * x, 3 * x - 1);
}
static double df_kinks(double x) {
  double derf = 2 / sqrt(M_PI) * exp(-x * x);
  return derf * fabs(x - 2.0) + erf(x) * (x > 2 ? 1 : -1) +
         (x * x > 3 * x - 1 ? 2 * x : 3);
}

double f_polar(double y, double x) { return atan2(y, x) * hypot(x, y); }
/* d/dy, d/dx */
static void df_polar(double y, double x, double *dy, double *dx) {
  double r2 = x * x + y * y, r = sqrt(r2), th = atan2(y, x);
  *dy = x / r2 * r + th * y / r;
  *dx = -y / r2 * r + th * x / r;
}

double f_mix(double x, double y) {
  return pow(x, y) + exp(-x * y) * sin(y) + hypot(sin(x), cos(y)) +
         cbrt(x * y) - log(y) * tanh(x);
}
static void df_mix(double x, double y, double *dx, double *dy) {
  double h = hypot(sin(x), cos(y)), e = exp(-x * y), c = cbrt(x * y);
  double t = tanh(x);
  *dx = y * pow(x, y - 1) - y * e * sin(y) + sin(x) * cos(x) / h +
        y / (3 * c * c) - log(y) * (1 - t * t);
  *dy = pow(x, y) * log(x) - x * e * sin(y) + e * cos(y) -
        cos(y) * sin(y) / h + x / (3 * c * c) - tanh(x) / y;
}

struct pair_ctx {
  double (*f)(double, double);
};
static double eval2(const double *v, void *p) {
  return ((struct pair_ctx *)p)->f(v[0], v[1]);
}

int main(void) {
  static const double xs[] = {0.7, 1.35, 2.3, 3.9};
  for (unsigned k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
    double x = xs[k];
    /* The first argument of a request must be the function itself (a
     * constant), so each case is spelled out. */
#define CHECK_SCALAR(F, DF)                                                    \
  do {                                                                         \
    double an = DF(x);                                                         \
    CHECK_CLOSE(an, fd_scalar(F, x)); /* the reference itself */               \
    CHECK_CLOSE(an, __enzyme_fwddiff((void *)F, x, 1.0));                      \
    CHECK_CLOSE(2.5 * an, __enzyme_fwddiff((void *)F, enzyme_dup, x, 2.5));    \
    CHECK_CLOSE(-0.75 * an, __enzyme_fwddiff((void *)F, x, -0.75));            \
  } while (0)
    CHECK_SCALAR(f_trig, df_trig);
    CHECK_SCALAR(f_explog, df_explog);
    CHECK_SCALAR(f_pow, df_pow);
    CHECK_SCALAR(f_kinks, df_kinks);
  }

  /* Two arguments: each partial, then a mixed direction. */
  static const double ys[][2] = {{0.8, 1.9}, {-1.2, 0.45}, {2.2, -3.1}};
  for (unsigned k = 0; k < sizeof ys / sizeof ys[0]; ++k) {
    double y = ys[k][0], x = ys[k][1], dy, dx;
    df_polar(y, x, &dy, &dx);
    struct pair_ctx pc = {f_polar};
    double v[2] = {y, x}, e0[2] = {1, 0}, e1[2] = {0, 1}, m[2] = {0.3, -1.7};
    CHECK_CLOSE(dy, fd_dir(eval2, &pc, v, e0, 2));
    CHECK_CLOSE(dx, fd_dir(eval2, &pc, v, e1, 2));
    CHECK_CLOSE(dy, __enzyme_fwddiff((void *)f_polar, enzyme_dup, y, 1.0,
                                     enzyme_dup, x, 0.0));
    CHECK_CLOSE(dx, __enzyme_fwddiff((void *)f_polar, y, 0.0, x, 1.0));
    CHECK_CLOSE(0.3 * dy - 1.7 * dx, fd_dir(eval2, &pc, v, m, 2));
    CHECK_CLOSE(0.3 * dy - 1.7 * dx,
                __enzyme_fwddiff((void *)f_polar, y, 0.3, x, -1.7));
  }

  static const double ms[][2] = {{0.9, 1.7}, {1.6, 0.55}, {2.4, 2.05}};
  for (unsigned k = 0; k < sizeof ms / sizeof ms[0]; ++k) {
    double x = ms[k][0], y = ms[k][1], dx, dy;
    df_mix(x, y, &dx, &dy);
    struct pair_ctx pc = {f_mix};
    double v[2] = {x, y}, e0[2] = {1, 0}, e1[2] = {0, 1};
    CHECK_CLOSE(dx, fd_dir(eval2, &pc, v, e0, 2));
    CHECK_CLOSE(dy, fd_dir(eval2, &pc, v, e1, 2));
    CHECK_CLOSE(dx, __enzyme_fwddiff((void *)f_mix, enzyme_dup, x, 1.0,
                                     enzyme_dup, y, 0.0));
    CHECK_CLOSE(dy, __enzyme_fwddiff((void *)f_mix, enzyme_dup, x, 0.0,
                                     enzyme_dup, y, 1.0));
    CHECK_CLOSE(1.25 * dx + 0.4 * dy,
                __enzyme_fwddiff((void *)f_mix, x, 1.25, y, 0.4));
  }
  return fd_report();
}
