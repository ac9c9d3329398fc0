// A double's bits returned by `noinline` helpers after a sign-bit
// operation, through a struct returned by value, a local array written at
// a run-time index, and an indirect call; the tangent's bits follow. (A
// helper hunt: each gave a zero tangent, at every level for the sign
// flip, at -O0 for the others, where even `static inline` helpers are
// calls.) Integer arithmetic on such bits in a helper, a global holding
// them, and helpers writing into part of a double are diagnostics:
// tests/lit/diagnostics/float-bits-helpers.c.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include "floatbits.h"

#include <stdint.h>
#include <string.h>


__attribute__((noinline)) uint64_t raw_bits(double d) { return bits_of(d); }
__attribute__((noinline)) uint64_t negated_bits(double a) {
  return raw_bits(a) ^ 0x8000000000000000ull;
}
__attribute__((noinline)) uint64_t magnitude_bits(double a) {
  return bits_of(a) & 0x7fffffffffffffffull;
}
double negate(double x) { return double_of(negated_bits(x * x)); } /* -x^2 */
double magnitude(double x) { return double_of(magnitude_bits(x)) * x; }

struct word {
  uint64_t u;
};
struct word wrap(double d) {
  struct word w;
  w.u = bits_of(d);
  return w;
}
double through_struct(double x) { return double_of(wrap(sin(x)).u); }

double through_array(double x) {
  uint64_t v[2];
  volatile int i = 1;
  v[i] = bits_of(exp(x));
  return double_of(v[1]);
}

__attribute__((noinline)) uint64_t same(uint64_t u) { return u; }
uint64_t (*volatile pass_on)(uint64_t) = same;
double indirect(double x) { return double_of(pass_on(bits_of(x * x))); }

int main(void) {
  double x = -1.3;
  CHECK_CLOSE(-2 * x, __enzyme_fwddiff((void *)negate, x, 1.0));
  CHECK_CLOSE(-2 * x, fd_scalar(negate, x));
  CHECK_CLOSE(2 * fabs(x), __enzyme_fwddiff((void *)magnitude, x, 1.0));
  CHECK_CLOSE(cos(x), __enzyme_fwddiff((void *)through_struct, x, 1.0));
  CHECK_CLOSE(exp(x), __enzyme_fwddiff((void *)through_array, x, 1.0));
  CHECK_CLOSE(2 * x, __enzyme_fwddiff((void *)indirect, x, 1.0));
  return fd_report();
}
