/*===- bench/reverse_kernels.c - Kernels for the reverse-mode benchmark ---===*
 *
 * Written from the published definitions: ADBench's GMM, LSTM and bundle
 * adjustment objectives (Srajer, Kukelova, Fitzgibbon, "A benchmark of
 * selected algorithmic differentiation tools on some problems in computer
 * vision and machine learning", 2018, and its reference C++ code's
 * formulas), and five small kernels. Each kernel K has a gradient entry
 * point grad_K that requests __enzyme_autodiff of K. Built twice by
 * bench.cmake, see reverse_kernels.h for the variant suffix RK().
 *
 *===----------------------------------------------------------------------===*/
#ifndef RK_VARIANT
#define RK_VARIANT o2
#endif
#include "reverse_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
void __enzyme_autodiff(void *, ...);

/* ---- ADBench GMM ------------------------------------------------------- */

static double arr_max(int n, const double *x) {
  double m = x[0];
  for (int i = 1; i < n; ++i)
    if (m < x[i])
      m = x[i];
  return m;
}

static double sqnorm(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

static double logsumexp_n(int n, const double *x) {
  double mx = arr_max(n, x);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += exp(x[i] - mx);
  return log(s) + mx;
}

static void preprocess_qs(int d, int k, const double *icf, double *sum_qs,
                          double *Qdiags) {
  int icf_sz = d * (d + 1) / 2;
  for (int ik = 0; ik < k; ++ik) {
    sum_qs[ik] = 0;
    for (int id = 0; id < d; ++id) {
      double q = icf[ik * icf_sz + id];
      sum_qs[ik] += q;
      Qdiags[ik * d + id] = exp(q);
    }
  }
}

/* out = Q x, Q lower triangular: diagonal Qdiag, below it ltri by columns. */
static void Qtimesx(int d, const double *Qdiag, const double *ltri,
                    const double *x, double *out) {
  for (int id = 0; id < d; ++id)
    out[id] = Qdiag[id] * x[id];
  int idx = 0;
  for (int i = 0; i < d; ++i)
    for (int j = i + 1; j < d; ++j)
      out[j] += ltri[idx++] * x[i];
}

static double log_gamma_distrib(double a, int p) {
  double out = 0.25 * p * (p - 1) * log(M_PI);
  for (int j = 1; j <= p; ++j)
    out += lgamma(a + 0.5 * (1 - j));
  return out;
}

static double log_wishart_prior(int p, int k, double gamma, int m,
                                const double *sum_qs, const double *Qdiags,
                                const double *icf) {
  int n = p + m + 1;
  int icf_sz = p * (p + 1) / 2;
  double C = n * p * (log(gamma) - 0.5 * log(2)) -
             log_gamma_distrib(0.5 * n, p);
  double out = 0;
  for (int ik = 0; ik < k; ++ik) {
    double frobenius = sqnorm(p, &Qdiags[ik * p]) +
                       sqnorm(icf_sz - p, &icf[ik * icf_sz + p]);
    out += 0.5 * gamma * gamma * frobenius - m * sum_qs[ik];
  }
  return out - k * C;
}

void RK(gmm_objective)(int d, int k, int n, const double *alphas,
                       const double *means, const double *icf,
                       const double *x, double gamma, int m, double *err) {
  const double constant = -n * d * 0.5 * log(2 * M_PI);
  int icf_sz = d * (d + 1) / 2;
  double *Qdiags = malloc(d * k * sizeof(double));
  double *sum_qs = malloc(k * sizeof(double));
  double *xcentered = malloc(d * sizeof(double));
  double *Qxcentered = malloc(d * sizeof(double));
  double *main_term = malloc(k * sizeof(double));

  preprocess_qs(d, k, icf, sum_qs, Qdiags);
  double slse = 0;
  for (int ix = 0; ix < n; ++ix) {
    for (int ik = 0; ik < k; ++ik) {
      for (int id = 0; id < d; ++id)
        xcentered[id] = x[ix * d + id] - means[ik * d + id];
      Qtimesx(d, &Qdiags[ik * d], &icf[ik * icf_sz + d], xcentered,
              Qxcentered);
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(d, Qxcentered);
    }
    slse += logsumexp_n(k, main_term);
  }
  double lse_alphas = logsumexp_n(k, alphas);
  *err = constant + slse - n * lse_alphas +
         log_wishart_prior(d, k, gamma, m, sum_qs, Qdiags, icf);

  free(Qdiags);
  free(sum_qs);
  free(xcentered);
  free(Qxcentered);
  free(main_term);
}

void RK(grad_gmm)(int d, int k, int n, const double *alphas, double *dalphas,
                  const double *means, double *dmeans, const double *icf,
                  double *dicf, const double *x, double gamma, int m) {
  double err = 0, derr = 1;
  __enzyme_autodiff((void *)RK(gmm_objective), enzyme_const, d, enzyme_const,
                    k, enzyme_const, n, enzyme_dup, alphas, dalphas,
                    enzyme_dup, means, dmeans, enzyme_dup, icf, dicf,
                    enzyme_const, x, enzyme_const, gamma, enzyme_const, m,
                    enzyme_dupnoneed, &err, &derr);
}

/* ---- ADBench LSTM ------------------------------------------------------ */

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

/* ADBench's logsumexp for the LSTM: log(sum(exp(v)) + 2). */
static double lstm_logsumexp(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += exp(v[i]);
  s += 2;
  return log(s);
}

static void lstm_model(int hsize, const double *weight, const double *bias,
                       double *hidden, double *cell, const double *input) {
  double *gates = malloc(4 * hsize * sizeof(double));
  double *forget = gates, *ingate = gates + hsize;
  double *outgate = gates + 2 * hsize, *change = gates + 3 * hsize;
  for (int i = 0; i < hsize; ++i) {
    forget[i] = sigmoid(input[i] * weight[i] + bias[i]);
    ingate[i] = sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
    outgate[i] = sigmoid(input[i] * weight[2 * hsize + i] +
                         bias[2 * hsize + i]);
    change[i] = tanh(hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]);
  }
  for (int i = 0; i < hsize; ++i)
    cell[i] = cell[i] * forget[i] + ingate[i] * change[i];
  for (int i = 0; i < hsize; ++i)
    hidden[i] = outgate[i] * tanh(cell[i]);
  free(gates);
}

