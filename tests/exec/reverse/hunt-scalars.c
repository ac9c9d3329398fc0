// Reverse mode on scalar physics-style formulas, written without markers
// (default activities: doubles are enzyme_out, ints const): a cubic
// polynomial by Horner, a libm mix (erf, expm1, log1p, asinh, atan, fmod,
// exp2, log10, log2, copysign, fmin, fabs), several returns, a switch over a model kind, several
// enzyme_out results (2, 3, 4) with and without enzyme_primal_return, and
// an integer argument between doubles. Checked against finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double a, b; } two;
typedef struct { double a, b, c; } three;
typedef struct { double a, b, c, d; } four;
typedef struct { double a, b, c, d, e; } five;
two __enzyme_autodiff_two(void *, ...);
three __enzyme_autodiff_three(void *, ...);
four __enzyme_autodiff_four(void *, ...);
five __enzyme_autodiff_five(void *, ...);

/* 3 x^3 - 2 x^2 + 0.5 x - 7, Horner */
double cubic(double x) { return ((3.0 * x - 2.0) * x + 0.5) * x - 7.0; }

/* Van der Waals pressure P(V, T) for one mole */
double vdw(double V, double T, double a, double b) {
  const double R = 8.314;
  return R * T / (V - b) - a / (V * V);
}

double libm_mix(double x, double y) {
  double u = erf(x) * expm1(y) + log1p(x * x) / (1 + asinh(y));
  double v = atan(x / y) + fmod(x * 3.1, 1.7) + exp2(y) * log10(2 + x);
  return u * v + fabs(y - x) + copysign(x, -y) + fmin(x, y) * log2(3 + y);
}

/* several returns */
double regime(double re, double d) {
  if (re < 2300)
    return 64.0 / re;                            /* laminar */
  if (re > 4000) {
    double f = 0.316 / pow(re, 0.25);            /* Blasius */
    if (d > 0.5)
      return f * (1 + 0.1 * d);
    return f;
  }
  double t = (re - 2300) / 1700;                 /* transition */
  return (1 - t) * 64.0 / 2300 + t * 0.316 / pow(4000, 0.25) + d * 0;
}

/* switch over a kind: int between doubles */
double kernel(double r, int kind, double h) {
  double q = r / h;
  switch (kind) {
  case 0: return exp(-q * q) / (h * h);
  case 1: return 1 / sqrt(1 + q * q);
  case 2: return q < 1 ? (1 - q) * (1 - q) * (1 - q) / h : 0.0;
  case 3:
  case 4: return sin(q) / (q * h);
  default: return r * h;
  }
}

double f4(double a, double b, double c, double d) {
  return a * b * c * d + sin(a * d) - cos(b * c) + a / (1 + d * d);
}
double f5(double a, double b, double c, double d, double e) {
  return tanh(a + b) * sinh(c) * cosh(d / 4) + e * e * e + atan2(a, e);
}

static double g_v[8];
static int g_kind;
static double vdw_V(double v) { return vdw(v, g_v[1], g_v[2], g_v[3]); }
static double vdw_T(double v) { return vdw(g_v[0], v, g_v[2], g_v[3]); }
static double vdw_a(double v) { return vdw(g_v[0], g_v[1], v, g_v[3]); }
static double vdw_b(double v) { return vdw(g_v[0], g_v[1], g_v[2], v); }
static double mix_x(double v) { return libm_mix(v, g_v[1]); }
static double mix_y(double v) { return libm_mix(g_v[0], v); }
static double reg_re(double v) { return regime(v, g_v[1]); }
static double reg_d(double v) { return regime(g_v[0], v); }
static double ker_r(double v) { return kernel(v, g_kind, g_v[1]); }
static double ker_h(double v) { return kernel(g_v[0], g_kind, v); }
static double f4_i(double v) {
  double a[4] = {g_v[0], g_v[1], g_v[2], g_v[3]};
  a[g_kind] = v;
  return f4(a[0], a[1], a[2], a[3]);
}
static double f5_i(double v) {
  double a[5] = {g_v[0], g_v[1], g_v[2], g_v[3], g_v[4]};
  a[g_kind] = v;
  return f5(a[0], a[1], a[2], a[3], a[4]);
}

