/* Calls the reverse derivatives of hunt.rs (items in hunt-O*.specs) and
 * checks them against finite differences of the Rust primals, with the seed
 * dret honoured, shadows of read-only slices incremented and the shadow of
 * an overwritten slice zeroed. `driver short` passes a shadow shorter than
 * the primal: the lowering's run-time check must stop the program. The
 * softmax_entropy item is weak: hunt-O0.specs leaves it out (see why
 * there). */
#include "fdcheck.h"

#include <string.h>

typedef struct { double primal, a, b; } res3;
typedef struct { double primal, a, b, c, d; } res5;
double lj_energy(const double *pos, long n, double eps, double sigma);
double weighted_lse(const double *z, long n, const double *w, long m);
void relax(double *x, long n, long sweeps);
double damped_osc(double x0, double v0, double k, double c, long steps);
double chain_curvature(const double *p, long n);
double mat_quad(const double *a, long an, const double *x, long n, double *y, long m);
double softmax_entropy(const double *z, long n);
double boxed_bins(const double *x, long n);
double min_total(const double *x, long n);
double copy_stencil(const double *x, long n);
double splice(const double *x, long n, double *y, long m);
double flip(double *x, long n);
typedef struct { double k, c; } params;
double spring4(const double *a, const params *p);

res3 r_lj(const double *pos, long n, double *dpos, long dn, double eps, double sigma,
          double dret);
__attribute__((weak)) double r_wlse(const double *z, long n, double *dz, long dn,
                                    const double *w, long m, double dret);
__attribute__((weak)) double r_wlse_w(const double *z, long n, const double *w, long m,
                                      double *dw, long dm, double dret);
void r_relax(double *x, long n, double *dx, long dn, long sweeps);
res5 r_osc(double x0, double v0, double k, double c, long steps, double dret);
double r_curv(const double *p, long n, double *dp, long dn, double dret);
double r_quad(const double *a, long an, double *da, long dan, const double *x, long n,
              double *dx, long dn, double *y, long m, double *dy, long dm, double dret);
__attribute__((weak)) double r_ent(const double *z, long n, double *dz, long dn, double dret);
double r_mint(const double *x, long n, double *dx, long dn, double dret);
double r_stencil(const double *x, long n, double *dx, long dn, double dret);
double r_splice(const double *x, long n, double *dx, long dn, double *y, long m, double *dy,
                long dm, double dret);
double r_flip(double *x, long n, double *dx, long dn, double dret);
double r_spring4(const double *a, double *da, const params *p, params *dp, double dret);
double binned(const double *x, long n);
double r_binned(const double *x, long n, double *dx, long dn, double dret);
__attribute__((weak)) double r_bins(const double *x, long n, double *dx, long dn, double dret);

struct ctx { long n; const double *p[3]; double s[4]; };
static double lj_F(const double *v, void *p) {
  struct ctx *c = p; return lj_energy(v, c->n, c->s[0], c->s[1]);
}
static double wlse_z(const double *v, void *p) {
  struct ctx *c = p; return weighted_lse(v, c->n, c->p[0], c->n);
}
static double wlse_w(const double *v, void *p) {
  struct ctx *c = p; return weighted_lse(c->p[0], c->n, v, c->n);
}
static double relax_F(const double *v, void *p) {
  struct ctx *c = p; double x[32];
  memcpy(x, v, c->n * sizeof(double));
  relax(x, c->n, 5);
  double s = 0; for (long i = 0; i < c->n; ++i) s += c->p[0][i] * x[i];
  return s;
}
static double osc_F(const double *v, void *p) { (void)p; return damped_osc(v[0], v[1], v[2], v[3], 3000); }
static double curv_F(const double *v, void *p) { struct ctx *c = p; return chain_curvature(v, c->n); }
static double quad_L(const double *v, void *p) {
  /* v = [a (n*n), x (n)]; L = q + seed . y */
  struct ctx *c = p; double y[8];
  long n = c->n;
  double q = mat_quad(v, n * n, v + n * n, n, y, n);
  for (long i = 0; i < n; ++i) q += c->p[0][i] * y[i];
  return q;
}
static double ent_F(const double *v, void *p) { struct ctx *c = p; return softmax_entropy(v, c->n); }
static double bins_F(const double *v, void *p) { struct ctx *c = p; return boxed_bins(v, c->n); }
static double mint_F(const double *v, void *p) { struct ctx *c = p; return min_total(v, c->n); }
static double stencil_F(const double *v, void *p) { struct ctx *c = p; return copy_stencil(v, c->n); }
/* v = [x (6), y (5)]; the seeds of y's final values count as dret 1.5 */
static const double splice_seed[5] = {0.5, -1, 2, 0.25, 3};
static double splice_F(const double *v, void *p) {
  (void)p; double y[5];
  memcpy(y, v + 6, sizeof y);
  double s = splice(v, 6, y, 5);
  for (int i = 0; i < 5; ++i) s += splice_seed[i] * y[i] / 1.5;
  return s;
}
/* flip reverses its argument: the seeds of the final values count too */
static const double flip_seed[7] = {1, -2, 0.5, 0, 3, 0.25, -1};
static double flip_F(const double *v, void *p) {
  (void)p; double x[7];
  memcpy(x, v, sizeof x);
  double s = flip(x, 7);
  for (int i = 0; i < 7; ++i) s += flip_seed[i] * x[i] / 0.75;
  return s;
}
/* v = a[0..4], k, c */
static double spring4_F(const double *v, void *p) {
  (void)p;
  params q = {v[4], v[5]};
  return spring4(v, &q);
}
static void check_grad(double (*F)(const double *, void *), void *c, const double *x, int n,
                       const double *got, double scale) {
  for (int i = 0; i < n; ++i) {
    double e[64] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(scale * fd_dir(F, c, x, e, n), got[i], 1e-6, 1e-8);
  }
}

