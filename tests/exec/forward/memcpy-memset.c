// Forward mode through memcpy and memset: the input copied into a heap
// working buffer of run-time size and smoothed in place, accumulators
// cleared with memset on the stack, a fixed-size struct copy, and an output
// written by memcpy whose tail is cleared by memset (that tail's tangent is
// zero, whatever the shadow held before).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <string.h>

double smooth_energy(const double *x, int n, int passes) {
  double *buf = (double *)malloc(sizeof(double) * n);
  memcpy(buf, x, sizeof(double) * n);
  double acc[4];
  memset(acc, 0, sizeof acc);
  for (int p = 0; p < passes; ++p)
    for (int i = 1; i + 1 < n; ++i)
      buf[i] = 0.5 * buf[i] + 0.25 * (buf[i - 1] + buf[i + 1]);
  for (int i = 0; i < n; ++i)
    acc[i % 4] += buf[i] * buf[i] * (1 + i % 3);
  free(buf);
  return acc[0] + 2 * acc[1] + acc[2] * acc[3];
}

typedef struct {
  double w[3];
  int tag;
} Triple;

double triple_norm(const Triple *t) {
  Triple local;
  memcpy(&local, t, sizeof local);
  local.w[1] *= local.tag;
  return sqrt(local.w[0] * local.w[0] + local.w[1] * local.w[1] +
              local.w[2] * local.w[2]);
}

/* out[0..n) = 3 x, out[n..m) = 0. */
void copy_scale(double *out, const double *x, int n, int m) {
  memcpy(out, x, sizeof(double) * n);
  memset(out + n, 0, sizeof(double) * (m - n));
  for (int i = 0; i < n; ++i)
    out[i] *= 3;
}

struct ctx {
  int n, passes;
};
static double smooth_fd(const double *v, void *p) {
  struct ctx *c = (struct ctx *)p;
  return smooth_energy(v, c->n, c->passes);
}

enum { N = 15, M = 20 };

int main(void) {
  volatile int nv = N, pv = 3;
  int n = nv, passes = pv;
  double x[N], dx[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.5 + 0.4 * sin(0.8 * i);
    dx[i] = 0.3 - 0.07 * i + 0.1 * cos(2.1 * i);
  }
  /* Reference: the smoothing is linear, so carry the tangent through the
   * same passes and differentiate the final quadratic form. */
  double b[N], db[N], acc[4] = {0, 0, 0, 0}, dacc[4] = {0, 0, 0, 0};
  memcpy(b, x, sizeof b);
  memcpy(db, dx, sizeof db);
  for (int p = 0; p < passes; ++p)
    for (int i = 1; i + 1 < n; ++i) {
      b[i] = 0.5 * b[i] + 0.25 * (b[i - 1] + b[i + 1]);
      db[i] = 0.5 * db[i] + 0.25 * (db[i - 1] + db[i + 1]);
    }
  for (int i = 0; i < n; ++i) {
    acc[i % 4] += b[i] * b[i] * (1 + i % 3);
    dacc[i % 4] += 2 * b[i] * db[i] * (1 + i % 3);
  }
  double an = dacc[0] + 2 * dacc[1] + dacc[2] * acc[3] + acc[2] * dacc[3];
  struct ctx c = {n, passes};
  CHECK_CLOSE(an, fd_dir(smooth_fd, &c, x, dx, n));
  CHECK_CLOSE(an, __enzyme_fwddiff((void *)smooth_energy, enzyme_dup, x, dx,
                                   enzyme_const, n, enzyme_const, passes));
  CHECK_CLOSE(an, __enzyme_fwddiff((void *)smooth_energy, x, dx, n, passes));

  Triple t = {{0.6, -1.2, 2.1}, 3}, dt = {{0.5, 0.25, -0.4}, 3};
  double w1 = t.w[1] * t.tag, r = sqrt(t.w[0] * t.w[0] + w1 * w1 +
                                       t.w[2] * t.w[2]);
  double dr = (t.w[0] * dt.w[0] + w1 * dt.w[1] * t.tag + t.w[2] * dt.w[2]) / r;
  CHECK_CLOSE(r, triple_norm(&t));
  CHECK_CLOSE(dr, __enzyme_fwddiff((void *)triple_norm, enzyme_dup, &t, &dt));

  volatile int mv = M;
  int m = mv;
  double out[M], dout[M];
  for (int i = 0; i < M; ++i) {
    out[i] = 5;
    dout[i] = 6;
  }
  __enzyme_fwddiff_void((void *)copy_scale, enzyme_dup, out, dout, enzyme_dup,
                        x, dx, enzyme_const, n, enzyme_const, m);
  for (int i = 0; i < M; ++i) {
    CHECK_CLOSE(i < n ? 3 * x[i] : 0.0, out[i]);
    CHECK_CLOSE(i < n ? 3 * dx[i] : 0.0, dout[i]);
  }
  return fd_report();
}
