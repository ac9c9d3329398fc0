// C99 complex arithmetic in both modes: z * w and z / w (clang calls
// __muldc3 / __divdc3, and for float complex __mulsc3 / __divsc3 returning
// <2 x float>, without -ffast-math), cexp, clog, csqrt, csin, ccos and
// their float forms (which take and return <2 x float>), cabsf and cargf
// of a packed float complex. Reverse gradients
// against central differences, forward tangents against them.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <complex.h>
#include <math.h>
/* C99 complex arithmetic in reverse mode: z * w and z / w (clang calls
   __muldc3 / __divdc3 without -ffast-math), cexp, clog, csqrt, csin, ccos,
   and the float forms. */
__attribute__((noinline)) double cmix(const double *p) {
  double complex z = p[0] + p[1] * I, w = p[2] + p[3] * I;
  double complex m = z * w, q = z / w;
  double complex e = cexp(q) + clog(m) + csqrt(z) + csin(w) * ccos(z);
  return creal(e) * 0.7 + cimag(e * m) * 0.3;
}
__attribute__((noinline)) double cmixf(const float *p) {
  float complex z = p[0] + p[1] * I, w = p[2] + p[3] * I;
  float complex m = z * w, q = z / w;
  float complex e = cexpf(q) + clogf(m) + csqrtf(z);
  return crealf(e) * 0.7f + cimagf(e * m) * 0.3f + cabsf(m) * cargf(q);
}
int main(void) {
  double p0[4] = {0.8, -0.4, 1.3, 0.6};
  double p[4], dp[4] = {0};
  for (int k = 0; k < 4; k++) p[k] = p0[k];
  __enzyme_autodiff_void((void *)cmix, enzyme_dup, p, dp);
  for (int k = 0; k < 4; k++) {
    double a[4], b[4], h = 1e-6;
    for (int j = 0; j < 4; j++) a[j] = b[j] = p0[j];
    a[k] += h; b[k] -= h;
    CHECK_CLOSE((cmix(a) - cmix(b)) / (2 * h), dp[k]);
  }
  float pf[4] = {0.8f, -0.4f, 1.3f, 0.6f}, dpf[4] = {0};
  __enzyme_autodiff_void((void *)cmixf, enzyme_dup, pf, dpf);
  for (int k = 0; k < 4; k++) {
    double a[4], b[4], h = 1e-3;
    float fa[4], fb[4];
    for (int j = 0; j < 4; j++) a[j] = b[j] = pf[j];
    a[k] += h; b[k] -= h;
    for (int j = 0; j < 4; j++) { fa[j] = (float)a[j]; fb[j] = (float)b[j]; }
    fd_check_close_at(__FILE__, __LINE__, "dpf[k]", (cmixf(fa) - cmixf(fb)) / (2 * h), dpf[k], 2e-3, 1e-4);
  }
  /* forward mode: tangent along each input against the reverse gradient */
  for (int k = 0; k < 4; k++) {
    double t[4] = {0};
    t[k] = 1;
    CHECK_CLOSE(dp[k], __enzyme_fwddiff((void *)cmix, enzyme_dup, p, t));
  }
  for (int k = 0; k < 4; k++) {
    float t[4] = {0};
    t[k] = 1;
    fd_check_close_at(__FILE__, __LINE__, "forward dpf[k]", dpf[k],
                      __enzyme_fwddiff((void *)cmixf, enzyme_dup, pf, t),
                      1e-5, 1e-6);
  }
  return fd_report();
}
