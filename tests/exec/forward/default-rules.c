// Forward mode without any marker: a double (and, through a typed
// prototype, a float) is dup (value, then tangent), a pointer is dup
// (value, then shadow), an integer (int, unsigned, long, uint64_t) is
// const. Also the same
// calls with markers, which must agree. (Integers narrower than int are
// not passed: `...` would promote them, and the request would no longer
// match the function.)
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stdint.h>

/* Scalars, pointers and ints of several widths interleaved. */
double mixed(double a, const double *v, int n, double b, long stride,
             unsigned k) {
  double s = 0;
  for (int i = 0; i < n; i += (int)stride)
    s += v[i] * v[i] * a + k;
  return s * b + a * b * b;
}

float mixed_f(float a, const float *v, int n, float b) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * a;
  return s * b * b + sinf(a);
}
float __enzyme_fwddiff_mixf(float (*)(float, const float *, int, float),
                            float, float, const float *, const float *, int,
                            float, float);

/* Unsigned and 64-bit integer arguments, returned double. */
double ints(uint64_t n, const double *x, unsigned shift, double y) {
  double s = 0;
  for (uint64_t i = 0; i < n; ++i)
    s += x[i] * (double)(i >> shift) + y * x[i];
  return s;
}

enum { N = 12 };

int main(void) {
  volatile int nv = N;
  int n = nv;
  double v[N], dv[N];
  float vf[N], dvf[N];
  for (int i = 0; i < N; ++i) {
    v[i] = 0.4 + 0.1 * i - 0.3 * sin(i);
    dv[i] = 0.2 * cos(0.5 * i);
    vf[i] = (float)v[i];
    dvf[i] = (float)dv[i];
  }
  double a = 0.9, da = 0.6, b = -1.4, db = 0.35;
  long stride = 3;
  unsigned k = 2;

  double s = 0, ds = 0;
  for (int i = 0; i < n; i += (int)stride) {
    s += v[i] * v[i] * a + k;
    ds += 2 * v[i] * dv[i] * a + v[i] * v[i] * da;
  }
  double an = ds * b + s * db + da * b * b + a * 2 * b * db;
  CHECK_CLOSE(an, __enzyme_fwddiff((void *)mixed, a, da, v, dv, n, b, db,
                                   stride, k));
  CHECK_CLOSE(an, __enzyme_fwddiff((void *)mixed, enzyme_dup, a, da,
                                   enzyme_dup, v, dv, enzyme_const, n,
                                   enzyme_dup, b, db, enzyme_const, stride,
                                   enzyme_const, k));
  /* A reference by a central difference along the same direction. */
  {
    double vp[N], vm[N], h = 1e-5;
    for (int i = 0; i < N; ++i) {
      vp[i] = v[i] + h * dv[i];
      vm[i] = v[i] - h * dv[i];
    }
    double fp = mixed(a + h * da, vp, n, b + h * db, stride, k);
    double fm = mixed(a - h * da, vm, n, b - h * db, stride, k);
    CHECK_CLOSE_TOL(an, (fp - fm) / (2 * h), 1e-7, 1e-9);
  }

  float sf = 0, dsf = 0, af = 0.9f, daf = 0.6f, bf = -1.4f, dbf = 0.35f;
  for (int i = 0; i < n; ++i) {
    sf += vf[i] * af;
    dsf += dvf[i] * af + vf[i] * daf;
  }
  double anf = (double)dsf * bf * bf + (double)sf * 2 * bf * dbf +
               cos((double)af) * daf;
  CHECK_CLOSE_F(anf, __enzyme_fwddiff_mixf(mixed_f, af, daf, vf, dvf, n, bf,
                                           dbf));

  uint64_t n64 = (uint64_t)n;
  unsigned shift = 2;
  double y = 0.75, dy = -2.0, ani = 0;
  for (int i = 0; i < n; ++i)
    ani += dv[i] * (double)(i >> shift) + dy * v[i] + y * dv[i];
  CHECK_CLOSE(ani, __enzyme_fwddiff((void *)ints, n64, v, dv, shift, y, dy));
  CHECK_CLOSE(ani, __enzyme_fwddiff((void *)ints, enzyme_const, n64,
                                    enzyme_dup, v, dv, enzyme_const, shift,
                                    enzyme_dup, y, dy));
  return fd_report();
}
