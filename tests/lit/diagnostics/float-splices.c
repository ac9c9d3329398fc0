// Floats made of parts of other floats, through integers or memory: the
// low word of one double beside the high word of the next, a byte-swapped
// double, a mantissa given a new exponent byte, a double assembled from
// two 4-byte copies of different doubles, eight bytes read from byte 4 of
// a double array. Forward mode moved the tangent bytes the same way and
// gave garbage (0, 3e-319, 1e-314) without a word; reverse mode spread
// the straddling read's adjoint over two doubles. Now a diagnostic naming
// the instruction, at every level, and no output. Whole floats taken apart
// and put back (words, Dekker splits, byte swaps undone, byte copies) still
// work: tests/exec/forward/float-words.c.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s --check-prefixes=ALL,O0
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s --check-prefixes=ALL,O2
// RUN: not test -e %t2.out.ll
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone -DREVERSE %s -o %tr0.ll
// RUN: not %autodiff-opt %tr0.ll -o %tr0.out.ll 2>&1 | FileCheck %s --check-prefix=REV
// RUN: %clang -S -emit-llvm -O2 -DREVERSE %s -o %tr2.ll
// RUN: not %autodiff-opt %tr2.ll -o %tr2.out.ll 2>&1 | FileCheck %s --check-prefix=REV
// RUN: not test -e %tr2.out.ll
// O0-DAG: in function `halves` (while generating `fwddiffe_halves`), `store`: the integer stored here, where a floating-point value may be read, holds byte 0 of the double at byte 0 of `%0` without the rest of it in order
// O2-DAG: in function `halves` (while generating `fwddiffe_halves`), `bitcast`: the integer read as a floating-point value here holds byte 0 of the double at byte 0 of `%0` without the rest of it in order
// ALL-DAG: in function `swapped` (while generating `fwddiffe_swapped`), {{.*}} holds byte 7 of the double at byte 0 of `%0` without the rest of it in order
// ALL-DAG: in function `newexp` (while generating `fwddiffe_newexp`), {{.*}} holds byte 0 of the double at byte 0 of `%0` without the rest of it in order
// O0-DAG: in function `memsplice` (while generating `fwddiffe_memsplice`), `load`: the floating-point value read here holds byte 0 of the double at byte 0 of `%0` without the rest of it in order
// O2-DAG: in function `memsplice` (while generating `fwddiffe_memsplice`), `bitcast`: the integer read as a floating-point value here holds byte 4 of the double at byte 8 of `%0` without the rest of it in order
// O0-DAG: in function `straddle` (while generating `fwddiffe_straddle`), call to `llvm.memcpy.p0.p0.i64`: this access of active memory is not in step with the floating-point values there: bytes 4 to 11 of `%0` cut through the double at byte 0
// O2-DAG: in function `straddle` (while generating `fwddiffe_straddle`), `load`: this access of active memory is not in step with the floating-point values there: bytes 4 to 11 of `%0` cut through the double at byte 0
// REV-DAG: in function `straddle` (while generating `diffe_straddle`), {{.*}}: this access of active memory is not in step with the floating-point values there: bytes 4 to 11 of `%0` cut through the double at byte 0
// Across calls (a helper hunt; forward mode gave numbers at every level):
// a byte-swapped double passed to, or returned from, a helper (the caller
// follows the bytes a helper with one return gives back); the high
// word of one double and the low word of another joined in a helper; a
// helper reading eight bytes from byte 4 of its caller's doubles (also
// reverse mode); a float read from the upper half of a double (reverse
// mode gave a number at -O0/-O1).
// ALL-DAG: in function `swap_into` (while generating `fwddiffe_swap_into`), call to `raw`: the integer passed here, which the callee may read as a floating-point value, holds byte 7 of the double
// ALL-DAG: in function `from_be` (while generating `fwddiffe_from_be`), {{.*}} holds byte 7 of the double
// ALL-DAG: in function `mixed_words` (while generating `fwddiffe_mixed_words`), call to `join`: the integer passed here, which the callee may read as a floating-point value, holds byte {{[04]}} of the double
// ALL-DAG: in function `read_at` (while generating `fwddiffe_read_at`), {{.*}}: this access of active memory is not in step with the floating-point values there
// (Reverse mode inlines the helper at -O0; at -O2 the float of the upper
// half is a bitcast, which reverse mode refuses.)
// REV-DAG: in function `{{misaligned|read_at}}` (while generating `{{diffe_misaligned|augmented_read_at}}`), `load`: this access of active memory is not in step with the floating-point values there
// REV-DAG: in function `upper_half` (while generating `diffe_upper_half`), {{`load`: this access of active memory is not in step with the floating-point values there: bytes 4 to 7|`bitcast`: reverse mode does not yet support reinterpreting}}
#include <stdint.h>
#include <stdio.h>
#include <string.h>
extern int enzyme_dup;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);
double __enzyme_autodiff_d(void *, ...);

