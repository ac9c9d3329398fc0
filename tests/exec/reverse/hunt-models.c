// Reverse mode on small scientific models: a Lotka-Volterra system
// integrated by explicit Euler over 5000 steps, state updated in place and
// the four rates as enzyme_out results; a 1-D heat equation whose two
// buffers are swapped each step (tmp = a; a = b; b = tmp); a 3-layer MLP
// whose layer loop switches its input pointer from the input array to the
// previous layer's output; the negative log-likelihood of a 1-D Gaussian
// mixture through logsumexp (means, log-sigmas and logits active).
// Checked against finite differences.
// RUN: sh %testlib/run-c.sh %s
// RUN: env ADTEST_LEVELS=3 sh %testlib/run-c.sh %s -march=native

#include <string.h>

#include "enzyme.h"
#include "fdcheck.h"

typedef struct { double a, b, c, d; } four;
four __enzyme_autodiff_four(void *, ...);

/* prey u, predator v; returns the final prey + 2 * predator */
double lotka(double *state, double alpha, double beta, double delta, double gamma,
             int steps) {
  const double dt = 2e-3;
  for (int s = 0; s < steps; ++s) {
    double u = state[0], v = state[1];
    state[0] = u + dt * (alpha * u - beta * u * v);
    state[1] = v + dt * (delta * u * v - gamma * v);
  }
  return state[0] + 2 * state[1];
}
/* explicit heat equation, fixed ends, n <= 64, returns sum u^2 at the end */
double heat(const double *u0, int n, double kappa, int steps) {
  double a[64], b[64];
  memcpy(a, u0, n * sizeof(double));
  double *cur = a, *nxt = b;
  for (int s = 0; s < steps; ++s) {
    nxt[0] = cur[0];
    nxt[n - 1] = cur[n - 1];
    for (int i = 1; i < n - 1; ++i)
      nxt[i] = cur[i] + kappa * (cur[i - 1] - 2 * cur[i] + cur[i + 1]);
    double *tmp = cur;
    cur = nxt;
    nxt = tmp;
  }
  double e = 0;
  for (int i = 0; i < n; ++i) e += cur[i] * cur[i];
  return e;
}
/* MLP: widths w[0..L], weights packed W (row-major per layer) then biases */
enum { MAXW = 16 };
double mlp(const double *x, const double *params, const int *w, int L, double target) {
  double buf[2][MAXW];
  const double *in = x;
  const double *p = params;
  for (int l = 0; l < L; ++l) {
    double *out = buf[l & 1];
    const double *W = p, *bias = p + w[l] * w[l + 1];
    for (int j = 0; j < w[l + 1]; ++j) {
      double z = bias[j];
      for (int i = 0; i < w[l]; ++i) z += W[j * w[l] + i] * in[i];
      out[j] = l + 1 < L ? tanh(z) : z;
    }
    p += w[l] * w[l + 1] + w[l + 1];
    in = out;
  }
  double loss = 0;
  for (int j = 0; j < w[L]; ++j) loss += (in[j] - target) * (in[j] - target);
  return 0.5 * loss;
}
/* GMM NLL: theta = [mu_k, logsig_k, logit_k] for k < K */
double gmm_nll(const double *theta, int K, const double *data, int n) {
  const double *mu = theta, *ls = theta + K, *lg = theta + 2 * K;
  double mx = lg[0];
  for (int k = 1; k < K; ++k) mx = fmax(mx, lg[k]);
  double z = 0;
  for (int k = 0; k < K; ++k) z += exp(lg[k] - mx);
  double logZ = mx + log(z);
  double nll = 0;
  for (int i = 0; i < n; ++i) {
    double t[8], m = -INFINITY;
    for (int k = 0; k < K; ++k) {
      double r = (data[i] - mu[k]) * exp(-ls[k]);
      t[k] = lg[k] - logZ - ls[k] - 0.5 * r * r - 0.918938533204672742;
      if (t[k] > m) m = t[k];
    }
    double s = 0;
    for (int k = 0; k < K; ++k) s += exp(t[k] - m);
    nll -= m + log(s);
  }
  return nll / n;
}

struct ctx { int n, m; double a; const void *p; const int *w; };
static double lotka_S(const double *v, void *p) {
  struct ctx *c = p; double st[2] = {v[0], v[1]};
  return lotka(st, v[2], v[3], v[4], v[5], c->n);
}
static double heat_F(const double *v, void *p) {
  struct ctx *c = p; return heat(v, c->n, c->a, c->m);
}
static double mlp_P(const double *v, void *p) {
  struct ctx *c = p; return mlp(c->p, v, c->w, 3, c->a);
}
static double gmm_F(const double *v, void *p) {
  struct ctx *c = p; return gmm_nll(v, c->m, c->p, c->n);
}
static void check_grad(double (*F)(const double *, void *), void *ctx,
                       const double *x, int n, const double *got, double rtol) {
  for (int i = 0; i < n; ++i) {
    double e[256] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(F, ctx, x, e, n), got[i], rtol, 1e-8);
  }
}

