// Hand-written x86 SIMD code keeps target intrinsics through optimization:
// horizontal adds, add-subtract, max/min (packed and scalar), blends, dot
// products, conversions and fmaddsub, all checked against central
// differences. Also the Bessel functions j0, j1, y0, y1.
// REQUIRES: avx2
// RUN: sh %testlib/run-c.sh %s -mavx2 -mfma

#include "enzyme.h"
#include "fdcheck.h"

#include <immintrin.h>
#include <math.h>

double simd(double x) {
  __m256d a = _mm256_set_pd(x, 2 * x, x * x, 1.5);
  __m256d b = _mm256_set_pd(0.5, -x, 3 * x, sin(x));
  __m256d h = _mm256_hadd_pd(a, b);
  __m256d s = _mm256_addsub_pd(h, _mm256_mul_pd(a, b));
  __m256d m = _mm256_max_pd(s, b);
  __m256d n = _mm256_min_pd(m, _mm256_set1_pd(2.0 * x));
  __m256d bl = _mm256_blendv_pd(a, n, _mm256_set_pd(-1, 1, -1, 1));
  __m256d f = _mm256_fmaddsub_pd(bl, a, b);
  __m128d lo = _mm256_castpd256_pd128(f), hi = _mm256_extractf128_pd(f, 1);
  __m128d sd = _mm_max_sd(lo, hi);
  double out[2];
  _mm_storeu_pd(out, _mm_hadd_pd(sd, _mm_min_sd(hi, lo)));
  return out[0] + out[1];
}

/* Through float: sum of squares of (x, 2x, x^2, 1.5) by a float dot
 * product; derivative 2x + 8x + 4x^3, checked analytically (a finite
 * difference through float rounding is too noisy). */
double flt(double x) {
  __m128 fl = _mm256_cvtpd_ps(_mm256_set_pd(x, 2 * x, x * x, 1.5));
  return (double)_mm_cvtss_f32(_mm_dp_ps(fl, fl, 0xF1));
}

double bessel(double x) { return j0(x) * y1(x) + j1(x * 0.5) - y0(x); }

int main(void) {
  double xs[] = {0.37, 0.81, 1.4};
  for (int i = 0; i < 3; ++i) {
    double x = xs[i];
    CHECK_CLOSE(fd_scalar(simd, x), __enzyme_fwddiff((void *)simd, x, 1.0));
    CHECK_CLOSE_F(10 * x + 4 * x * x * x, __enzyme_fwddiff((void *)flt, x, 1.0));
    CHECK_CLOSE(fd_scalar(bessel, x), __enzyme_fwddiff((void *)bessel, x, 1.0));
  }
  return fd_report();
}
