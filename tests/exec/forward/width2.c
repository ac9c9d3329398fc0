// Vector forward mode, width 2 (`enzyme_width, 2`): each duplicated
// argument takes two shadows and the two tangents of the return come back
// as a struct of two doubles (in registers). A full gradient of a function
// of two scalars in one call, array arguments with two shadow arrays each,
// and a void function with two output shadows.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

double f2(double x, double y) { return sin(x * y) + x * x * y - log(y); }

double wdot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i] * (1 + 0.1 * a[i]);
  return s;
}

void scale_by_norm(double *out, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  double r = sqrt(s);
  for (int i = 0; i < n; ++i)
    out[i] = x[i] * r;
}

struct ctx {
  int n;
};
static double f2_fd(const double *v, void *p) {
  (void)p;
  return f2(v[0], v[1]);
}
static double wdot_fd(const double *v, void *p) {
  int n = ((struct ctx *)p)->n;
  return wdot(v, v + n, n);
}
static void scale_fd(const double *v, double *out, void *p) {
  scale_by_norm(out, v, ((struct ctx *)p)->n);
}

enum { N = 9 };

int main(void) {
  static const double pts[][2] = {{0.7, 1.3}, {-1.1, 0.45}, {2.05, 3.3}};
  for (unsigned k = 0; k < sizeof pts / sizeof pts[0]; ++k) {
    double x = pts[k][0], y = pts[k][1];
    double gx = y * cos(x * y) + 2 * x * y;
    double gy = x * cos(x * y) + x * x - 1 / y;
    double v[2] = {x, y}, ex[2] = {1, 0}, ey[2] = {0, 1};
    CHECK_CLOSE(gx, fd_dir(f2_fd, 0, v, ex, 2));
    CHECK_CLOSE(gy, fd_dir(f2_fd, 0, v, ey, 2));
    enzyme_v2 g = __enzyme_fwddiff_v2((void *)f2, enzyme_width, 2, enzyme_dup,
                                      x, 1.0, 0.0, enzyme_dup, y, 0.0, 1.0);
    CHECK_CLOSE(gx, g.d[0]);
    CHECK_CLOSE(gy, g.d[1]);
    /* Unmarked doubles are dup: value, then two tangents. */
    g = __enzyme_fwddiff_v2((void *)f2, enzyme_width, 2, x, 0.5, -1.0, y, 2.0,
                            0.25);
    CHECK_CLOSE(0.5 * gx + 2.0 * gy, g.d[0]);
    CHECK_CLOSE(-1.0 * gx + 0.25 * gy, g.d[1]);
  }

  volatile int nv = N;
  int n = nv;
  double a[N], b[N], da0[N], da1[N], db0[N], db1[N];
  double v[2 * N], dv0[2 * N], dv1[2 * N];
  for (int i = 0; i < N; ++i) {
    a[i] = 0.8 * cos(0.5 * i) + 0.1;
    b[i] = 1.2 - 0.15 * i;
    da0[i] = 1.0 / (i + 1);
    da1[i] = 0;
    db0[i] = 0;
    db1[i] = 0.3 + 0.05 * i;
    v[i] = a[i];
    v[n + i] = b[i];
    dv0[i] = da0[i];
    dv0[n + i] = db0[i];
    dv1[i] = da1[i];
    dv1[n + i] = db1[i];
  }
  /* d/dt of a b (1 + a/10): da b (1 + a/5) + a db (1 + a/10). */
  double an0 = 0, an1 = 0;
  for (int i = 0; i < n; ++i) {
    an0 += da0[i] * b[i] * (1 + 0.2 * a[i]) + a[i] * db0[i] * (1 + 0.1 * a[i]);
    an1 += da1[i] * b[i] * (1 + 0.2 * a[i]) + a[i] * db1[i] * (1 + 0.1 * a[i]);
  }
  struct ctx c = {n};
  CHECK_CLOSE(an0, fd_dir(wdot_fd, &c, v, dv0, 2 * n));
  CHECK_CLOSE(an1, fd_dir(wdot_fd, &c, v, dv1, 2 * n));
  enzyme_v2 g = __enzyme_fwddiff_v2((void *)wdot, enzyme_width, 2, enzyme_dup,
                                    a, da0, da1, enzyme_dup, b, db0, db1,
                                    enzyme_const, n);
  CHECK_CLOSE(an0, g.d[0]);
  CHECK_CLOSE(an1, g.d[1]);
  /* b const. */
  double ana = 0;
  for (int i = 0; i < n; ++i)
    ana += da1[i] * b[i] * (1 + 0.2 * a[i]);
  g = __enzyme_fwddiff_v2((void *)wdot, enzyme_width, 2, enzyme_dup, a, da0,
                          da1, enzyme_const, b, enzyme_const, n);
  CHECK_CLOSE(an0, g.d[0]); /* lane 0 had only da0 */
  CHECK_CLOSE(ana, g.d[1]);

  /* Two output shadows. */
  double out[N], dout0[N], dout1[N], fd0[N], fd1[N];
  for (int i = 0; i < N; ++i)
    out[i] = dout0[i] = dout1[i] = 111;
  fd_dir_vec(scale_fd, &c, a, da0, n, fd0, n);
  fd_dir_vec(scale_fd, &c, a, db1, n, fd1, n);
  double s = 0, ad0 = 0, ad1 = 0;
  for (int i = 0; i < n; ++i) {
    s += a[i] * a[i];
    ad0 += a[i] * da0[i];
    ad1 += a[i] * db1[i];
  }
  double r = sqrt(s);
  __enzyme_fwddiff_void((void *)scale_by_norm, enzyme_width, 2, enzyme_dup,
                        out, dout0, dout1, enzyme_dup, a, da0, db1,
                        enzyme_const, n);
  for (int i = 0; i < n; ++i) {
    double t0 = da0[i] * r + a[i] * ad0 / r, t1 = db1[i] * r + a[i] * ad1 / r;
    CHECK_CLOSE(t0, fd0[i]);
    CHECK_CLOSE(t1, fd1[i]);
    CHECK_CLOSE(a[i] * r, out[i]);
    CHECK_CLOSE(t0, dout0[i]);
    CHECK_CLOSE(t1, dout1[i]);
  }
  return fd_report();
}