double halves(const double *x) {
  uint64_t a, b;
  memcpy(&a, x, 8);
  memcpy(&b, x + 1, 8);
  uint64_t c = (a & 0xffffffffull) | (b & 0xffffffff00000000ull);
  double y;
  memcpy(&y, &c, 8);
  return y * 2.0;
}

double swapped(const double *x) {
  uint64_t a;
  memcpy(&a, x, 8);
  a = __builtin_bswap64(a);
  double y;
  memcpy(&y, &a, 8);
  return y;
}

double newexp(const double *x) {
  uint64_t a;
  memcpy(&a, x, 8);
  a = (a & 0x0000ffffffffffffull) | 0x3ff0000000000000ull;
  double y;
  memcpy(&y, &a, 8);
  return y;
}

double memsplice(const double *x) {
  double y;
  memcpy(&y, x, 4);
  memcpy((char *)&y + 4, (const char *)(x + 1) + 4, 4);
  return y * 2.0;
}

double straddle(const double *x) {
  double y;
  memcpy(&y, (const char *)x + 4, 8);
  return y * 2.0;
}

__attribute__((noinline)) double raw(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

double swap_into(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return raw(__builtin_bswap64(u));
}

__attribute__((noinline)) uint64_t to_be(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return __builtin_bswap64(u);
}

double from_be(double x) {
  uint64_t u = to_be(x);
  double d;
  memcpy(&d, &u, 8);
  return d;
}

__attribute__((noinline)) double join(uint32_t hi, uint32_t lo) {
  uint64_t u = ((uint64_t)hi << 32) | lo;
  double d;
  memcpy(&d, &u, 8);
  return d;
}

double mixed_words(double x) {
  double y = 3.0 * x;
  uint64_t a, b;
  memcpy(&a, &x, 8);
  memcpy(&b, &y, 8);
  return join((uint32_t)(a >> 32), (uint32_t)b);
}

__attribute__((noinline)) double read_at(const void *p) {
  double r;
  memcpy(&r, p, 8);
  return r;
}

double misaligned(double x) {
  double a[2] = {x, x * x};
  return read_at((const char *)a + 4);
}

double upper_half(double x) {
  double a = x * x;
  float h;
  memcpy(&h, (const char *)&a + 4, 4);
  return h;
}

int main(int argc, char **argv) {
  // (Filled at run time, so that the caller's code knows it holds doubles
  // at 0 and 8: a function that alone reads a double at byte 4 of memory
  // nothing else describes cannot be told from a packed struct's reader.)
  double x[2], dx[2];
  x[0] = 1.5 * argc;
  x[1] = -2.25 * argc;
  dx[0] = 1;
  dx[1] = 0;
  double s = 1.5 * argc;
#ifdef REVERSE
  __enzyme_autodiff((void *)straddle, enzyme_dup, x, dx);
  printf("%g %g\n", dx[0], dx[1]);
  printf("%g\n", __enzyme_autodiff_d((void *)misaligned, s));
  printf("%g\n", __enzyme_autodiff_d((void *)upper_half, s));
#else
  printf("%g\n", __enzyme_fwddiff((void *)swap_into, s, 1.0));
  printf("%g\n", __enzyme_fwddiff((void *)from_be, s, 1.0));
  printf("%g\n", __enzyme_fwddiff((void *)mixed_words, s, 1.0));
  printf("%g\n", __enzyme_fwddiff((void *)misaligned, s, 1.0));
  printf("%g\n", __enzyme_fwddiff((void *)halves, enzyme_dup, x, dx));
  printf("%g\n", __enzyme_fwddiff((void *)swapped, enzyme_dup, x, dx));
  printf("%g\n", __enzyme_fwddiff((void *)newexp, enzyme_dup, x, dx));
  printf("%g\n", __enzyme_fwddiff((void *)memsplice, enzyme_dup, x, dx));
  printf("%g\n", __enzyme_fwddiff((void *)straddle, enzyme_dup, x, dx));
#endif
  return 0;
}
