// Forward mode with `enzyme_dupnoneed`: the caller needs only the tangents
// of an output argument, not its primal values (which are then unspecified
// and not checked). The functions read back what they wrote (a prefix sum,
// a normalization computed in place), so primal values still needed inside
// must be kept. Also dupnoneed on an input-output array, width 2 with
// dupnoneed, and a plain dup output next to a dupnoneed one.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

/* out_0 = x_0^2, out_k = out_{k-1} / 2 + x_k^2 + sin(out_{k-1}). */
void prefix(double *out, const double *x, int n) {
  out[0] = x[0] * x[0];
  for (int k = 1; k < n; ++k)
    out[k] = out[k - 1] * 0.5 + x[k] * x[k] + sin(out[k - 1]);
}

/* In place: v = v / |v|. */
void normalize_inplace(double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * v[i];
  double r = sqrt(s);
  for (int i = 0; i < n; ++i)
    v[i] /= r;
}

/* Two outputs: sums and products of pairs. */
void pairs(double *sum, double *prod, const double *x, int n) {
  for (int i = 0; i + 1 < n; ++i) {
    sum[i] = x[i] + x[i + 1];
    prod[i] = x[i] * x[i + 1];
  }
}

static void prefix_tangent(const double *x, const double *dx, int n,
                           double *out, double *dout) {
  out[0] = x[0] * x[0];
  dout[0] = 2 * x[0] * dx[0];
  for (int k = 1; k < n; ++k) {
    out[k] = out[k - 1] * 0.5 + x[k] * x[k] + sin(out[k - 1]);
    dout[k] = dout[k - 1] * (0.5 + cos(out[k - 1])) + 2 * x[k] * dx[k];
  }
}

struct ctx {
  int n;
};
static void prefix_fd(const double *v, double *out, void *p) {
  prefix(out, v, ((struct ctx *)p)->n);
}

enum { N = 8 };

int main(void) {
  volatile int nv = N;
  int n = nv;
  double x[N], dx[N], dx2[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.2 * cos(1.1 * i);
    dx[i] = 0.5 - 0.1 * i;
    dx2[i] = 0.2 * sin(0.7 * i) + 0.1;
  }
  double ref[N], dref[N], dref2[N], fd[N];
  prefix_tangent(x, dx, n, ref, dref);
  prefix_tangent(x, dx2, n, ref, dref2);
  struct ctx c = {n};
  fd_dir_vec(prefix_fd, &c, x, dx, n, fd, n);
  for (int i = 0; i < n; ++i)
    CHECK_CLOSE(dref[i], fd[i]);

  double out[N], dout[N], dout2[N];
  for (int i = 0; i < N; ++i)
    dout[i] = dout2[i] = -3;
  __enzyme_fwddiff_void((void *)prefix, enzyme_dupnoneed, out, dout,
                        enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; ++i)
    CHECK_CLOSE(dref[i], dout[i]);

  /* Width 2 with dupnoneed. */
  for (int i = 0; i < N; ++i)
    dout[i] = dout2[i] = 9;
  __enzyme_fwddiff_void((void *)prefix, enzyme_width, 2, enzyme_dupnoneed,
                        out, dout, dout2, enzyme_dup, x, dx, dx2,
                        enzyme_const, n);
  for (int i = 0; i < n; ++i) {
    CHECK_CLOSE(dref[i], dout[i]);
    CHECK_CLOSE(dref2[i], dout2[i]);
  }

  /* In place: the array is both input and output. */
  double v[N], dv[N], s = 0, vdv = 0;
  for (int i = 0; i < N; ++i) {
    v[i] = x[i];
    dv[i] = dx[i];
    s += x[i] * x[i];
    vdv += x[i] * dx[i];
  }
  double r = sqrt(s);
  __enzyme_fwddiff_void((void *)normalize_inplace, enzyme_dupnoneed, v, dv,
                        enzyme_const, n);
  for (int i = 0; i < n; ++i)
    CHECK_CLOSE(dx[i] / r - x[i] * vdv / (r * r * r), dv[i]);

  /* A dup output next to a dupnoneed one. */
  double sum[N], dsum[N], prod[N], dprod[N];
  for (int i = 0; i < N; ++i)
    sum[i] = dsum[i] = prod[i] = dprod[i] = 1e3;
  __enzyme_fwddiff_void((void *)pairs, enzyme_dup, sum, dsum, enzyme_dupnoneed,
                        prod, dprod, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i + 1 < n; ++i) {
    CHECK_CLOSE(x[i] + x[i + 1], sum[i]);
    CHECK_CLOSE(dx[i] + dx[i + 1], dsum[i]);
    CHECK_CLOSE(dx[i] * x[i + 1] + x[i] * dx[i + 1], dprod[i]);
  }
  return fd_report();
}
