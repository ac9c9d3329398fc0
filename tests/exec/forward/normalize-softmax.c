// Forward mode of functions that write an output array: normalization
// (out = x / |x|) and a numerically stable softmax (with a data-dependent
// max). The output shadow is prefilled with garbage and must come back
// holding exactly the tangents; the primal output must be computed too.
// RUN: sh %testlib/run-c.sh %s
// RUN: sh %testlib/run-c.sh %s -DFD_REAL=float

#include "enzyme.h"
#include "fdcheck.h"

#if FD_REAL_IS_DOUBLE
#define SQRT sqrt
#define EXP exp
#else
#define SQRT sqrtf
#define EXP expf
#endif

void normalize(real *out, const real *x, int n) {
  real s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  real norm = SQRT(s);
  for (int i = 0; i < n; ++i)
    out[i] = x[i] / norm;
}

void softmax(real *out, const real *x, int n) {
  real m = x[0];
  for (int i = 1; i < n; ++i)
    if (x[i] > m)
      m = x[i];
  real z = 0;
  for (int i = 0; i < n; ++i) {
    out[i] = EXP(x[i] - m);
    z += out[i];
  }
  for (int i = 0; i < n; ++i)
    out[i] /= z;
}

enum { NMAX = 40 };
static volatile int lengths[] = {13, 1, 40, 4};

struct ctx {
  int n;
  void (*f)(real *, const real *, int);
};
static void vec_fd(const double *v, double *out, void *p) {
  struct ctx *c = (struct ctx *)p;
  real x[NMAX], o[NMAX];
  for (int i = 0; i < c->n; ++i)
    x[i] = (real)v[i];
  c->f(o, x, c->n);
  for (int i = 0; i < c->n; ++i)
    out[i] = o[i];
}

int main(void) {
  for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
    int n = lengths[k];
    real x[NMAX], dx[NMAX], out[NMAX], dout[NMAX], ref[NMAX];
    double xd[NMAX], dxd[NMAX], fd[NMAX], an[NMAX];
    for (int i = 0; i < n; ++i) {
      x[i] = (real)(1.1 * sin(0.7 * i + 0.3) + 0.05 * i);
      dx[i] = (real)(0.4 - 0.9 * cos(1.3 * i));
      xd[i] = x[i];
      dxd[i] = dx[i];
    }

    /* normalize: dout = dx / r - x (x.dx) / r^3. */
    double s = 0, xdx = 0;
    for (int i = 0; i < n; ++i) {
      s += (double)x[i] * x[i];
      xdx += (double)x[i] * dx[i];
    }
    double r = sqrt(s);
    for (int i = 0; i < n; ++i)
      an[i] = dx[i] / r - x[i] * xdx / (r * r * r);
    struct ctx cn = {n, normalize};
    fd_dir_vec(vec_fd, &cn, xd, dxd, n, fd, n);
    for (int i = 0; i < n; ++i)
      CHECK_CLOSE(an[i], fd[i]);

    normalize(ref, x, n);
    for (int i = 0; i < n; ++i) {
      out[i] = -77;
      dout[i] = 1234.5;
    }
    __enzyme_fwddiff_void((void *)normalize, enzyme_dup, out, dout,
                          enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < n; ++i) {
      CHECK_CLOSE(ref[i], out[i]);
      CHECK_CLOSE(an[i], dout[i]);
    }
    /* Default rules: pointers dup, the int const. */
    for (int i = 0; i < n; ++i)
      dout[i] = -1;
    __enzyme_fwddiff_void((void *)normalize, out, dout, x, dx, n);
    for (int i = 0; i < n; ++i)
      CHECK_CLOSE(an[i], dout[i]);

    /* softmax: dout_i = s_i (dx_i - s.dx). */
    softmax(ref, x, n);
    double sdx = 0;
    for (int i = 0; i < n; ++i)
      sdx += (double)ref[i] * dx[i];
    for (int i = 0; i < n; ++i)
      an[i] = ref[i] * (dx[i] - sdx);
    struct ctx cs = {n, softmax};
    fd_dir_vec(vec_fd, &cs, xd, dxd, n, fd, n);
    for (int i = 0; i < n; ++i)
      CHECK_CLOSE(an[i], fd[i]);
    for (int i = 0; i < n; ++i) {
      out[i] = 99;
      dout[i] = 4321;
    }
    __enzyme_fwddiff_void((void *)softmax, enzyme_dup, out, dout, enzyme_dup,
                          x, dx, enzyme_const, n);
    for (int i = 0; i < n; ++i) {
      CHECK_CLOSE(ref[i], out[i]);
      CHECK_CLOSE(an[i], dout[i]);
    }
  }
  return fd_report();
}
