// Forward mode with `enzyme_const`: inactive double scalars, inactive
// arrays, inactive integers, in every position, mixed with dup arguments.
// A const argument has no tangent operand and contributes nothing; its
// value is still used by the primal.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

/* p(t) = c0 + c1 t + ... evaluated by Horner at t, times amp. */
double poly(const double *coef, int deg, double t, double amp) {
  double s = coef[deg];
  for (int i = deg - 1; i >= 0; --i)
    s = s * t + coef[i];
  return s * amp;
}

/* Weighted squared error between model a * exp(b * t_i) and data y_i. */
double fit_error(double a, double b, const double *t, const double *y,
                 const double *w, int n) {
  double e = 0;
  for (int i = 0; i < n; ++i) {
    double r = a * exp(b * t[i]) - y[i];
    e += w[i] * r * r;
  }
  return e;
}

static double poly_t(const double *c, const double *dc, int deg, double t,
                     double dt, double amp, double damp) {
  double s = c[deg], ds = dc ? dc[deg] : 0;
  for (int i = deg - 1; i >= 0; --i) {
    ds = ds * t + s * dt + (dc ? dc[i] : 0);
    s = s * t + c[i];
  }
  return ds * amp + s * damp;
}

struct ctx {
  const double *t, *y, *w;
  int n;
};
static double fit_fd(const double *v, void *p) {
  struct ctx *c = (struct ctx *)p;
  return fit_error(v[0], v[1], c->t, c->y, c->w, c->n);
}
static double poly_coef_fd(const double *v, void *p) {
  (void)p;
  return poly(v, 5, 0.7, 1.3);
}

enum { N = 10, DEG = 5 };

int main(void) {
  double coef[DEG + 1] = {0.5, -1.2, 0.8, 0.33, -0.21, 0.07};
  double dcoef[DEG + 1] = {0.1, 0.2, -0.3, 0.4, 0.5, -0.6};
  double t = 0.7, amp = 1.3;

  /* Only t active. */
  double an_t = poly_t(coef, 0, DEG, t, 1.0, amp, 0.0);
  CHECK_CLOSE(an_t, poly_t(coef, dcoef, DEG, t, 1.0, amp, 0.0) -
                        poly_t(coef, dcoef, DEG, t, 0.0, amp, 0.0));
  CHECK_CLOSE(an_t, __enzyme_fwddiff((void *)poly, enzyme_const, coef,
                                     enzyme_const, DEG, enzyme_dup, t, 1.0,
                                     enzyme_const, amp));
  /* Only amp active: the derivative is p(t). */
  CHECK_CLOSE(poly(coef, DEG, t, 1.0),
              __enzyme_fwddiff((void *)poly, enzyme_const, coef, DEG,
                               enzyme_const, t, enzyme_dup, amp, 1.0));
  /* Only the coefficients active. */
  double an_c = poly_t(coef, dcoef, DEG, t, 0.0, amp, 0.0);
  CHECK_CLOSE(an_c, fd_dir(poly_coef_fd, 0, coef, dcoef, DEG + 1));
  CHECK_CLOSE(an_c, __enzyme_fwddiff((void *)poly, enzyme_dup, coef, dcoef,
                                     DEG, enzyme_const, t, enzyme_const, amp));
  /* Everything active, for comparison. */
  CHECK_CLOSE(poly_t(coef, dcoef, DEG, t, -0.5, amp, 2.0),
              __enzyme_fwddiff((void *)poly, coef, dcoef, DEG, t, -0.5, amp,
                               2.0));

  double ts[N], ys[N], ws[N];
  for (int i = 0; i < N; ++i) {
    ts[i] = 0.1 * i;
    ys[i] = 2.0 * exp(-0.8 * ts[i]) + 0.05 * sin(3.0 * i);
    ws[i] = 1.0 + 0.1 * (i % 3);
  }
  volatile int nv = N;
  int n = nv;
  double a = 1.7, b = -0.6;
  double da = 0, db = 0;
  for (int i = 0; i < n; ++i) {
    double e = exp(b * ts[i]), r = a * e - ys[i];
    da += 2 * ws[i] * r * e;
    db += 2 * ws[i] * r * a * ts[i] * e;
  }
  struct ctx c = {ts, ys, ws, n};
  double v[2] = {a, b}, ea[2] = {1, 0}, eb[2] = {0, 1};
  CHECK_CLOSE(da, fd_dir(fit_fd, &c, v, ea, 2));
  CHECK_CLOSE(db, fd_dir(fit_fd, &c, v, eb, 2));
  CHECK_CLOSE(da, __enzyme_fwddiff((void *)fit_error, enzyme_dup, a, 1.0,
                                   enzyme_const, b, enzyme_const, ts,
                                   enzyme_const, ys, enzyme_const, ws,
                                   enzyme_const, n));
  CHECK_CLOSE(db, __enzyme_fwddiff((void *)fit_error, enzyme_const, a, b, 1.0,
                                   enzyme_const, ts, enzyme_const, ys,
                                   enzyme_const, ws, n));
  /* The data y active too: d/dy_i = -2 w_i r_i along dy. */
  double dys[N], zeros[N], an_y = 0;
  for (int i = 0; i < N; ++i) {
    dys[i] = 0.3 - 0.05 * i;
    zeros[i] = 0;
    an_y += -2 * ws[i] * (a * exp(b * ts[i]) - ys[i]) * dys[i];
  }
  CHECK_CLOSE(da + an_y,
              __enzyme_fwddiff((void *)fit_error, a, 1.0, enzyme_const, b,
                               enzyme_const, ts, enzyme_dup, ys, dys,
                               enzyme_const, ws, n));
  /* A dup array with a zero shadow is the same as const. */
  CHECK_CLOSE(db, __enzyme_fwddiff((void *)fit_error, a, 0.0, b, 1.0,
                                   enzyme_dup, ts, zeros, enzyme_const, ys,
                                   enzyme_const, ws, n));
  return fd_report();
}
