// Forward mode through calls three levels deep: non-static noinline helpers
// (so they stay calls at -O3) taking scalars, pointers and output pointers,
// one of them called from two levels and through a loop, plus a helper
// whose result is inactive (an int) but which writes an active output.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

/* level 3 */
__attribute__((noinline)) double leaf(double a, double b) {
  return sin(a) * b + a * a * exp(-b * 0.1);
}

/* level 2: sums leaf over neighbours, writes the max term, returns count */
__attribute__((noinline)) int middle(const double *v, int n, double *sum,
                                     double *last) {
  double s = 0, t = 0;
  for (int i = 0; i < n; ++i) {
    t = leaf(v[i], v[(i + 1) % n]);
    s += t;
  }
  *sum = s;
  *last = t;
  return n;
}

/* level 1 */
__attribute__((noinline)) void outer(double *out, const double *v, int n) {
  double s, last;
  int cnt = middle(v, n, &s, &last);
  out[0] = s / cnt;
  out[1] = leaf(out[0], last);
}

double top(const double *v, int n) {
  double out[2];
  outer(out, v, n);
  return out[0] * out[1] + leaf(v[0], out[1]);
}

/* Hand-written tangent, mirroring the call structure. */
static double leaf_t(double a, double da, double b, double db, double *dr) {
  double e = exp(-b * 0.1);
  *dr = cos(a) * da * b + sin(a) * db + 2 * a * da * e -
        a * a * e * 0.1 * db;
  return sin(a) * b + a * a * e;
}
/* Also writes the tangents of outer()'s two outputs to douter. */
static double top_t(const double *v, const double *dv, int n, double *dtop,
                    double *douter) {
  double s = 0, ds = 0, t = 0, dt = 0;
  for (int i = 0; i < n; ++i) {
    int j = (i + 1) % n;
    t = leaf_t(v[i], dv[i], v[j], dv[j], &dt);
    s += t;
    ds += dt;
  }
  double o0 = s / n, do0 = ds / n, do1, dl;
  double o1 = leaf_t(o0, do0, t, dt, &do1);
  double l = leaf_t(v[0], dv[0], o1, do1, &dl);
  *dtop = do0 * o1 + o0 * do1 + dl;
  douter[0] = do0;
  douter[1] = do1;
  return o0 * o1 + l;
}

struct ctx {
  int n;
};
static double top_fd(const double *v, void *p) {
  return top(v, ((struct ctx *)p)->n);
}
static void outer_fd(const double *v, double *out, void *p) {
  outer(out, v, ((struct ctx *)p)->n);
}

enum { N = 7 };

int main(void) {
  volatile int nv = N;
  int n = nv;
  double v[N], dv[N];
  for (int i = 0; i < N; ++i) {
    v[i] = 0.9 * sin(0.4 * i + 0.2) + 0.3;
    dv[i] = 0.25 * cos(1.7 * i);
  }
  struct ctx c = {n};
  double dtop, douter[2];
  CHECK_CLOSE(top_t(v, dv, n, &dtop, douter), top(v, n));
  CHECK_CLOSE(dtop, fd_dir(top_fd, &c, v, dv, n));
  CHECK_CLOSE(dtop, __enzyme_fwddiff((void *)top, enzyme_dup, v, dv,
                                     enzyme_const, n));
  CHECK_CLOSE(dtop, __enzyme_fwddiff((void *)top, v, dv, n));

  /* The middle level on its own: output pointers and an int result. */
  double fd[2], ref[2], out[2] = {0, 0}, dout[2] = {3, 3};
  fd_dir_vec(outer_fd, &c, v, dv, n, fd, 2);
  CHECK_CLOSE(douter[0], fd[0]);
  CHECK_CLOSE(douter[1], fd[1]);
  outer(ref, v, n);
  __enzyme_fwddiff_void((void *)outer, enzyme_dup, out, dout, enzyme_dup, v,
                        dv, enzyme_const, n);
  CHECK_CLOSE(ref[0], out[0]);
  CHECK_CLOSE(ref[1], out[1]);
  CHECK_CLOSE(douter[0], dout[0]);
  CHECK_CLOSE(douter[1], dout[1]);

  double s, ds = -9, last, dlast = -9;
  __enzyme_fwddiff_void((void *)middle, enzyme_dup, v, dv, enzyme_const, n,
                        enzyme_dup, &s, &ds, enzyme_dup, &last, &dlast);
  double dsum = 0, dt = 0;
  for (int i = 0; i < n; ++i) {
    int j = (i + 1) % n;
    leaf_t(v[i], dv[i], v[j], dv[j], &dt);
    dsum += dt;
  }
  CHECK_CLOSE(dsum / n, douter[0]); /* out[0] = sum / n */
  CHECK_CLOSE(dsum, ds);
  CHECK_CLOSE(dt, dlast);

  /* The leaf alone, both partials. */
  double dr;
  leaf_t(1.3, 1.0, -0.4, 0.0, &dr);
  CHECK_CLOSE(dr, __enzyme_fwddiff((void *)leaf, 1.3, 1.0, -0.4, 0.0));
  leaf_t(1.3, 0.0, -0.4, 1.0, &dr);
  CHECK_CLOSE(dr, __enzyme_fwddiff((void *)leaf, 1.3, 0.0, -0.4, 1.0));
  return fd_report();
}
