// A memmove of run-time length over packed records whose only float field
// is a double at offset 1 (15-byte records): the facts were all doubles,
// so the copy's adjoint was moved as an array of doubles from offset 0,
// silently wrong (found by a hunt: dr[0].x came back as -5e-308 instead of
// 13.8). Doubles at offsets that are not multiples of their size are no
// array of doubles; with no record type to read the layout from (the
// pointers are `p` and `p + 1`), the copy is a diagnostic. No output.
// RUN: rm -f %t0.out.ll %t2.out.ll
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t2.out.ll
// CHECK: in function `f` (while generating `diffe_f`), call to `llvm.memmove.p0.p0.i64`: reverse mode does not yet support a memory copy of active data whose type is mixed or unknown
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

typedef struct __attribute__((packed)) {
  char c;
  double x;
  short s;
  float f;
} item;

double f(item *p, int n) {
  memmove(p + 1, p, (n - 2) * sizeof(item));
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += (i + 1) * p[i].x * p[i].x;
  return r;
}

void gradient(item *p, item *dp, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, p, dp, enzyme_const, n);
}
