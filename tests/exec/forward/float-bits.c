// Floats carried as integers, in code a user writes without thinking of
// bits: a C11 compare-exchange loop that retries (its {old, ok} pair is a
// loop phi), a struct {int, float} passed by value (the x86-64 ABI packs
// it into one i64), doubles moved through integer-typed helper functions,
// two floats packed into one uint64_t, and SLEEF-style sign tricks
// (mulsign, branchless abs, signum). Each tangent is checked against an
// analytic formula, itself checked against finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* The first exchange fails (stale guess), the second succeeds. */
double cas_count(_Atomic double *p, double x) {
  double e = -2.0;
  int t = 0;
  while (!atomic_compare_exchange_strong(p, &e, e * x))
    ++t;
  return e * t; /* the old *p, times 1 retry */
}

typedef struct {
  int n;
  float w;
} Item;
__attribute__((noinline)) float weight(Item it) { return it.w * (float)it.n; }
float by_param(float x) {
  Item it = {3, x * x};
  return weight(it); /* 3 x^2 */
}

__attribute__((noinline)) uint64_t to_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}
__attribute__((noinline)) double from_bits(uint64_t u) {
  double x;
  memcpy(&x, &u, 8);
  return x;
}
double via_bits(double x) { return from_bits(to_bits(x * x)) * x; } /* x^3 */

static inline uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float bitsf(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
float pair(float x) {
  uint64_t p = ((uint64_t)fbits(3.0f * x) << 32) | fbits(x * x);
  float lo = bitsf((uint32_t)p), hi = bitsf((uint32_t)(p >> 32));
  return lo + 2.0f * hi; /* x^2 + 6x */
}

typedef union {
  double d;
  uint64_t u;
  int64_t i;
} U64;
#define SIGN 0x8000000000000000ULL
double mulsign(double x, double y) {
  U64 a = {x}, b = {y};
  a.u ^= b.u & SIGN;
  return a.d;
}
double use_mulsign(double x) { return mulsign(x * x, x - 2.0) + 0.5 * x; }
double sign1(double x) {
  U64 a = {1.0}, b = {x};
  a.u |= b.u & SIGN;
  return a.d;
}
double use_sign1(double x) { return sign1(x - 2.0) * x * x; } /* -x^2 */

float __enzyme_fwddiff_ff(float (*)(float), float, float);

int main(void) {
  double p = 0.8, dp = 0.7, x = 1.3;
  double de = __enzyme_fwddiff((void *)cas_count, enzyme_dup, &p, &dp, x, 1.0);
  CHECK_CLOSE(0.8 * 1.3, p);
  CHECK_CLOSE(0.7, de);             /* d(old *p) = dp */
  CHECK_CLOSE(0.7 * 1.3 + 0.8, dp); /* d(p x) */

  float xf = 1.3f;
  CHECK_CLOSE_F(6 * xf, fd_scalar_f(by_param, xf));
  CHECK_CLOSE_F(6 * xf, __enzyme_fwddiff_ff(by_param, xf, 1.0f));
  CHECK_CLOSE_F(2 * xf + 6, fd_scalar_f(pair, xf));
  CHECK_CLOSE_F(2 * xf + 6, __enzyme_fwddiff_ff(pair, xf, 1.0f));

  CHECK_CLOSE(3 * x * x, fd_scalar(via_bits, x));
  CHECK_CLOSE(3 * x * x, __enzyme_fwddiff((void *)via_bits, x, 1.0));
  CHECK_CLOSE(-2 * x + 0.5, fd_scalar(use_mulsign, x));
  CHECK_CLOSE(-2 * x + 0.5, __enzyme_fwddiff((void *)use_mulsign, x, 1.0));
  CHECK_CLOSE(-2 * x, fd_scalar(use_sign1, x));
  CHECK_CLOSE(-2 * x, __enzyme_fwddiff((void *)use_sign1, x, 1.0));
  return fd_report();
}
