/*===- bench/reverse_kernels.h - Reverse-mode benchmark kernels -*- C -*-===*
 *
 * reverse_kernels.c is built three times (see bench_reverse.cmake): variant
 * `o2` is clang -O2 IR differentiated and then optimized, variant `o0` is
 * clang -O0 IR (without optnone) differentiated and then optimized, variant
 * `nf` is `o2` without fast-math flags on the derivative arithmetic. Every exported
 * name carries the variant as a suffix, RK(gmm_objective) being
 * gmm_objective_o2 or gmm_objective_o0, so both objects link into one
 * program. This header declares the names of the variant RK_VARIANT names
 * and has no include guard for them: bench_reverse.cpp includes it once per
 * variant.
 *
 * K is the primal; grad_K runs __enzyme_autodiff of K (forward and reverse
 * sweeps) and adds the gradient into the shadow arguments d*, which the
 * caller zeroes first. Kernels that return a double are differentiated with
 * the seed 1.0.
 *
 *===----------------------------------------------------------------------===*/
#ifndef AUTODIFF_BENCH_REVERSE_KERNELS_MACROS
#define AUTODIFF_BENCH_REVERSE_KERNELS_MACROS
#define RK_PASTE(a, b) a##_##b
#define RK_NAME(a, b) RK_PASTE(a, b)
#define RK(name) RK_NAME(name, RK_VARIANT)

/* Fixed sizes of the kernels that keep buffers on the stack. */
enum {
  RK_CHAIN = 16,   /* masses in the spring chain (state: 2 * RK_CHAIN) */
  RK_MLP_IN = 32,  /* MLP input width */
  RK_MLP_HID = 64, /* MLP hidden width */
  RK_MLP_OUT = 10, /* MLP output width */
  RK_BA_CAM = 11   /* BA camera: rotation 3, centre 3, focal 1, x0 2, rad 2 */
};
#endif

#ifndef RK_VARIANT
#error "define RK_VARIANT (o2, o0 or nf) before including reverse_kernels.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ADBench GMM: alphas[k], means[k*d], icf[k*d*(d+1)/2], x[n*d]; the
 * Wishart prior has parameters gamma and m. */
void RK(gmm_objective)(int d, int k, int n, const double *alphas,
                       const double *means, const double *icf,
                       const double *x, double gamma, int m, double *err);
void RK(grad_gmm)(int d, int k, int n, const double *alphas, double *dalphas,
                  const double *means, double *dmeans, const double *icf,
                  double *dicf, const double *x, double gamma, int m);

/* ADBench LSTM: l layers, c characters of b values; main[8*l*b],
 * extra[3*b], state[2*l*b] (copied, not modified), seq[c*b]. */
void RK(lstm_objective)(int l, int c, int b, const double *main_params,
                        const double *extra_params, const double *state,
                        const double *sequence, double *loss);
void RK(grad_lstm)(int l, int c, int b, const double *main_params,
                   double *dmain, const double *extra_params, double *dextra,
                   const double *state, const double *sequence);

/* ADBench BA reprojection error of one observation: err[2]. */
void RK(ba_reproj)(const double *cam, const double *X, const double *w,
                   const double *feat, double *err);
/* All observations: obs[2*p] holds (camera, point) indices. */
void RK(ba_objective)(int p, const double *cams, const double *X,
                      const double *w, const int *obs, const double *feats,
                      double *err);
/* One gradient of derr . err per observation i, w.r.t. its camera, point
 * and weight, written to J[15*i ...] (camera 11, point 3, weight 1). */
void RK(grad_ba)(int p, const double *cams, const double *X, const double *w,
                 const int *obs, const double *feats, const double *derr,
                 double *J);

/* out = x / ||x||; grad: dx += d(w . out)/dx. */
void RK(normalize)(double *out, const double *x, long n);
void RK(grad_normalize)(double *out, double *dout, const double *x,
                        double *dx, const double *w, long n);

/* RK4 on a chain of RK_CHAIN unit masses with cubic springs between fixed
 * walls: y0[2*RK_CHAIN] (positions, velocities), ks[RK_CHAIN + 1]; returns
 * the energy after `steps` steps of size dt. */
double RK(rk4_chain)(const double *y0, const double *ks, long steps,
                     double dt);
void RK(grad_rk4_chain)(const double *y0, double *dy0, const double *ks,
                        double *dks, long steps, double dt);

/* Two-layer tanh MLP over a batch, squared loss (mean over the batch). */
double RK(mlp_loss)(const double *W1, const double *b1, const double *W2,
                    const double *b2, const double *X, const double *Y,
                    long batch);
void RK(grad_mlp)(const double *W1, double *dW1, const double *b1,
                  double *db1, const double *W2, double *dW2,
                  const double *b2, double *db2, const double *X,
                  const double *Y, long batch);

/* log(sum(exp(x))) */
double RK(logsumexp)(const double *x, long n);
void RK(grad_logsumexp)(const double *x, double *dx, long n);

/* Nonlinear diffusion: u <- u0, `steps` explicit steps on an n x n grid
 * (the border fixed), through the work buffers u and tmp (n*n each);
 * returns w . u_final. */
double RK(diffusion)(const double *u0, const double *w, double *u,
                     double *tmp, long n, long steps);
void RK(grad_diffusion)(const double *u0, double *du0, const double *w,
                        double *u, double *du, double *tmp, double *dtmp,
                        long n, long steps);

#ifdef __cplusplus
}
#endif
