// A double taken apart into words, or byte-swapped, by `noinline` helpers
// and put back together by another: the caller follows the bytes each
// helper returns (its one return) and checks the helper that makes a
// double of its integer parameters with the call's operands, so whole
// doubles pass and splices do not (tests/lit/diagnostics/
// float-splices.c). At -O0 the helpers' own helpers are calls too, and
// the words cross two levels of calls (refused there until the byte
// origins followed -O0 code deep enough and through `double_of`).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include "floatbits.h"

#include <stdint.h>
#include <string.h>


__attribute__((noinline)) uint32_t high_word(double d) {
  return (uint32_t)(bits_of(d) >> 32);
}
__attribute__((noinline)) uint32_t low_word(double d) {
  return (uint32_t)bits_of(d);
}
__attribute__((noinline)) double join_words(uint32_t hi, uint32_t lo) {
  return double_of(((uint64_t)hi << 32) | lo);
}
double words(double x) {
  double y = x * x;
  return join_words(high_word(y), low_word(y)) * x; /* x^3 */
}

__attribute__((noinline)) uint64_t to_big_endian(double x) {
  return __builtin_bswap64(bits_of(x));
}
__attribute__((noinline)) double from_big_endian(uint64_t u) {
  return double_of(__builtin_bswap64(u));
}
double round_trip(double x) {
  return exp(from_big_endian(to_big_endian(x))); /* exp(x) */
}

int main(void) {
  double x = 1.3;
  CHECK_CLOSE(3 * x * x, fd_scalar(words, x));
  CHECK_CLOSE(3 * x * x, __enzyme_fwddiff((void *)words, x, 1.0));
  CHECK_CLOSE(exp(x), fd_scalar(round_trip, x));
  CHECK_CLOSE(exp(x), __enzyme_fwddiff((void *)round_trip, x, 1.0));
  return fd_report();
}
