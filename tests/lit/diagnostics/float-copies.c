// Floats made of parts of floats by code that only copies: a helper that
// copies words starting at byte 4 of its caller's doubles, one that
// reverses a double's bytes, and -O0 code that reuses a union (the high
// word of one double written over another's). The forward derivative
// copies the tangents' bytes the same way and gave garbage (4.7e-62,
// -6e66, 1) without a word: now a diagnostic naming the copy, and no
// output. Copies that keep each byte's place in its float (same index,
// whole doubles reversed, unaligned doubles in a byte buffer) still work:
// tests/exec/forward/float-words-o0.c.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s --check-prefixes=ALL,O0
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t1.ll
// RUN: not %autodiff-opt %t1.ll -o %t1.out.ll 2>&1 | FileCheck %s --check-prefixes=ALL,OPT
// RUN: not test -e %t1.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s --check-prefixes=O2,OPT
// RUN: not test -e %t2.out.ll
// ALL-DAG: in function `copy_words` (while generating `fwddiffe_copy_words`), `store`: the bytes copied here move by 4 against the double values on the two sides (`%1` to `%0`), which is not a multiple of 8 bytes on every copy
// ALL-DAG: in function `reverse_bytes` (while generating `fwddiffe_reverse_bytes`), `store`: the bytes copied here move by {-7,+,2}<{{.*}}> against the double values on the two sides
// O2-DAG: in function `copy_words` (while generating `fwddiffe_copy_words`), `store`: the bytes copied here move by 4 against the double values
// O0-DAG: in function `union_reuse` (while generating `fwddiffe_union_reuse`), `load`: the floating-point value read here holds byte 0 of the double {{.*}} without the rest of it in order
// OPT-DAG: in function `union_reuse` (while generating `fwddiffe_union_reuse`), `bitcast`: the integer read as a floating-point value here holds byte 0 of the double {{.*}} without the rest of it in order
// At -O2 the byte reversal is unrolled into eight byte copies; the caller
// describes its locals by their declarations (doubles), which its own
// analysis, merged with the helper's char accesses, calls "anything".
// O2-DAG: in function `reverse_bytes` (while generating `fwddiffe_reverse_bytes`), `store`: the bytes copied here move by -7 against the double values on the two sides
#include <stdint.h>
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) void copy_words(uint32_t *d, const uint32_t *s,
                                          int n) {
  for (int i = 0; i < n; i++)
    d[i] = s[i];
}
double shifted(double x) {
  double a[3] = {x, x * x, 2 * x}, b[2];
  copy_words((uint32_t *)b, (const uint32_t *)a + 1, 4);
  return b[0];
}

__attribute__((noinline)) void reverse_bytes(unsigned char *d,
                                             const unsigned char *s) {
  for (int i = 0; i < 8; i++)
    d[i] = s[7 - i];
}
double reversed(double x) {
  double a = x * x, c;
  reverse_bytes((unsigned char *)&c, (unsigned char *)&a);
  return c;
}

typedef union {
  double value;
  struct {
    uint32_t lsw, msw;
  } parts;
} shape;
__attribute__((noinline)) double other(double x) { return x * 3.0 + 1.0; }
double union_reuse(double x) {
  shape u;
  u.value = x;
  uint32_t hx = u.parts.msw;
  u.value = other(x);
  u.parts.msw = hx;
  return u.value;
}

double out[3];
int main(void) {
  out[0] = __enzyme_fwddiff((void *)shifted, 0.6, 1.0);
  out[1] = __enzyme_fwddiff((void *)reversed, 0.9, 1.0);
  out[2] = __enzyme_fwddiff((void *)union_reuse, 1.2, 1.0);
  return 0;
}
