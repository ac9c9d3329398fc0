// Helpers that change a double's bits in ways that have no derivative,
// found by a helper hunt where forward mode gave a number without a word
// (0, 1e-314, 7e-309, x^2 for 3x^2): integer arithmetic on bits a helper
// returns, bits kept in a global (no shadow), and a helper writing into
// part of its caller's double through a pointer to its high word or to
// its bytes, and a helper adding to the bits in its caller's `uint64_t`
// (0 at -O0). Now a diagnostic naming the instruction at every level, and
// no output. The moves and sign-bit operations among them work:
// tests/exec/forward/float-bits-returned.c.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t2.out.ll
// CHECK-DAG: in function `twice_bits` (while generating `fwddiffe_twice_bits`), `add`: integer `add` on the bits of an active floating-point value, used as a floating-point value again, cannot be differentiated
// CHECK-DAG: in function `in_global` (while generating `fwddiffe_in_global`), `store`: the stored value is active but the destination has no shadow memory
// CHECK-DAG: in function `bumped` (while generating `fwddiffe_bumped`), call to `bump_high`: argument 1 points inside the double at byte 0 of `{{.*}}`, at byte 4 of it, and `bump_high` may write through it: a float changed in part has no derivative
// CHECK-DAG: in function `high_set` (while generating `fwddiffe_high_set`), call to `set_word`: argument 1 points inside the double at byte 0 of `{{.*}}`, at byte 4 of it, and `set_word` may write through it
// CHECK-DAG: in function `set_top` (while generating `fwddiffe_set_top`), `store`: integer bits that carry no derivative are written over bytes 7 to 7 of the active double at byte 0: a float changed in part has no derivative
// CHECK-DAG: in function `bump_bits` (while generating `fwddiffe_bump_bits`), `add`: integer `add` on the bits of an active floating-point value
#include <stdint.h>
#include <string.h>
double __enzyme_fwddiff(void *, ...);

static inline uint64_t bits_of(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return u;
}
static inline double double_of(uint64_t u) {
  double x;
  memcpy(&x, &u, 8);
  return x;
}

__attribute__((noinline)) uint64_t raw_bits(double d) { return bits_of(d); }
__attribute__((noinline)) uint64_t twice_bits(double a) {
  return raw_bits(a) + (1ull << 52); /* the exponent plus one */
}
double twice(double x) { return double_of(twice_bits(x)); }

uint64_t kept;
double in_global(double x) {
  kept = bits_of(x * x);
  return double_of(kept) * x;
}

__attribute__((noinline)) void bump_high(uint32_t *w) { *w += 0x00100000u; }
double bumped(double x) {
  double y = x;
  bump_high((uint32_t *)&y + 1);
  return y;
}

__attribute__((noinline)) void set_word(uint32_t *w, uint32_t v) { *w = v; }
double high_set(double x) {
  double y = x * x;
  set_word((uint32_t *)&y + 1, 0x40000000u);
  return y;
}

__attribute__((noinline)) void set_top(unsigned char *b) { b[7] = 0x40; }
double top_set(double x) {
  double y = x * x;
  set_top((unsigned char *)&y);
  return y;
}

__attribute__((noinline)) void bump_bits(uint64_t *p) { *p += 1ull << 52; }
double in_word(double x) {
  uint64_t u = bits_of(x * x);
  bump_bits(&u);
  return double_of(u);
}

double out[6];
int main(void) {
  out[0] = __enzyme_fwddiff((void *)twice, 1.3, 1.0);
  out[1] = __enzyme_fwddiff((void *)in_global, 1.3, 1.0);
  out[2] = __enzyme_fwddiff((void *)bumped, 1.3, 1.0);
  out[3] = __enzyme_fwddiff((void *)high_set, 1.3, 1.0);
  out[4] = __enzyme_fwddiff((void *)top_set, 1.3, 1.0);
  out[5] = __enzyme_fwddiff((void *)in_word, 1.3, 1.0);
  return 0;
}
