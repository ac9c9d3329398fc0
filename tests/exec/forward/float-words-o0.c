// Doubles taken apart into words or bytes and put back together through
// `noinline` helpers, as unoptimized code (fdlibm's union macros, words
// kept in a `uint32_t` array, bytes serialized into a buffer) does it.
// At -O0 the words pass through stack slots, union fields declared
// integer, calls that return or take integers, and long `or` chains; the
// tangents' words must follow the same way. Before, -O0 gave 1/3 of the
// derivative (the joined helper's part lost), sin(x) without cos(x) x,
// or 0. Copies that keep each byte's place in its double (same index,
// whole doubles reversed, doubles at odd offsets of a byte buffer) are
// right too; copies that do not are diagnostics
// (tests/lit/diagnostics/float-copies.c).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include "floatbits.h"

#include <stdint.h>
#include <string.h>

typedef union {
  double value;
  struct {
    uint32_t lsw, msw;
  } parts;
} shape;

__attribute__((noinline)) double join(uint32_t hi, uint32_t lo) {
  shape u;
  u.parts.msw = hi;
  u.parts.lsw = lo;
  return u.value;
}
__attribute__((noinline)) uint32_t high_word(double d) {
  shape u;
  u.value = d;
  return u.parts.msw;
}
__attribute__((noinline)) uint32_t low_word(double d) {
  shape u;
  u.value = d;
  return u.parts.lsw;
}
double union_words(double x) {
  double y = x * x;
  return join(high_word(y), low_word(y)) * x; /* x^3 */
}

__attribute__((noinline)) void split(double d, uint32_t w[2]) {
  uint64_t u = bits_of(d);
  w[0] = (uint32_t)u;
  w[1] = (uint32_t)(u >> 32);
}
__attribute__((noinline)) double join_array(const uint32_t w[2]) {
  return double_of(((uint64_t)w[1] << 32) | w[0]);
}
double array_words(double x) {
  uint32_t w[2];
  split(sin(x), w);
  return join_array(w) * x; /* x sin x */
}

static void put_le64(unsigned char *p, uint64_t v) {
  p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
  p[4] = v >> 32; p[5] = v >> 40; p[6] = v >> 48; p[7] = v >> 56;
}
static uint64_t get_le64(const unsigned char *p) {
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
         (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
         (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}
double serialized(double x) {
  unsigned char buf[8];
  put_le64(buf, bits_of(exp(x)));
  return double_of(get_le64(buf)); /* exp x */
}

typedef struct {
  double a, b, c;
} record;
__attribute__((noinline)) void put_record(unsigned char *buf,
                                          const record *r) {
  buf[0] = 3; /* a header byte: the doubles sit at odd offsets */
  memcpy(buf + 1, &r->a, 8);
  memcpy(buf + 9, &r->b, 8);
  memcpy(buf + 17, &r->c, 8);
}
__attribute__((noinline)) void get_record(const unsigned char *buf,
                                          record *r) {
  memcpy(&r->a, buf + 1, 8);
  memcpy(&r->b, buf + 9, 8);
  memcpy(&r->c, buf + 17, 8);
}
double unaligned(double x) {
  record r = {x, x * x, 2.0}, s;
  unsigned char buf[32];
  put_record(buf, &r);
  get_record(buf, &s);
  return s.a * s.b + s.c * x; /* x^3 + 2x */
}

__attribute__((noinline)) void reverse_words(uint64_t *d, const uint64_t *s,
                                             int n) {
  for (int i = 0; i < n; i++)
    d[i] = s[n - 1 - i];
}
double reversed_doubles(double x) {
  double a[3] = {x, x * x, sin(x)}, b[3];
  reverse_words((uint64_t *)b, (const uint64_t *)a, 3);
  return b[0] * b[2] + b[1]; /* x sin x + x^2 */
}

int main(void) {
  double x = 1.2345;
  CHECK_CLOSE(3 * x * x, __enzyme_fwddiff((void *)union_words, x, 1.0));
  CHECK_CLOSE(sin(x) + x * cos(x),
              __enzyme_fwddiff((void *)array_words, x, 1.0));
  CHECK_CLOSE(exp(x), __enzyme_fwddiff((void *)serialized, x, 1.0));
  CHECK_CLOSE(3 * x * x + 2, __enzyme_fwddiff((void *)unaligned, x, 1.0));
  CHECK_CLOSE(sin(x) + x * cos(x) + 2 * x,
              __enzyme_fwddiff((void *)reversed_doubles, x, 1.0));
  CHECK_CLOSE(3 * x * x, fd_scalar(union_words, x));
  CHECK_CLOSE(sin(x) + x * cos(x) + 2 * x, fd_scalar(reversed_doubles, x));
  return fd_report();
}