int main(void) {
  /* Lotka-Volterra */
  {
    double st[2] = {1.2, 0.8}, dst[2] = {0, 0};
    const double prm[4] = {1.1, 0.4, 0.3, 0.9};
    /* the return is seeded with 1; the state's shadow starts at zero */
    four g = __enzyme_autodiff_four((void *)lotka, enzyme_dup, st, dst, prm[0],
                                    prm[1], prm[2], prm[3], enzyme_const, 5000);
    double all[6] = {1.2, 0.8, prm[0], prm[1], prm[2], prm[3]};
    double got[6] = {dst[0], dst[1], g.a, g.b, g.c, g.d};
    struct ctx c = {5000, 0, 0, 0, 0};
    check_grad(lotka_S, &c, all, 6, got, 1e-6);
    double s2[2] = {1.2, 0.8};
    lotka(s2, prm[0], prm[1], prm[2], prm[3], 5000);
    CHECK_CLOSE(s2[0], st[0]);
    CHECK_CLOSE(s2[1], st[1]);
  }
  /* heat equation with swapped buffers, odd and even step counts */
  for (int steps = 7; steps <= 8; ++steps) {
    double u0[20], du0[20] = {0};
    for (int i = 0; i < 20; ++i) u0[i] = sin(3.14159 * i / 19) + 0.2 * cos(0.8 * i);
    double dk = __enzyme_autodiff((void *)heat, enzyme_dup, u0, du0, enzyme_const, 20,
                                  0.3, enzyme_const, steps);
    struct ctx c = {20, steps, 0.3, 0, 0};
    check_grad(heat_F, &c, u0, 20, du0, 1e-6);
    double h = 1e-6;
    CHECK_CLOSE_TOL((heat(u0, 20, 0.3 + h, steps) - heat(u0, 20, 0.3 - h, steps)) / (2 * h),
                    dk, 1e-6, 1e-8);
  }
  /* MLP 5 -> 7 -> 6 -> 2 */
  {
    int w[4] = {5, 7, 6, 2};
    int np = 5 * 7 + 7 + 7 * 6 + 6 + 6 * 2 + 2;
    double params[256], dparams[256] = {0}, x[5] = {0.5, -1.0, 0.25, 0.8, -0.3}, dx[5] = {0};
    for (int i = 0; i < np; ++i) params[i] = 0.6 * sin(1.3 * i + 0.4);
    double dt = __enzyme_autodiff((void *)mlp, enzyme_dup, x, dx, enzyme_dup, params,
                                  dparams, enzyme_const, w, enzyme_const, 3, 0.7);
    struct ctx mc = {0, 0, 0.7, x, w};
    check_grad(mlp_P, &mc, params, np, dparams, 1e-6);
    double h = 1e-6;
    CHECK_CLOSE_TOL((mlp(x, params, w, 3, 0.7 + h) - mlp(x, params, w, 3, 0.7 - h)) / (2 * h),
                    dt, 1e-6, 1e-8);
    for (int i = 0; i < 5; ++i) {
      double xp[5], xm[5];
      memcpy(xp, x, sizeof xp); memcpy(xm, x, sizeof xm);
      double hh = fd_step(x[i], 1e-5);
      xp[i] += hh; xm[i] -= hh;
      CHECK_CLOSE_TOL((mlp(xp, params, w, 3, 0.7) - mlp(xm, params, w, 3, 0.7)) / (2 * hh),
                      dx[i], 1e-5, 1e-8);
    }
  }
  /* GMM */
  {
    double data[30];
    for (int i = 0; i < 30; ++i) data[i] = 2.0 * sin(0.77 * i) + 0.5 * cos(2.1 * i);
    double th[9] = {-1.0, 0.2, 1.5, -0.3, 0.1, -0.6, 0.4, -0.2, 0.9}, dth[9] = {0};
    __enzyme_autodiff((void *)gmm_nll, enzyme_dup, th, dth, enzyme_const, 3,
                      enzyme_const, data, enzyme_const, 30);
    struct ctx c = {30, 3, 0, data, 0};
    check_grad(gmm_F, &c, th, 9, dth, 1e-6);
  }
  return fd_report();
}
