/* Driver for tests/exec/rust/forward-slices-O*.test: calls the Rust
 * functions of slices.rs and the derivatives autodiff-opt synthesized for
 * the items in slices.specs, and checks every tangent against finite
 * differences of the Rust primal and against analytic formulas.
 *
 * `driver short` instead calls d_sum_sq with a shadow shorter than the
 * primal: the lowering's run-time check must stop the program. */
#include "fdcheck.h"

#include <stddef.h>
#include <string.h>

typedef struct {
  double primal, tangent;
} dual;
typedef struct {
  double d[2];
} v2;

/* Rust, #[no_mangle]. */
double sum_sq(const double *x, size_t n);
double log_sum_exp(const double *x, size_t n);
double energy(const double *x, size_t n);
double poly(const double *c, size_t n, double t);
void scale(const double *x, size_t xn, double *y, size_t yn, double a);
void normalize(const double *x, size_t xn, double *out, size_t on);
double logistic(double x0, double r, size_t n);

/* Synthesized by autodiff-opt. */
dual d_sum_sq(const double *x, size_t n, const double *dx, size_t dn);
v2 d2_sum_sq(const double *x, size_t n, const double *dx0, size_t n0,
             const double *dx1, size_t n1);
dual d_lse(const double *x, size_t n, const double *dx, size_t dn);
v2 dv_lse(const double *x, size_t n, const double *dx, size_t dn);
double d_energy(const double *x, size_t n, const double *dx, size_t dn);
dual d_poly(const double *c, size_t n, double t, double dt);
dual d_poly_c(const double *c, size_t n, const double *dc, size_t dn,
              double t);
void d_scale(const double *x, size_t xn, const double *dx, size_t dxn,
             double *y, size_t yn, double *dy, size_t dyn, double a,
             double da);
void d_normalize(const double *x, size_t xn, const double *dx, size_t dxn,
                 double *out, size_t on, double *dout, size_t don);
dual d_logistic(double x0, double dx0, double r, double dr, size_t n);

enum { N = 11 };

struct ctx {
  size_t n;
  double t;
};
static double sum_sq_fd(const double *v, void *p) {
  return sum_sq(v, ((struct ctx *)p)->n);
}
static double lse_fd(const double *v, void *p) {
  return log_sum_exp(v, ((struct ctx *)p)->n);
}
static double energy_fd(const double *v, void *p) {
  return energy(v, ((struct ctx *)p)->n);
}
static double poly_c_fd(const double *v, void *p) {
  struct ctx *c = (struct ctx *)p;
  return poly(v, c->n, c->t);
}
/* v = [x; a] */
static void scale_fd(const double *v, double *out, void *p) {
  size_t n = ((struct ctx *)p)->n;
  scale(v, n, out, n, v[n]);
}
static void normalize_fd(const double *v, double *out, void *p) {
  size_t n = ((struct ctx *)p)->n;
  normalize(v, n, out, n);
}
static double logistic_fd(const double *v, void *p) {
  return logistic(v[0], v[1], ((struct ctx *)p)->n);
}

