// Floats taken apart into words and bytes and put back together, as
// portable C and fdlibm-style code does: a double's high and low words
// extracted (shift and truncation, or memcpy of 4 bytes) and joined again;
// the low word cleared to split a double in two parts (Dekker), whose sum
// is the double again; a double byte-swapped twice (big-endian storage);
// a byte-by-byte copy loop; two floats packed into one word. Forward-mode
// tangents are checked against finite differences and analytic formulas.
// (Splices of parts of different floats are diagnostics:
// tests/lit/diagnostics/float-splices.ll.)
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include "floatbits.h"

#include <stdint.h>
#include <string.h>


/* EXTRACT_WORDS / INSERT_WORDS, then the double again. */
double words(double x) {
  double y = x * x;
  uint64_t u = bits_of(y);
  uint32_t hi = (uint32_t)(u >> 32), lo = (uint32_t)u;
  double z = double_of(((uint64_t)hi << 32) | lo);
  return z * x; /* x^3 */
}

/* The high word through memcpy of 4 bytes, written back the same way. */
double words_memcpy(double x) {
  double y = 3.0 * x, z = 0.0;
  uint32_t hi, lo;
  memcpy(&lo, (char *)&y, 4);
  memcpy(&hi, (char *)&y + 4, 4);
  memcpy((char *)&z, &lo, 4);
  memcpy((char *)&z + 4, &hi, 4);
  return z * x; /* 3 x^2 */
}

/* Dekker's split: hi has the low word cleared, lo = y - hi. */
double split_sum(double x) {
  double y = x * x;
  double hi = double_of(bits_of(y) & 0xffffffff00000000ull);
  double lo = y - hi;
  return hi * 2.0 + lo * 2.0; /* 2 x^2 */
}

/* Stored big-endian and read back. */
double big_endian(double x) {
  double y = x * x + 1.0;
  uint64_t stored = __builtin_bswap64(bits_of(y));
  return double_of(__builtin_bswap64(stored)) * 0.5; /* (x^2 + 1) / 2 */
}

/* A byte-by-byte copy helper. */
__attribute__((noinline)) void copy_bytes(void *dst, const void *src,
                                          unsigned n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (unsigned i = 0; i < n; ++i)
    d[i] = s[i];
}
double byte_copy(double x) {
  double a[2] = {x * x, 2.0 * x}, b[2];
  copy_bytes(b, a, sizeof a);
  return b[0] + b[1] * x; /* 3 x^2 */
}

/* Two floats in one word, read back in the other order. */
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
float swap_pair(float x) {
  uint64_t p = ((uint64_t)fbits(x * x) << 32) | fbits(5.0f * x);
  uint64_t q = (p << 32) | (p >> 32); /* the halves exchanged */
  return bitsf((uint32_t)q) + 2.0f * bitsf((uint32_t)(q >> 32)); /* x^2 + 10x */
}

float __enzyme_fwddiff_ff(float (*)(float), float, float);

int main(void) {
  double x = 1.3;
  CHECK_CLOSE(3 * x * x, fd_scalar(words, x));
  CHECK_CLOSE(3 * x * x, __enzyme_fwddiff((void *)words, x, 1.0));
  CHECK_CLOSE(6 * x, fd_scalar(words_memcpy, x));
  CHECK_CLOSE(6 * x, __enzyme_fwddiff((void *)words_memcpy, x, 1.0));
  CHECK_CLOSE(4 * x, __enzyme_fwddiff((void *)split_sum, x, 1.0));
  CHECK_CLOSE(x, fd_scalar(big_endian, x));
  CHECK_CLOSE(x, __enzyme_fwddiff((void *)big_endian, x, 1.0));
  CHECK_CLOSE(6 * x, fd_scalar(byte_copy, x));
  CHECK_CLOSE(6 * x, __enzyme_fwddiff((void *)byte_copy, x, 1.0));
  float xf = 1.3f;
  CHECK_CLOSE_F(2 * xf + 10, fd_scalar_f(swap_pair, xf));
  CHECK_CLOSE_F(2 * xf + 10, __enzyme_fwddiff_ff(swap_pair, xf, 1.0f));
  return fd_report();
}
