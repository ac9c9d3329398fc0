// Hand-written SSE/AVX code in reverse mode: horizontal adds and subtracts,
// add-subtract, max/min (x86 intrinsics at -O0), blendv, double-to-float
// conversion and a float horizontal add. The linear intrinsics' adjoints
// are their transposes, read off the intrinsic on unit vectors; max/min
// route each lane's adjoint to the operand it came from. Against central
// differences (float-sized tolerance) and against forward mode.
// RUN: sh %testlib/run-c.sh %s -mavx
#include "enzyme.h"
#include "fdcheck.h"
#include <immintrin.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
/* Hand-written SSE/AVX code: horizontal adds and subtracts, add-subtract,
   max/min (kept as x86 intrinsics at -O0), blendv, conversions. */
__attribute__((noinline)) double simd(const double *x) {
  __m128d a = _mm_loadu_pd(x), b = _mm_loadu_pd(x + 2);
  __m128d h = _mm_hadd_pd(_mm_mul_pd(a, a), b);          /* x0^2+x1^2, x2+x3 */
  __m128d s = _mm_hsub_pd(a, _mm_mul_pd(b, a));          /* x0-x1, x2x0-x3x1 */
  __m128d as = _mm_addsub_pd(h, s);
  __m256d c = _mm256_loadu_pd(x + 4), d = _mm256_loadu_pd(x);
  __m256d mx = _mm256_max_pd(c, d), mn = _mm256_min_pd(c, d);
  __m256d bl = _mm256_blendv_pd(mx, _mm256_mul_pd(mn, mn), c); /* by sign of c */
  __m128 f = _mm256_cvtpd_ps(bl);
  __m128 hf = _mm_hadd_ps(f, _mm_mul_ps(f, f));
  double out[2], wide[4];
  float fl[4];
  _mm_storeu_pd(out, as);
  _mm256_storeu_pd(wide, bl);
  _mm_storeu_ps(fl, hf);
  return out[0] * out[1] + wide[0] + wide[1] * wide[2] + wide[3] + fl[0] +
         fl[1] * fl[2] + fl[3];
}
int main(void) {
  if (!__builtin_cpu_supports("avx")) { /* the primal itself needs AVX */
    printf("no AVX on this machine: not run\n");
    return 0;
  }
  double x0[8] = {0.7, -0.3, 1.1, 0.4, -0.8, 0.25, 1.6, -1.2};
  double x[8], dx[8] = {0};
  memcpy(x, x0, sizeof x);
  __enzyme_autodiff_void((void *)simd, enzyme_dup, x, dx);
  for (int k = 0; k < 8; k++) {
    double a[8], b[8], h = 1e-3;
    memcpy(a, x0, sizeof a); memcpy(b, x0, sizeof b);
    a[k] += h; b[k] -= h;
    /* float lanes in the middle: a float-sized tolerance */
    fd_check_close_at(__FILE__, __LINE__, "dx[k]", (simd(a) - simd(b)) / (2 * h),
                      dx[k], 1e-3, 1e-4);
    double t[8] = {0};
    t[k] = 1;
    fd_check_close_at(__FILE__, __LINE__, "forward", dx[k],
                      __enzyme_fwddiff((void *)simd, enzyme_dup, x, t), 1e-6,
                      1e-7);
  }
  return fd_report();
}
