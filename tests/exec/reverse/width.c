// Vector reverse mode: `enzyme_width N` in `__enzyme_autodiff` (N shadows
// per duplicated argument, each lane's return seeded with 1.0, N gradients
// per enzyme_out scalar, in lane order). Every lane must equal a run of
// width 1 with that lane's shadows and seeds, and the primal side effects
// must happen once. Kernels: a vector function with a malloc'd temporary
// (two vector-Jacobian products at once); an in-place update in a time
// loop; a data-dependent while loop with break and an argmax; two buffers
// swapped in a time loop; several enzyme_out scalars with a primal return;
// float code; width 3 and 4.
//
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 6 };

typedef struct { double d[3]; } v3;
typedef struct { double d[5]; } v5;
enzyme_v2 __enzyme_autodiff_v2(void *, ...);
enzyme_v4 __enzyme_autodiff_v4(void *, ...);
v3 __enzyme_autodiff_v3(void *, ...);
v5 __enzyme_autodiff_v5(void *, ...);
float __enzyme_autodiff_float(void *, ...);
typedef struct { float d[2]; } fv2;
fv2 __enzyme_autodiff_fv2(void *, ...);

static int calls;

/* out[i] = sin(x[i]) y + x[i] x[i+1 mod n], through a malloc'd temporary. */
static void vec_fn(double *out, const double *x, double y, long n) {
  ++calls;
  double *t = malloc(n * sizeof(double));
  for (long i = 0; i < n; ++i)
    t[i] = x[i] * x[(i + 1) % n];
  for (long i = 0; i < n; ++i)
    out[i] = sin(x[i]) * y + t[i];
  free(t);
}

static void check_vec_fn(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5, 2.0, -1.3}, y = 0.8, out[N];
  double w[2][N] = {{1, 2, 3, 4, 5, 6}, {-1, 0.5, 0, 2, 1, -3}};
  double dx[2][N] = {{0}}, dout[2][N];
  memcpy(dout, w, sizeof w);
  calls = 0;
  enzyme_v2 dy = __enzyme_autodiff_v2(
      (void *)vec_fn, enzyme_width, 2, enzyme_dup, out, dout[0], dout[1],
      enzyme_dup, x, dx[0], dx[1], enzyme_out, y, enzyme_const, (long)N);
  CHECK(calls == 1);
  for (int lane = 0; lane < 2; ++lane) {
    double rx[N] = {0}, rout[N], rdout[N];
    memcpy(rdout, w[lane], sizeof rdout);
    double rdy = __enzyme_autodiff((void *)vec_fn, enzyme_dup, rout, rdout,
                                   enzyme_dup, x, rx, enzyme_out, y,
                                   enzyme_const, (long)N);
    CHECK_CLOSE(rdy, dy.d[lane]);
    double e = 0; /* analytic d/dy */
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(rx[i], dx[lane][i]);
      CHECK(dout[lane][i] == 0.0); /* overwritten: adjoint consumed */
      CHECK_CLOSE(rout[i], out[i]);
      e += w[lane][i] * sin(x[i]);
    }
    CHECK_CLOSE(e, dy.d[lane]);
  }
}

/* In place, over time: u[i] = u[i] + dt * (u[i-1] - 2 u[i] + u[i+1])^2. */
static double inplace(double *u, long n, long steps) {
  for (long s = 0; s < steps; ++s)
    for (long i = 1; i + 1 < n; ++i) {
      double lap = u[i - 1] - 2 * u[i] + u[i + 1];
      u[i] = u[i] + 0.1 * lap * lap;
    }
  double r = 0;
  for (long i = 0; i < n; ++i)
    r += u[i] * u[i];
  return r;
}

static void check_inplace(void) {
  double u0[N] = {0.1, 0.4, -0.2, 0.3, 0.5, -0.1};
  double u[N], du[4][N];
  double seeds[4] = {0, 1.5, -2, 0.25}; /* seeds already in the shadows */
  memcpy(u, u0, sizeof u);
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < N; ++i)
      du[k][i] = seeds[k] * (i + 1);
  /* No enzyme_out scalar: nothing comes back; each lane's return is
   * seeded with 1.0. */
  __enzyme_autodiff_void((void *)inplace, enzyme_width, 4, enzyme_dup, u,
                         du[0], du[1], du[2], du[3], enzyme_const, (long)N,
                         enzyme_const, (long)5);
  for (int k = 0; k < 4; ++k) {
    double ru[N], rdu[N];
    memcpy(ru, u0, sizeof ru);
    for (int i = 0; i < N; ++i)
      rdu[i] = seeds[k] * (i + 1);
    __enzyme_autodiff((void *)inplace, enzyme_dup, ru, rdu, enzyme_const,
                      (long)N, enzyme_const, (long)5);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(rdu[i], du[k][i]);
      CHECK(ru[i] == u[i]); /* the primal ran once, as at width 1 */
    }
  }
}

/* A while loop whose trip count depends on the data, with break and an
 * argmax through comparisons. */
static double newton_argmax(const double *a, double c, long n) {
  long best = 0;
  for (long i = 1; i < n; ++i)
    if (a[i] > a[best])
      best = i;
  double x = a[best] + 1.0; /* sqrt(c) by Newton, from a data start */
  long it = 0;
  while (1) {
    double nx = 0.5 * (x + c / x);
    if (fabs(nx - x) < 1e-13 * nx || ++it > 100)
      break;
    x = nx;
  }
  return x * a[best] + c * a[0];
}

