// Forward mode: integer arithmetic on the bits of a caller's doubles read
// through uint64_t pointers (y = 2x by adding one to the exponent, a sign
// flip by a mask passed at run time), stored over doubles. The sums
// carried no tangent and the tangents came back 0 at -O0..-O3 (a helper
// hunt); now a diagnostic naming the integer operation (the caller's
// arrays, initialized from constants, hold doubles), and no output is
// written.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t2.out.ll
// CHECK-DAG: in function `twice` (while generating `fwddiffe_twice`), `add`: integer `add` on the bits of an active floating-point value, used as a floating-point value again
// CHECK-DAG: in function `flip` (while generating `fwddiffe_flip`), `xor`: integer `xor` on the bits of an active floating-point value, used as a floating-point value again
// Where nothing types the memory read (a caller's parameter), the store
// of the computed bits over doubles is the diagnostic.
// CHECK-DAG: in function `twice_unknown` (while generating `fwddiffe_twice_unknown`), `store`: storing integer bits computed from active memory over memory that holds active floating-point data
// A callee adding to the exponent of its caller's float (times two): the
// caller's own type analysis sees the callee's integer writes joined with
// its float there, and the callee alone an integer; at -O1..-O3 the
// tangent came back 0 (-O0 gave the diagnostic). The caller's conflicting
// view now goes into the callee's request.
// CHECK-DAG: in function `twice_bits` (while generating `fwddiffe_twice_bits`), `add`: integer `add` on the bits of an active floating-point value, used as a floating-point value again
#include <stdint.h>
#include <stdio.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_fwddiff(void *, ...);

void twice(double *x, double *y, int n) {
  uint64_t *u = (uint64_t *)x, *v = (uint64_t *)y;
  for (int i = 0; i < n; ++i)
    v[i] = u[i] + (1ull << 52);
}

void flip(double *x, double *y, uint64_t mask, int n) {
  uint64_t *u = (uint64_t *)x, *v = (uint64_t *)y;
  for (int i = 0; i < n; ++i)
    v[i] = u[i] ^ mask;
}

void twice_unknown(double *x, double *y, int n) {
  uint64_t *u = (uint64_t *)x, *v = (uint64_t *)y;
  for (int i = 0; i < n; ++i)
    v[i] = u[i] + (1ull << 52);
}

void run_unknown(double *x, double *dx, double *y, double *dy) {
  y[0] = 1.0;
  __enzyme_fwddiff((void *)twice_unknown, enzyme_dup, x, dx, enzyme_dup, y,
                   dy, 3);
}

__attribute__((noinline)) void twice_bits(float *b) {
  unsigned u;
  memcpy(&u, b, 4);
  u += 1u << 23;
  memcpy(b, &u, 4);
}

float square_twice(float *b) {
  b[0] = b[0] * b[0];
  twice_bits(b);
  return b[0];
}

int main(void) {
  double x[3] = {1.5, -2.25, 0.75}, dx[3] = {1, 1, 1}, y[3], dy[3];
  __enzyme_fwddiff((void *)twice, enzyme_dup, x, dx, enzyme_dup, y, dy, 3);
  printf("%g %g %g\n", dy[0], dy[1], dy[2]);
  __enzyme_fwddiff((void *)flip, enzyme_dup, x, dx, enzyme_dup, y, dy,
                   enzyme_const, 1ull << 63, 3);
  printf("%g %g %g\n", dy[0], dy[1], dy[2]);
  float b = 1.5f, db = 1;
  __enzyme_fwddiff((void *)square_twice, enzyme_dup, &b, &db);
  printf("%g\n", db);
  return 0;
}
