// Sign manipulation written on the bits of a float through a union, as
// numerical code sometimes does: at -O0 these stay integer and/xor/or on
// raw bits, whose tangents follow the same bit operations.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stdint.h>

typedef union { double d; uint64_t u; } bits64;
typedef union { float f; uint32_t u; } bits32;

double fabs_bits(double x) {
  bits64 v = {x};
  v.u &= ~(1ULL << 63);
  return v.d * x;
}
double neg_bits(double x) {
  bits64 v = {x};
  v.u ^= 1ULL << 63;
  return v.d * x * x;
}
double negabs_bits(double x) {
  bits64 v = {x};
  v.u |= 1ULL << 63;
  return v.d + 3 * x;
}
double copysign_bits(double x, double y) {
  bits64 m = {x}, s = {y};
  m.u = (m.u & ~(1ULL << 63)) | (s.u & (1ULL << 63));
  return m.d * y;
}
float fabsf_bits(float x) {
  bits32 v = {x};
  v.u &= 0x7fffffffu;
  return v.f * x;
}

static double cs_fd(const double *v, void *c) {
  (void)c;
  return copysign_bits(v[0], v[1]);
}

int main(void) {
  double xs[] = {-1.3, 0.7};
  for (int j = 0; j < 2; ++j) {
    double x = xs[j];
    CHECK_CLOSE(fd_scalar(fabs_bits, x), __enzyme_fwddiff((void *)fabs_bits, x, 1.0));
    CHECK_CLOSE(fd_scalar(neg_bits, x), __enzyme_fwddiff((void *)neg_bits, x, 1.0));
    CHECK_CLOSE(fd_scalar(negabs_bits, x),
                __enzyme_fwddiff((void *)negabs_bits, x, 1.0));
    CHECK_CLOSE_F(fd_scalar_f(fabsf_bits, (float)x),
                  __enzyme_fwddiff_float((void *)fabsf_bits, (float)x, 1.0f));
    double v[2] = {x, -0.4 * x + 0.1}, d[2] = {1.0, 0.5};
    CHECK_CLOSE(fd_dir(cs_fd, 0, v, d, 2),
                __enzyme_fwddiff((void *)copysign_bits, v[0], d[0], v[1], d[1]));
  }
  return fd_report();
}