static void check_newton(void) {
  double a[N] = {0.5, 1.7, -0.3, 1.2, 0.9, 1.69};
  double da[3][N] = {{0}};
  double c = 2.5;
  v3 dc = __enzyme_autodiff_v3((void *)newton_argmax, enzyme_width, 3,
                               enzyme_dup, a, da[0], da[1], da[2],
                               enzyme_out, c, enzyme_const, (long)N);
  double ra[N] = {0};
  double rdc = __enzyme_autodiff((void *)newton_argmax, enzyme_dup, a, ra,
                                 enzyme_out, c, enzyme_const, (long)N);
  for (int k = 0; k < 3; ++k) {
    CHECK_CLOSE(rdc, dc.d[k]);
    for (int i = 0; i < N; ++i)
      CHECK_CLOSE(ra[i], da[k][i]);
  }
  /* Analytic: x = sqrt(c), f = sqrt(c) a[1] + c a[0]. */
  CHECK_CLOSE(0.5 / sqrt(c) * a[1] + a[0], dc.d[0]);
  CHECK_CLOSE(sqrt(c), da[0][1]);
  CHECK_CLOSE(c, da[0][0]);
}

/* Two buffers swapped in a time loop; the result is left in `u`'s
 * buffer or `tmp`'s, as the loop count says. */
static void swapped(double *u, double *tmp, long n, long steps) {
  for (long s = 0; s < steps; ++s) {
    for (long i = 1; i + 1 < n; ++i)
      tmp[i] = u[i] + 0.2 * sin(u[i - 1] - u[i + 1]) * u[i];
    double *t = u;
    u = tmp;
    tmp = t;
  }
}

static void check_swapped(void) {
  double u0[N] = {0.2, -0.5, 0.7, 0.1, -0.3, 0.6};
  double u[N], tmp[N], du[2][N], dtmp[2][N];
  memcpy(u, u0, sizeof u);
  memcpy(tmp, u0, sizeof tmp);
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < N; ++i) {
      du[k][i] = k ? 0.0 : 1.0;
      dtmp[k][i] = k ? (i % 2 ? 1.0 : -1.0) : 0.5;
    }
  double du0[2][N], dtmp0[2][N];
  memcpy(du0, du, sizeof du);
  memcpy(dtmp0, dtmp, sizeof dtmp);
  __enzyme_autodiff_void((void *)swapped, enzyme_width, 2, enzyme_dup, u,
                         du[0], du[1], enzyme_dup, tmp, dtmp[0], dtmp[1],
                         enzyme_const, (long)N, enzyme_const, (long)3);
  for (int k = 0; k < 2; ++k) {
    double ru[N], rt[N], rdu[N], rdt[N];
    memcpy(ru, u0, sizeof ru);
    memcpy(rt, u0, sizeof rt);
    memcpy(rdu, du0[k], sizeof rdu);
    memcpy(rdt, dtmp0[k], sizeof rdt);
    __enzyme_autodiff_void((void *)swapped, enzyme_dup, ru, rdu, enzyme_dup,
                           rt, rdt, enzyme_const, (long)N, enzyme_const,
                           (long)3);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(rdu[i], du[k][i]);
      CHECK_CLOSE(rdt[i], dtmp[k][i]);
      CHECK(ru[i] == u[i] && rt[i] == tmp[i]);
    }
  }
}

/* Several enzyme_out scalars and the primal: {primal, da x2, db x2}. */
static double two_scalars(double a, double b, const double *v) {
  return a * a * v[0] + sin(a * b) * v[1] + exp(b) * v[2];
}

static void check_scalars(void) {
  double v[3] = {0.3, -1.2, 0.7}, dv[2][3] = {{0}};
  double a = 0.9, b = -0.4;
  v5 r = __enzyme_autodiff_v5((void *)two_scalars, enzyme_width, 2,
                              enzyme_primal_return, enzyme_out, a,
                              enzyme_out, b, enzyme_dup, v, dv[0], dv[1]);
  CHECK_CLOSE(two_scalars(a, b, v), r.d[0]);
  double da = 2 * a * v[0] + cos(a * b) * b * v[1];
  double db = cos(a * b) * a * v[1] + exp(b) * v[2];
  CHECK_CLOSE(da, r.d[1]);
  CHECK_CLOSE(da, r.d[2]);
  CHECK_CLOSE(db, r.d[3]);
  CHECK_CLOSE(db, r.d[4]);
  for (int k = 0; k < 2; ++k) {
    CHECK_CLOSE(a * a, dv[k][0]);
    CHECK_CLOSE(sin(a * b), dv[k][1]);
    CHECK_CLOSE(exp(b), dv[k][2]);
  }
}

/* Float: a dot product with a square root. */
static float fnorm(const float *x, float s, int n) {
  float r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * x[i] * s;
  return sqrtf(r);
}

static void check_float(void) {
  float x[4] = {0.5f, -1.0f, 2.0f, 0.25f}, dx[2][4] = {{0}};
  float s = 1.5f;
  fv2 ds = __enzyme_autodiff_fv2((void *)fnorm, enzyme_width, 2, enzyme_dup,
                                 x, dx[0], dx[1], enzyme_out, s,
                                 enzyme_const, 4);
  float rx[4] = {0};
  float rds = __enzyme_autodiff_float((void *)fnorm, enzyme_dup, x, rx,
                                      enzyme_out, s, enzyme_const, 4);
  for (int k = 0; k < 2; ++k) {
    CHECK_CLOSE_F(rds, ds.d[k]);
    for (int i = 0; i < 4; ++i)
      CHECK_CLOSE_F(rx[i], dx[k][i]);
  }
}

int main(void) {
  check_vec_fn();
  check_inplace();
  check_newton();
  check_swapped();
  check_scalars();
  check_float();
  return fd_report();
}
