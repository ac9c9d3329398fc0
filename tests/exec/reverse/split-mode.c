// Split reverse mode, as Enzyme's C interface offers it: __enzyme_augmentfwd
// runs the primal (its side effects happen there, once) and returns a tape;
// __enzyme_reverse, called later with the same arguments (and the
// differential return), runs the reverse sweep and frees the tape. Several
// tapes live at once and reversed in any order; seeds written into output
// shadows between the calls; the caller overwriting the inputs between the
// two calls (the tape must hold what the reverse sweep needs); a loop with
// a data-dependent trip count; the caller-provided tape form
// (__enzyme_augmentsize, enzyme_allocated, enzyme_tape). Gradients against
// finite differences and against the combined __enzyme_autodiff.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <string.h>

extern int enzyme_allocated, enzyme_tape;
void *__enzyme_augmentfwd(void *, ...);
double __enzyme_augmentfwd_value(void *, ...);
typedef struct { void *tape; double primal; } tape_and_primal;
tape_and_primal __enzyme_augmentfwd_both(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_reverse_out(void *, ...);
long __enzyme_augmentsize(void *, ...);

enum { N = 5 };

/* Writes out[i] from x; a void function: the tape only. */
void layer(const double *x, double *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = sin(x[i]) * x[(i + 1) % n] + exp(0.3 * x[i]);
}

/* Returns a value; reads x in a loop whose trip count depends on data. */
double newton_sqrt_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = x[i];
    while (fabs(r * r - x[i]) > 1e-12 * x[i]) r = 0.5 * (r + x[i] / r);
    s += r * x[i];
  }
  return s;
}

/* An active scalar argument: its gradient is returned by __enzyme_reverse. */
double scaled_norm(const double *x, double a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += a * x[i] * x[i];
  return sqrt(s);
}

static double layer_fd(const double *x, void *c) {
  const double *w = c;
  double out[N];
  layer(x, out, N);
  double s = 0;
  for (int i = 0; i < N; ++i) s += w[i] * out[i];
  return s;
}
static double newton_fd(const double *x, void *c) { (void)c; return newton_sqrt_sum(x, N); }
static double norm_fd(const double *x, void *c) { return scaled_norm(x, *(double *)c, N); }
static double norm_a_fd(const double *a, void *c) { return scaled_norm(c, a[0], N); }

int main(void) {
  const double x0[N] = {0.7, 1.3, 0.4, 0.9, 1.1};
  const double w[N] = {1.0, -0.5, 2.0, 0.25, 1.5};

  /* Two tapes of a void function live at once, reversed in the opposite
     order; the seeds are written after the forward calls, and the inputs
     are overwritten in between. */
  double xa[N], xb[N], dxa[N] = {0}, dxb[N] = {0}, oa[N], ob[N], doa[N], dob[N];
  memcpy(xa, x0, sizeof xa);
  for (int i = 0; i < N; ++i) xb[i] = x0[i] * 1.1;
  void *ta = __enzyme_augmentfwd((void *)layer, enzyme_dup, xa, dxa, enzyme_dup, oa, doa,
                                 enzyme_const, N);
  void *tb = __enzyme_augmentfwd((void *)layer, enzyme_dup, xb, dxb, enzyme_dup, ob, dob,
                                 enzyme_const, N);
  double ref[N];
  layer(x0, ref, N);
  for (int i = 0; i < N; ++i) CHECK_CLOSE(ref[i], oa[i]); /* the primal ran */
  for (int i = 0; i < N; ++i) { doa[i] = w[i]; dob[i] = 2 * w[i]; }
  for (int i = 0; i < N; ++i) xa[i] = xb[i] = -7.0; /* the tape must not need them */
  __enzyme_reverse((void *)layer, enzyme_dup, xb, dxb, enzyme_dup, ob, dob, enzyme_const, N, tb);
  __enzyme_reverse((void *)layer, enzyme_dup, xa, dxa, enzyme_dup, oa, doa, enzyme_const, N, ta);
  CHECK_GRADIENT(layer_fd, (void *)w, x0, N, dxa);
  double xb0[N], w2[N];
  for (int i = 0; i < N; ++i) { xb0[i] = x0[i] * 1.1; w2[i] = 2 * w[i]; }
  CHECK_GRADIENT(layer_fd, (void *)w2, xb0, N, dxb);
  for (int i = 0; i < N; ++i) CHECK(doa[i] == 0.0); /* consumed */

  /* A function with a result: {tape, primal}, the differential return
     given to __enzyme_reverse. */
  double x[N], dx[N] = {0};
  memcpy(x, x0, sizeof x);
  tape_and_primal tp = __enzyme_augmentfwd_both((void *)newton_sqrt_sum, enzyme_dup, x, dx,
                                                enzyme_const, N);
  CHECK_CLOSE(newton_sqrt_sum(x0, N), tp.primal);
  x[0] = 100.0; /* overwritten between the calls */
  __enzyme_reverse((void *)newton_sqrt_sum, enzyme_dup, x, dx, enzyme_const, N, 1.0, tp.tape);
  CHECK_GRADIENT(newton_fd, 0, x0, N, dx);

  /* The caller-provided tape, and an active scalar. */
  long bytes = __enzyme_augmentsize((void *)scaled_norm, enzyme_dup, enzyme_out, enzyme_const);
  CHECK(bytes > 0 && bytes <= 256);
  /* The tape itself goes into the buffer, from an address that is not
     aligned for it (the size leaves room to align it). */
  char storage[257], *buf = storage + 1;
  memset(storage, 0x5a, sizeof storage);
  double a = 0.8;
  memcpy(x, x0, sizeof x);
  for (int i = 0; i < N; ++i) dx[i] = 0;
  double v = __enzyme_augmentfwd_value((void *)scaled_norm, enzyme_allocated, bytes, enzyme_tape,
                                       buf, enzyme_dup, x, dx, enzyme_out, a, enzyme_const, N);
  CHECK_CLOSE(scaled_norm(x0, a, N), v);
  double da = __enzyme_reverse_out((void *)scaled_norm, enzyme_allocated, bytes, enzyme_tape, buf,
                                   enzyme_dup, x, dx, enzyme_out, a, enzyme_const, N, 0.5);
  for (int i = 0; i < N; ++i) dx[i] *= 2; /* the seed was 0.5 */
  CHECK_GRADIENT(norm_fd, &a, x0, N, dx);
  double g[1] = {2 * da}, a0[1] = {a};
  CHECK_GRADIENT(norm_a_fd, (void *)x0, a0, 1, g);

  /* Against the combined derivative, bit for bit. */
  double dxc[N] = {0}, dxs[N] = {0};
  double dac = __enzyme_autodiff((void *)scaled_norm, enzyme_dup, x0, dxc, enzyme_out, a,
                                 enzyme_const, N);
  void *t = __enzyme_augmentfwd((void *)scaled_norm, enzyme_dup, x0, dxs, enzyme_out, a,
                                enzyme_const, N);
  double das = __enzyme_reverse_out((void *)scaled_norm, enzyme_dup, x0, dxs, enzyme_out, a,
                                    enzyme_const, N, 1.0, t);
  CHECK_CLOSE_TOL(dac, das, 1e-14, 0);
  for (int i = 0; i < N; ++i) CHECK_CLOSE_TOL(dxc[i], dxs[i], 1e-14, 0);
  return fd_report();
}