static void lstm_predict(int l, int b, const double *w, const double *w2,
                         double *s, const double *x, double *x2) {
  for (int i = 0; i < b; ++i)
    x2[i] = x[i] * w2[i];
  double *xp = x2;
  for (int i = 0; i <= 2 * l * b - 1; i += 2 * b) {
    lstm_model(b, &w[i * 4], &w[(i + b) * 4], &s[i], &s[i + b], xp);
    xp = &s[i];
  }
  for (int i = 0; i < b; ++i)
    x2[i] = xp[i] * w2[b + i] + w2[2 * b + i];
}

void RK(lstm_objective)(int l, int c, int b, const double *main_params,
                        const double *extra_params, const double *state,
                        const double *sequence, double *loss) {
  /* ADBench passes the state by value: work on a copy. */
  double *s = malloc(2 * l * b * sizeof(double));
  memcpy(s, state, 2 * l * b * sizeof(double));
  double *ypred = malloc(b * sizeof(double));
  double *ynorm = malloc(b * sizeof(double));
  double total = 0;
  int count = 0;
  const double *input = sequence;
  for (int t = 0; t <= (c - 1) * b - 1; t += b) {
    lstm_predict(l, b, main_params, extra_params, s, input, ypred);
    double lse = lstm_logsumexp(ypred, b);
    for (int i = 0; i < b; ++i)
      ynorm[i] = ypred[i] - lse;
    const double *ygold = &sequence[t + b];
    for (int i = 0; i < b; ++i)
      total += ygold[i] * ynorm[i];
    count += b;
    input = ygold;
  }
  *loss = -total / count;
  free(s);
  free(ypred);
  free(ynorm);
}

void RK(grad_lstm)(int l, int c, int b, const double *main_params,
                   double *dmain, const double *extra_params, double *dextra,
                   const double *state, const double *sequence) {
  double loss = 0, dloss = 1;
  __enzyme_autodiff((void *)RK(lstm_objective), enzyme_const, l, enzyme_const,
                    c, enzyme_const, b, enzyme_dup, main_params, dmain,
                    enzyme_dup, extra_params, dextra, enzyme_const, state,
                    enzyme_const, sequence, enzyme_dupnoneed, &loss, &dloss);
}

/* ---- ADBench bundle adjustment ----------------------------------------- */