int main(int argc, char **argv) {
  volatile size_t nv = N;
  size_t n = nv;
  double x[N + 1], dx[N + 1], dx1[N], dxv[2 * N];
  for (size_t i = 0; i < N; ++i) {
    x[i] = 0.8 * sin(1.3 * i + 0.2) + 0.1 * i;
    dx[i] = 0.5 - 0.07 * i;
    dx1[i] = 0.3 * cos(0.9 * i);
    dxv[i] = dx[i];
    dxv[N + i] = dx1[i];
  }
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    dual r = d_sum_sq(x, n, dx, n - 2);
    printf("not stopped: %g\n", r.tangent);
    return 0;
  }
  struct ctx c = {n, 0};

  /* sum_sq */
  double an = 0, an1 = 0;
  for (size_t i = 0; i < n; ++i) {
    an += 2 * x[i] * dx[i];
    an1 += 2 * x[i] * dx1[i];
  }
  CHECK_CLOSE(an, fd_dir(sum_sq_fd, &c, x, dx, n));
  dual r = d_sum_sq(x, n, dx, n);
  CHECK_CLOSE(sum_sq(x, n), r.primal);
  CHECK_CLOSE(an, r.tangent);
  v2 w = d2_sum_sq(x, n, dx, n, dx1, n);
  CHECK_CLOSE(an, w.d[0]);
  CHECK_CLOSE(an1, w.d[1]);

  /* log_sum_exp: softmax . dx */
  double m = x[0], s = 0, al = 0, al1 = 0;
  for (size_t i = 1; i < n; ++i)
    m = x[i] > m ? x[i] : m;
  for (size_t i = 0; i < n; ++i)
    s += exp(x[i] - m);
  for (size_t i = 0; i < n; ++i) {
    al += exp(x[i] - m) / s * dx[i];
    al1 += exp(x[i] - m) / s * dx1[i];
  }
  CHECK_CLOSE(al, fd_dir(lse_fd, &c, x, dx, n));
  CHECK_CLOSE(al1, fd_dir(lse_fd, &c, x, dx1, n));
  r = d_lse(x, n, dx, n);
  CHECK_CLOSE(m + log(s), r.primal);
  CHECK_CLOSE(al, r.tangent);
  w = dv_lse(x, n, dxv, 2 * n);
  CHECK_CLOSE(al, w.d[0]);
  CHECK_CLOSE(al1, w.d[1]);

  /* energy: sum (x_{i+1} - x_i)^2 + sum sin(x) cosh(x) */
  double ae = 0;
  for (size_t i = 0; i + 1 < n; ++i)
    ae += 2 * (x[i + 1] - x[i]) * (dx[i + 1] - dx[i]);
  for (size_t i = 0; i < n; ++i)
    ae += (cos(x[i]) * cosh(x[i]) + sin(x[i]) * sinh(x[i])) * dx[i];
  CHECK_CLOSE(ae, fd_dir(energy_fd, &c, x, dx, n));
  CHECK_CLOSE(ae, d_energy(x, n, dx, n));

  /* poly: sum c_i t^i */
  double t = 0.85, p = 0, dp_t = 0, dp_c = 0;
  for (size_t i = 0; i < n; ++i) {
    p += x[i] * pow(t, (double)i);
    if (i > 0)
      dp_t += x[i] * i * pow(t, (double)i - 1);
    dp_c += dx[i] * pow(t, (double)i);
  }
  c.t = t;
  CHECK_CLOSE(dp_c, fd_dir(poly_c_fd, &c, x, dx, n));
  r = d_poly(x, n, t, 1.0);
  CHECK_CLOSE(p, r.primal);
  CHECK_CLOSE(dp_t, r.tangent);
  r = d_poly(x, n, t, -2.5);
  CHECK_CLOSE(-2.5 * dp_t, r.tangent);
  r = d_poly_c(x, n, dx, n, t);
  CHECK_CLOSE(p, r.primal);
  CHECK_CLOSE(dp_c, r.tangent);

  /* scale: y = a sin(x) + x^2, all Dual */
  double a = 1.35, da = -0.4, y[N], dy[N], fd[N], v[N + 1], dv[N + 1];
  memcpy(v, x, sizeof(double) * n);
  memcpy(dv, dx, sizeof(double) * n);
  v[n] = a;
  dv[n] = da;
  fd_dir_vec(scale_fd, &c, v, dv, n + 1, fd, n);
  for (size_t i = 0; i < n; ++i) {
    y[i] = -1;
    dy[i] = 1e3;
  }
  d_scale(x, n, dx, n, y, n, dy, n, a, da);
  for (size_t i = 0; i < n; ++i) {
    double ai = da * sin(x[i]) + (a * cos(x[i]) + 2 * x[i]) * dx[i];
    CHECK_CLOSE(ai, fd[i]);
    CHECK_CLOSE(a * sin(x[i]) + x[i] * x[i], y[i]);
    CHECK_CLOSE(ai, dy[i]);
  }

  /* normalize */
  double ss = 0, xdx = 0, out[N], dout[N];
  for (size_t i = 0; i < n; ++i) {
    ss += x[i] * x[i];
    xdx += x[i] * dx[i];
    out[i] = dout[i] = -9;
  }
  double nr = sqrt(ss);
  fd_dir_vec(normalize_fd, &c, x, dx, n, fd, n);
  d_normalize(x, n, dx, n, out, n, dout, n);
  for (size_t i = 0; i < n; ++i) {
    double ai = dx[i] / nr - x[i] * xdx / (nr * nr * nr);
    CHECK_CLOSE(ai, fd[i]);
    CHECK_CLOSE(x[i] / nr, out[i]);
    CHECK_CLOSE(ai, dout[i]);
  }

  /* logistic: tangent loop by hand */
  double x0 = 0.31, rr = 3.2, lx = x0, ldx = 0.6, ldr = -0.8;
  for (int k = 0; k < 25; ++k) {
    double nx = rr * lx * (1 - lx);
    ldx = ldr * lx * (1 - lx) + rr * ldx * (1 - 2 * lx);
    lx = nx;
  }
  struct ctx cl = {25, 0};
  double lv[2] = {x0, rr}, ldv[2] = {0.6, -0.8};
  CHECK_CLOSE_TOL(ldx, fd_dir(logistic_fd, &cl, lv, ldv, 2), 1e-5, 1e-8);
  r = d_logistic(x0, 0.6, rr, -0.8, 25);
  CHECK_CLOSE(lx, r.primal);
  CHECK_CLOSE(ldx, r.tangent);
  return fd_report();
}