int main(int argc, char **argv) {
  enum { N = 12 };
  double pos[N], dpos[N];
  for (int i = 0; i < N; ++i) { pos[i] = 1.2 * (i / 3) + 0.4 * sin(1.9 * i); dpos[i] = 0.5; }
  if (argc > 1 && strcmp(argv[1], "short") == 0) {
    r_lj(pos, N, dpos, N - 3, 1.0, 1.0, 1.0);
    printf("not stopped\n");
    return 0;
  }
  /* LJ: dret 2, shadow starts at 0.5 (incremented) */
  {
    res3 r = r_lj(pos, N, dpos, N, 1.3, 0.9, 2.0);
    struct ctx c = {N, {0}, {1.3, 0.9}};
    CHECK_CLOSE(lj_energy(pos, N, 1.3, 0.9), r.primal);
    for (int i = 0; i < N; ++i) dpos[i] -= 0.5;
    check_grad(lj_F, &c, pos, N, dpos, 2.0);
    CHECK_CLOSE(2.0 * r.primal / 1.3, r.a);
    double h = 1e-6;
    CHECK_CLOSE_TOL(2.0 * (lj_energy(pos, N, 1.3, 0.9 + h) - lj_energy(pos, N, 1.3, 0.9 - h)) / (2 * h),
                    r.b, 1e-6, 1e-8);
  }
  /* weighted logsumexp, each slice active in turn */
  CHECK(r_wlse != 0 && r_wlse_w != 0);
  if (r_wlse && r_wlse_w) {
    double z[7] = {0.3, -1.2, 2.5, 0.8, -0.4, 1.9, 0.05}, w[7] = {1, 0.5, 2, 1.5, 0.25, 1, 3};
    double dz[7] = {0}, dw[7] = {0};
    CHECK_CLOSE(weighted_lse(z, 7, w, 7), r_wlse(z, 7, dz, 7, w, 7, 1.5));
    CHECK_CLOSE(weighted_lse(z, 7, w, 7), r_wlse_w(z, 7, w, 7, dw, 7, 1.5));
    struct ctx cz = {7, {w}, {0}}, cw = {7, {z}, {0}};
    check_grad(wlse_z, &cz, z, 7, dz, 1.5);
    check_grad(wlse_w, &cw, w, 7, dw, 1.5);
  }
  /* relax in place: the shadow holds the output weights, ends as the gradient */
  {
    double x[10], x0[10], dx[10], seed[10];
    for (int i = 0; i < 10; ++i) { x0[i] = x[i] = cos(0.7 * i); seed[i] = dx[i] = 1 + 0.1 * i; }
    r_relax(x, 10, dx, 10, 5);
    double y[10];
    memcpy(y, x0, sizeof y);
    relax(y, 10, 5);
    for (int i = 0; i < 10; ++i) CHECK_CLOSE(y[i], x[i]);
    struct ctx c = {10, {seed}, {0}};
    check_grad(relax_F, &c, x0, 10, dx, 1.0);
  }
  /* damped oscillator: four Active scalars, dret -0.5 */
  {
    double v[4] = {0.7, -0.2, 4.0, 0.3};
    res5 r = r_osc(v[0], v[1], v[2], v[3], 3000, -0.5);
    CHECK_CLOSE(damped_osc(v[0], v[1], v[2], v[3], 3000), r.primal);
    double g[4] = {r.a, r.b, r.c, r.d};
    check_grad(osc_F, 0, v, 4, g, -0.5);
  }
  /* windows(3) */
  {
    double p[9], dp[9] = {0};
    for (int i = 0; i < 9; ++i) p[i] = sin(0.9 * i) + 0.1 * i * i;
    CHECK_CLOSE(chain_curvature(p, 9), r_curv(p, 9, dp, 9, 1.0));
    struct ctx c = {9, {0}, {0}};
    check_grad(curv_F, &c, p, 9, dp, 1.0);
  }
  /* chunks_exact with an output slice */
  {
    enum { M = 4 };
    double v[M * M + M], dv[M * M + M] = {0}, y[M], dy[M], seed[M] = {0.5, -1, 2, 0.25};
    for (int i = 0; i < M * M + M; ++i) v[i] = sin(1.1 * i + 0.3);
    memcpy(dy, seed, sizeof dy);
    double q = r_quad(v, M * M, dv, M * M, v + M * M, M, dv + M * M, M, y, M, dy, M, 1.0);
    double yy[M];
    CHECK_CLOSE(mat_quad(v, M * M, v + M * M, M, yy, M), q);
    for (int i = 0; i < M; ++i) { CHECK_CLOSE(yy[i], y[i]); CHECK(dy[i] == 0); }
    struct ctx c = {M, {seed}, {0}};
    check_grad(quad_L, &c, v, M * M + M, dv, 1.0);
  }
  /* a Vec collected from an iterator (opt-level 3 only); a Box'd array */
  double z[9] = {0.3, -1.2, 2.5, 0.8, -0.4, 1.9, 0.05, 1.1, 0.7}, dz[9] = {0};
  struct ctx zc = {9, {0}, {0}};
  if (r_ent) {
    CHECK_CLOSE(softmax_entropy(z, 9), r_ent(z, 9, dz, 9, 2.0));
    check_grad(ent_F, &zc, z, 9, dz, 2.0);
  }
  CHECK(r_bins != 0);
  if (r_bins) {
    memset(dz, 0, sizeof dz);
    CHECK_CLOSE(boxed_bins(z, 9), r_bins(z, 9, dz, 9, -1.0));
    check_grad(bins_F, &zc, z, 9, dz, -1.0);
  }
  /* min_by(total_cmp): the minimum's element gets 2 m + 1, the others 1 */
  {
    memset(dz, 0, sizeof dz);
    CHECK_CLOSE(min_total(z, 9), r_mint(z, 9, dz, 9, 0.5));
    check_grad(mint_F, &zc, z, 9, dz, 0.5);
    for (int i = 0; i < 9; ++i) CHECK_CLOSE(0.5 * (i == 1 ? 2 * z[1] + 1 : 1), dz[i]);
  }
  /* copy_from_slice into a stack buffer, then a stencil over it */
  {
    memset(dz, 0, sizeof dz);
    CHECK_CLOSE(copy_stencil(z, 9), r_stencil(z, 9, dz, 9, 1.25));
    check_grad(stencil_F, &zc, z, 9, dz, 1.25);
  }
  /* copy_from_slice between sub-slices of two arguments: the copied
     part of y is overwritten (its shadow ends zero and its adjoint goes
     to x), the rest of y's shadow is incremented */
  {
    double v[11], dv[11] = {0}, y[5], ys[5];
    for (int i = 0; i < 11; ++i) v[i] = cos(0.7 * i + 0.2);
    memcpy(y, v + 6, sizeof y);
    memcpy(ys, v + 6, sizeof ys);
    memcpy(dv + 6, splice_seed, sizeof splice_seed);
    CHECK_CLOSE(splice(v, 6, ys, 5), r_splice(v, 6, dv, 6, y, 5, dv + 6, 5, 1.5));
    for (int i = 0; i < 5; ++i) CHECK_CLOSE(ys[i], y[i]);
    /* y[1..4] is overwritten: no dependence on its old values */
    for (int i = 1; i < 4; ++i) CHECK(dv[6 + i] == 0);
    check_grad(splice_F, &zc, v, 11, dv, 1.5);
  }
  /* slice::reverse in place */
  {
    double v[7], x[7], xs[7], dx[7];
    for (int i = 0; i < 7; ++i) v[i] = 0.3 * i - 0.8;
    memcpy(x, v, sizeof x);
    memcpy(xs, v, sizeof xs);
    memcpy(dx, flip_seed, sizeof dx);
    CHECK_CLOSE(flip(xs, 7), r_flip(x, 7, dx, 7, 0.75));
    for (int i = 0; i < 7; ++i) CHECK_CLOSE(xs[i], x[i]);
    check_grad(flip_F, &zc, v, 7, dx, 0.75);
  }
  /* float-to-integer `as` casts of active values: d/dv = 2 v (k + 1) + u % 3
     (inputs away from the bins' edges) */
  {
    double v[6] = {0.2, -0.55, 1.1, 0.9, -1.4, 0.45}, dv[6] = {0};
    CHECK_CLOSE(binned(v, 6), r_binned(v, 6, dv, 6, 1.25));
    for (int i = 0; i < 6; ++i) {
      double k = floor(v[i] * 3.0), u = (double)((long)(fabs(v[i]) * 2.0) % 3);
      CHECK_CLOSE(1.25 * (2 * v[i] * (k + 1) + u), dv[i]);
    }
  }
  /* &[f64; 4] and &Params in the signature: one pointer each */
  {
    double v[6] = {0.1, 0.7, 0.4, 1.2, 2.5, 0.3}, dv[6] = {0};
    params q = {v[4], v[5]}, dq = {0, 0};
    CHECK_CLOSE(spring4(v, &q), r_spring4(v, dv, &q, &dq, 0.75));
    dv[4] = dq.k;
    dv[5] = dq.c;
    check_grad(spring4_F, &zc, v, 6, dv, 0.75);
  }
  return fd_report();
}
