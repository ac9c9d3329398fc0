// Forward mode through float libm (sinf, cosf, expf, logf, powf, sqrtf,
// tanhf, atan2f, hypotf, fmaxf, fabsf, erff, expm1f, log1pf, cbrtf). Float
// scalars cannot go through `...` (they would be promoted to double), so
// each request has a prototype naming its types; a float without a marker
// is dup (value, then tangent). References: analytic derivatives in double,
// and float finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

float __enzyme_fwddiff_f1(float (*)(float), float, float);
float __enzyme_fwddiff_f1m(float (*)(float), int, float, float);
float __enzyme_fwddiff_f2(float (*)(float, float), float, float, float, float);
float __enzyme_fwddiff_f2m(float (*)(float, float), int, float, float, int,
                           float, float);
float __enzyme_fwddiff_f2c(float (*)(float, float), int, float, int, float,
                           float);

float g_trig(float x) {
  return sinf(x) * expf(-0.3f * x) + logf(x) * cosf(x) + tanhf(0.5f * x);
}
static double dg_trig(double x) {
  double t = tanh(0.5 * x);
  return cos(x) * exp(-0.3 * x) - 0.3 * sin(x) * exp(-0.3 * x) + cos(x) / x -
         log(x) * sin(x) + 0.5 * (1 - t * t);
}

float g_roots(float x) {
  return sqrtf(x) * cbrtf(x) + powf(x, 1.6f) + expm1f(0.2f * x) +
         log1pf(x);
}
static double dg_roots(double x) {
  /* sqrt(x) cbrt(x) = x^(5/6) */
  return 5.0 / 6.0 * pow(x, -1.0 / 6.0) + 1.6 * pow(x, 0.6) +
         0.2 * exp(0.2 * x) + 1 / (1 + x);
}

/* Kinks at x = 1.5 (fabsf) and x = 0.8 (fmaxf): inputs avoid them. */
float g_kinks(float x) {
  return erff(0.7f * x) * fabsf(x - 1.5f) + fmaxf(x, 0.8f) * x;
}
static double dg_kinks(double x) {
  double derf = 0.7 * 2 / sqrt(M_PI) * exp(-0.49 * x * x);
  return derf * fabs(x - 1.5) + erf(0.7 * x) * (x > 1.5 ? 1 : -1) +
         (x > 0.8 ? 2 * x : 0.8);
}

float g_polar(float y, float x) {
  return atan2f(y, x) * hypotf(x, y) + powf(x * x + 1.0f, 0.5f * y);
}
static void dg_polar(double y, double x, double *dy, double *dx) {
  double r2 = x * x + y * y, r = sqrt(r2), th = atan2(y, x);
  double b = x * x + 1, p = pow(b, 0.5 * y);
  *dy = x / r2 * r + th * y / r + p * 0.5 * log(b);
  *dx = -y / r2 * r + th * x / r + p * 0.5 * y * 2 * x / b;
}

static float g_polar_y;
static float g_polar_of_x(float x) { return g_polar(g_polar_y, x); }
static float g_polar_x;
static float g_polar_of_y(float y) { return g_polar(y, g_polar_x); }

/* Float AD against the double analytic derivative. */
#define FRTOL 1e-4
#define FATOL 1e-5

int main(void) {
  static const float xs[] = {0.35f, 1.2f, 2.45f, 3.7f};
  for (unsigned k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
    float x = xs[k];
#define CHECK_SCALAR(G, DG)                                                    \
  do {                                                                         \
    double an = DG(x);                                                         \
    CHECK_CLOSE_F(an, fd_scalar_f(G, x));                                      \
    CHECK_CLOSE_TOL(an, __enzyme_fwddiff_f1(G, x, 1.0f), FRTOL, FATOL);                \
    CHECK_CLOSE_TOL(1.5 * an, __enzyme_fwddiff_f1m(G, enzyme_dup, x, 1.5f),    \
                    FRTOL, FATOL);                                                     \
  } while (0)
    CHECK_SCALAR(g_trig, dg_trig);
    CHECK_SCALAR(g_roots, dg_roots);
    CHECK_SCALAR(g_kinks, dg_kinks);
  }

  static const float ps[][2] = {{0.8f, 1.9f}, {-1.2f, 0.45f}, {2.2f, -3.1f}};
  for (unsigned k = 0; k < sizeof ps / sizeof ps[0]; ++k) {
    float y = ps[k][0], x = ps[k][1];
    double dy, dx;
    dg_polar(y, x, &dy, &dx);
    g_polar_y = y;
    g_polar_x = x;
    CHECK_CLOSE_F(dx, fd_scalar_f(g_polar_of_x, x));
    CHECK_CLOSE_F(dy, fd_scalar_f(g_polar_of_y, y));
    CHECK_CLOSE_TOL(dy, __enzyme_fwddiff_f2(g_polar, y, 1.0f, x, 0.0f), FRTOL, FATOL);
    CHECK_CLOSE_TOL(dx,
                    __enzyme_fwddiff_f2m(g_polar, enzyme_dup, y, 0.0f,
                                         enzyme_dup, x, 1.0f),
                    FRTOL, FATOL);
    CHECK_CLOSE_TOL(0.5 * dy - 2.0 * dx,
                    __enzyme_fwddiff_f2(g_polar, y, 0.5f, x, -2.0f), FRTOL, FATOL);
    /* y inactive: only x's tangent counts. */
    CHECK_CLOSE_TOL(-2.0 * dx,
                    __enzyme_fwddiff_f2c(g_polar, enzyme_const, y, enzyme_dup,
                                         x, -2.0f),
                    FRTOL, FATOL);
  }
  return fd_report();
}
