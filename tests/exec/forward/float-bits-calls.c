// Doubles moved as integers across calls, in code a C user writes: a
// double array read through `const uint64_t *` in one helper that passes
// the bits to another (the array's memory is doubles to the caller,
// integers to the helper), and, at -O0, a double split into 32-bit words
// stored in a local array by a helper's result and joined again. The
// tangents were silently 0 (a helper hunt). Checked against analytic
// derivatives and finite differences. (Bits that become a float only in
// parts, across calls, are diagnostics: tests/lit/diagnostics/
// float-splices.c.)
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include "floatbits.h"

#include <stdint.h>
#include <string.h>

__attribute__((noinline)) double from_bits(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
__attribute__((noinline)) double first(const uint64_t *u) {
  return from_bits(u[0]) + from_bits(u[1]);
}
double through_pointer(double x) {
  double a[2] = {x * x, 3.0 * x};
  return first((const uint64_t *)a); /* x^2 + 3x */
}

double words_in_array(double x) {
  uint32_t w[2];
  uint64_t u = bits_of(x * x);
  w[0] = (uint32_t)u;
  w[1] = (uint32_t)(u >> 32);
  uint64_t v = ((uint64_t)w[1] << 32) | w[0];
  double r;
  memcpy(&r, &v, 8);
  return r * x; /* x^3 */
}

int main(void) {
  double x = 1.3;
  CHECK_CLOSE(2 * x + 3, fd_scalar(through_pointer, x));
  CHECK_CLOSE(2 * x + 3, __enzyme_fwddiff((void *)through_pointer, x, 1.0));
  CHECK_CLOSE(3 * x * x, fd_scalar(words_in_array, x));
  CHECK_CLOSE(3 * x * x, __enzyme_fwddiff((void *)words_in_array, x, 1.0));
  return fd_report();
}