static void cross3(const double *a, const double *b, double *out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static void rodrigues_rotate_point(const double *rot, const double *X,
                                   double *rotatedX) {
  double sqtheta = sqnorm(3, rot);
  if (sqtheta != 0) {
    double theta = sqrt(sqtheta);
    double costheta = cos(theta), sintheta = sin(theta);
    double theta_inverse = 1.0 / theta;
    double w[3], w_cross_X[3];
    for (int i = 0; i < 3; ++i)
      w[i] = rot[i] * theta_inverse;
    cross3(w, X, w_cross_X);
    double tmp = (1 - costheta) * (w[0] * X[0] + w[1] * X[1] + w[2] * X[2]);
    for (int i = 0; i < 3; ++i)
      rotatedX[i] = X[i] * costheta + w_cross_X[i] * sintheta + w[i] * tmp;
  } else {
    double rot_cross_X[3];
    cross3(rot, X, rot_cross_X);
    for (int i = 0; i < 3; ++i)
      rotatedX[i] = X[i] + rot_cross_X[i];
  }
}

static void radial_distort(const double *rad_params, double *proj) {
  double rsq = sqnorm(2, proj);
  double L = 1 + rad_params[0] * rsq + rad_params[1] * rsq * rsq;
  proj[0] *= L;
  proj[1] *= L;
}

static void project(const double *cam, const double *X, double *proj) {
  const double *C = &cam[3];
  double Xo[3], Xcam[3];
  for (int i = 0; i < 3; ++i)
    Xo[i] = X[i] - C[i];
  rodrigues_rotate_point(&cam[0], Xo, Xcam);
  proj[0] = Xcam[0] / Xcam[2];
  proj[1] = Xcam[1] / Xcam[2];
  radial_distort(&cam[9], proj);
  proj[0] = proj[0] * cam[6] + cam[7];
  proj[1] = proj[1] * cam[6] + cam[8];
}

void RK(ba_reproj)(const double *cam, const double *X, const double *w,
                   const double *feat, double *err) {
  double proj[2];
  project(cam, X, proj);
  err[0] = *w * (proj[0] - feat[0]);
  err[1] = *w * (proj[1] - feat[1]);
}

void RK(ba_objective)(int p, const double *cams, const double *X,
                      const double *w, const int *obs, const double *feats,
                      double *err) {
  for (int i = 0; i < p; ++i)
    RK(ba_reproj)(&cams[obs[2 * i] * RK_BA_CAM], &X[obs[2 * i + 1] * 3],
                  &w[i], &feats[2 * i], &err[2 * i]);
}

void RK(grad_ba)(int p, const double *cams, const double *X, const double *w,
                 const int *obs, const double *feats, const double *derr,
                 double *J) {
  for (int i = 0; i < p; ++i) {
    double *g = &J[15 * i];
    double err[2], seed[2] = {derr[0], derr[1]};
    memset(g, 0, 15 * sizeof(double));
    __enzyme_autodiff((void *)RK(ba_reproj), enzyme_dup,
                      &cams[obs[2 * i] * RK_BA_CAM], g, enzyme_dup,
                      &X[obs[2 * i + 1] * 3], g + RK_BA_CAM, enzyme_dup,
                      &w[i], g + 14, enzyme_const, &feats[2 * i],
                      enzyme_dupnoneed, err, seed);
  }
}

/* ---- Vector normalization ---------------------------------------------- */

void RK(normalize)(double *out, const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += x[i] * x[i];
  double norm = sqrt(s);
  for (long i = 0; i < n; ++i)
    out[i] = x[i] / norm;
}

void RK(grad_normalize)(double *out, double *dout, const double *x,
                        double *dx, const double *w, long n) {
  memcpy(dout, w, n * sizeof(double)); /* the seed, consumed by the call */
  __enzyme_autodiff((void *)RK(normalize), enzyme_dup, out, dout, enzyme_dup,
                    x, dx, enzyme_const, n);
}

/* ---- RK4 on a spring chain --------------------------------------------- */

/* dy = f(y): unit masses, spring j between mass j-1 and j (the walls are
 * masses -1 and RK_CHAIN, at rest), force k (e + 0.1 e^3) for extension e. */
static void chain_rhs(const double *y, const double *ks, double *dy) {
  enum { N = RK_CHAIN };
  for (int i = 0; i < N; ++i)
    dy[i] = y[N + i];
  for (int i = 0; i < N; ++i) {
    double left = i == 0 ? 0 : y[i - 1];
    double right = i == N - 1 ? 0 : y[i + 1];
    double e1 = y[i] - left, e2 = right - y[i];
    dy[N + i] = -ks[i] * (e1 + 0.1 * e1 * e1 * e1) +
                ks[i + 1] * (e2 + 0.1 * e2 * e2 * e2);
  }
}

static double chain_energy(const double *y, const double *ks) {
  enum { N = RK_CHAIN };
  double e = 0;
  for (int i = 0; i < N; ++i)
    e += 0.5 * y[N + i] * y[N + i];
  for (int j = 0; j <= N; ++j) {
    double a = j == 0 ? 0 : y[j - 1], b = j == N ? 0 : y[j];
    double ext = b - a;
    e += ks[j] * (0.5 * ext * ext + 0.025 * ext * ext * ext * ext);
  }
  return e;
}

double RK(rk4_chain)(const double *y0, const double *ks, long steps,
                     double dt) {
  enum { S = 2 * RK_CHAIN };
  double y[S], k1[S], k2[S], k3[S], k4[S], tmp[S];
  memcpy(y, y0, sizeof y);
  for (long s = 0; s < steps; ++s) {
    chain_rhs(y, ks, k1);
    for (int i = 0; i < S; ++i)
      tmp[i] = y[i] + 0.5 * dt * k1[i];
    chain_rhs(tmp, ks, k2);
    for (int i = 0; i < S; ++i)
      tmp[i] = y[i] + 0.5 * dt * k2[i];
    chain_rhs(tmp, ks, k3);
    for (int i = 0; i < S; ++i)
      tmp[i] = y[i] + dt * k3[i];
    chain_rhs(tmp, ks, k4);
    for (int i = 0; i < S; ++i)
      y[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return chain_energy(y, ks);
}

void RK(grad_rk4_chain)(const double *y0, double *dy0, const double *ks,
                        double *dks, long steps, double dt) {
  __enzyme_autodiff((void *)RK(rk4_chain), enzyme_dup, y0, dy0, enzyme_dup,
                    ks, dks, enzyme_const, steps, enzyme_const, dt);
}

/* ---- A small MLP over a batch ------------------------------------------ */

double RK(mlp_loss)(const double *W1, const double *b1, const double *W2,
                    const double *b2, const double *X, const double *Y,
                    long batch) {
  enum { I = RK_MLP_IN, H = RK_MLP_HID, O = RK_MLP_OUT };
  double loss = 0;
  for (long s = 0; s < batch; ++s) {
    const double *x = &X[s * I];
    double h[H];
    for (int j = 0; j < H; ++j) {
      double a = b1[j];
      for (int i = 0; i < I; ++i)
        a += W1[j * I + i] * x[i];
      h[j] = tanh(a);
    }
    for (int o = 0; o < O; ++o) {
      double z = b2[o];
      for (int j = 0; j < H; ++j)
        z += W2[o * H + j] * h[j];
      double r = z - Y[s * O + o];
      loss += r * r;
    }
  }
  return loss / batch;
}

void RK(grad_mlp)(const double *W1, double *dW1, const double *b1,
                  double *db1, const double *W2, double *dW2,
                  const double *b2, double *db2, const double *X,
                  const double *Y, long batch) {
  __enzyme_autodiff((void *)RK(mlp_loss), enzyme_dup, W1, dW1, enzyme_dup, b1,
                    db1, enzyme_dup, W2, dW2, enzyme_dup, b2, db2,
                    enzyme_const, X, enzyme_const, Y, enzyme_const, batch);
}

/* ---- logsumexp --------------------------------------------------------- */

double RK(logsumexp)(const double *x, long n) {
  double mx = x[0];
  for (long i = 1; i < n; ++i)
    mx = x[i] > mx ? x[i] : mx;
  double s = 0;
  for (long i = 0; i < n; ++i)
    s += exp(x[i] - mx);
  return mx + log(s);
}

void RK(grad_logsumexp)(const double *x, double *dx, long n) {
  __enzyme_autodiff((void *)RK(logsumexp), enzyme_dup, x, dx, enzyme_const,
                    n);
}

/* ---- Nonlinear diffusion ----------------------------------------------- */

/* Conductivity of the face between two cells. */
static double conductivity(double a, double b) {
  return 1.0 / (1.0 + 0.5 * (a * a + b * b));
}

double RK(diffusion)(const double *u0, const double *w, double *u,
                     double *tmp, long n, long steps) {
  const double dt = 0.2;
  memcpy(u, u0, n * n * sizeof(double));
  memcpy(tmp, u0, n * n * sizeof(double)); /* the border stays fixed */
  for (long s = 0; s < steps; ++s) {
    for (long i = 1; i + 1 < n; ++i)
      for (long j = 1; j + 1 < n; ++j) {
        long k = i * n + j;
        double c = u[k];
        double e = u[k + 1], wst = u[k - 1], no = u[k - n], so = u[k + n];
        double flux = conductivity(c, e) * (e - c) -
                      conductivity(wst, c) * (c - wst) +
                      conductivity(c, so) * (so - c) -
                      conductivity(no, c) * (c - no);
        tmp[k] = c + dt * flux;
      }
    double *t = u;
    u = tmp;
    tmp = t;
  }
  double r = 0;
  for (long k = 0; k < n * n; ++k)
    r += w[k] * u[k];
  return r;
}

void RK(grad_diffusion)(const double *u0, double *du0, const double *w,
                        double *u, double *du, double *tmp, double *dtmp,
                        long n, long steps) {
  __enzyme_autodiff((void *)RK(diffusion), enzyme_dup, u0, du0, enzyme_const,
                    w, enzyme_dup, u, du, enzyme_dup, tmp, dtmp, enzyme_const,
                    n, enzyme_const, steps);
}