int main(void) {
  /* cubic, no markers */
  for (double x = -1.3; x < 2; x += 0.7) {
    double an = 9 * x * x - 4 * x + 0.5;
    CHECK_CLOSE(an, fd_scalar(cubic, x));
    CHECK_CLOSE(an, __enzyme_autodiff((void *)cubic, x));
  }
  /* van der Waals: four outs, then primal + four outs */
  g_v[0] = 0.0224; g_v[1] = 300; g_v[2] = 0.1382; g_v[3] = 3.19e-5;
  four dv = __enzyme_autodiff_four((void *)vdw, g_v[0], g_v[1], g_v[2], g_v[3]);
  CHECK_CLOSE(fd_scalar(vdw_V, g_v[0]), dv.a);
  CHECK_CLOSE(fd_scalar(vdw_T, g_v[1]), dv.b);
  CHECK_CLOSE(-1 / (g_v[0] * g_v[0]), dv.c);
  CHECK_CLOSE(fd_scalar(vdw_b, g_v[3]), dv.d);
  CHECK_CLOSE(fd_scalar(vdw_a, g_v[2]), dv.c);
  five pv = __enzyme_autodiff_five((void *)vdw, enzyme_primal_return, g_v[0],
                                   g_v[1], g_v[2], g_v[3]);
  CHECK_CLOSE(vdw(g_v[0], g_v[1], g_v[2], g_v[3]), pv.a);
  CHECK_CLOSE(dv.a, pv.b);
  CHECK_CLOSE(dv.b, pv.c);
  CHECK_CLOSE(dv.c, pv.d);
  CHECK_CLOSE(dv.d, pv.e);
  /* T and a const: two outs in registers */
  two d2 = __enzyme_autodiff_two((void *)vdw, g_v[0], enzyme_const, g_v[1],
                                 enzyme_const, g_v[2], g_v[3]);
  CHECK_CLOSE(dv.a, d2.a);
  CHECK_CLOSE(dv.d, d2.b);
  /* only V out, primal returned: {primal, dV} */
  two p1 = __enzyme_autodiff_two((void *)vdw, enzyme_primal_return, g_v[0],
                                 enzyme_const, g_v[1], enzyme_const, g_v[2],
                                 enzyme_const, g_v[3]);
  CHECK_CLOSE(pv.a, p1.a);
  CHECK_CLOSE(dv.a, p1.b);
  /* three outs, primal returned: four through sret */
  four p3 = __enzyme_autodiff_four((void *)vdw, enzyme_primal_return, g_v[0],
                                   g_v[1], enzyme_const, g_v[2], g_v[3]);
  CHECK_CLOSE(pv.a, p3.a);
  CHECK_CLOSE(dv.a, p3.b);
  CHECK_CLOSE(dv.b, p3.c);
  CHECK_CLOSE(dv.d, p3.d);

  /* libm mix */
  static const double pts[][2] = {{0.7, 1.3}, {-0.4, 2.2}, {1.9, 0.35}};
  for (int k = 0; k < 3; ++k) {
    g_v[0] = pts[k][0]; g_v[1] = pts[k][1];
    two g = __enzyme_autodiff_two((void *)libm_mix, g_v[0], g_v[1]);
    CHECK_CLOSE_TOL(fd_scalar(mix_x, g_v[0]), g.a, 1e-6, 1e-8);
    CHECK_CLOSE_TOL(fd_scalar(mix_y, g_v[1]), g.b, 1e-6, 1e-8);
    three gp = __enzyme_autodiff_three((void *)libm_mix, enzyme_primal_return,
                                       g_v[0], g_v[1]);
    CHECK_CLOSE(libm_mix(g_v[0], g_v[1]), gp.a);
    CHECK_CLOSE(g.a, gp.b);
    CHECK_CLOSE(g.b, gp.c);
  }
  /* several returns */
  static const double regs[][2] = {{1500, 0.3}, {5000, 0.2}, {9000, 0.8}, {3000, 0.7}};
  for (int k = 0; k < 4; ++k) {
    g_v[0] = regs[k][0]; g_v[1] = regs[k][1];
    two g = __enzyme_autodiff_two((void *)regime, g_v[0], g_v[1]);
    CHECK_CLOSE(fd_scalar(reg_re, g_v[0]), g.a);
    CHECK_CLOSE_TOL(fd_scalar(reg_d, g_v[1]), g.b, 1e-7, 1e-12);
  }
  /* switch */
  for (g_kind = 0; g_kind < 6; ++g_kind) {
    g_v[0] = 0.45; g_v[1] = 0.8;
    two g = __enzyme_autodiff_two((void *)kernel, g_v[0], g_kind, g_v[1]);
    CHECK_CLOSE(fd_scalar(ker_r, g_v[0]), g.a);
    CHECK_CLOSE(fd_scalar(ker_h, g_v[1]), g.b);
    double gr = __enzyme_autodiff((void *)kernel, g_v[0], enzyme_const, g_kind,
                                  enzyme_const, g_v[1]);
    CHECK_CLOSE(g.a, gr);
  }
  /* four and five outs */
  g_v[0] = 0.6; g_v[1] = -1.1; g_v[2] = 0.9; g_v[3] = 1.7; g_v[4] = 0.45;
  four g4 = __enzyme_autodiff_four((void *)f4, g_v[0], g_v[1], g_v[2], g_v[3]);
  double r4[4] = {g4.a, g4.b, g4.c, g4.d};
  for (g_kind = 0; g_kind < 4; ++g_kind)
    CHECK_CLOSE(fd_scalar(f4_i, g_v[g_kind]), r4[g_kind]);
  five g5 = __enzyme_autodiff_five((void *)f5, g_v[0], g_v[1], g_v[2], g_v[3], g_v[4]);
  double r5[5] = {g5.a, g5.b, g5.c, g5.d, g5.e};
  for (g_kind = 0; g_kind < 5; ++g_kind)
    CHECK_CLOSE(fd_scalar(f5_i, g_v[g_kind]), r5[g_kind]);
  return fd_report();
}
