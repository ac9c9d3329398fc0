// Integers on memory that holds active doubles, in reverse mode (a helper
// hunt found each silently wrong, exit 0): an integer constant stored over
// doubles replaces them (their adjoint is cleared: gradient 0, it leaked
// through); a double copied as int64_t through noinline helpers is a copy
// (the helpers are inlined so the copy is typed: it was a zero gradient);
// bits computed with (a sign flip by xor, also through a union array) and
// a memcpy into a global without a shadow are diagnostics (they gave 0, or
// +2 for -2).
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone -DGOOD %s -o %tg0.ll
// RUN: %autodiff-opt %tg0.ll -o %tg0.out.ll && %clang %tg0.out.ll -o %tg0 && %tg0
// RUN: %clang -S -emit-llvm -O2 -DGOOD %s -o %tg2.ll
// RUN: %autodiff-opt %tg2.ll -o %tg2.out.ll && %clang %tg2.out.ll -o %tg2 && %tg2
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s --check-prefixes=ALL,O0
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s --check-prefix=ALL
// ALL-DAG: in function `neg` (while generating `diffe_neg`), `store`: reverse mode does not yet support storing a computed integer over memory that holds active floating-point data
// ALL-DAG: in function `union_neg` (while generating `diffe_union_neg`), {{.*}}reverse mode does not yet support {{storing a computed integer|integer arithmetic on the bits}}
// O0-DAG: in function `via_global` (while generating `diffe_via_global`), call to `llvm.memcpy.p0.p0.i64`: copying active data into memory whose shadow is unknown; give the global `g_slot` a shadow
#include <stdint.h>
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

#ifdef GOOD
__attribute__((noinline)) double overwritten(double *x, int n) {
  double y[16];
  for (int i = 0; i < n; ++i) y[i] = x[i] * 2.0;
  int64_t *q = (int64_t *)y;
  for (int i = 0; i < n; ++i) q[i] = 0x3ff0000000000000LL; // 1.0
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i] * y[i] + x[i];
  return s;
}
__attribute__((noinline)) static int64_t getbits(const double *p, int i) {
  int64_t b;
  memcpy(&b, p + i, 8);
  return b;
}
__attribute__((noinline)) static void putbits(double *p, int i, int64_t b) {
  memcpy(p + i, &b, 8);
}
__attribute__((noinline)) double reversed(double *x, int n) {
  double y[16];
  for (int i = 0; i < n; ++i) putbits(y, n - 1 - i, getbits(x, i));
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i] * y[i] * (i + 1);
  return s;
}
// A generic word swap, as qsort-style code writes it: inlined, so the
// caller's doubles type its copies (kept out of line, its `long` accesses
// moved no adjoints, and alias analysis took them for accesses that cannot
// touch doubles: the sort's decisions were re-read from sorted memory).
typedef struct { double x, y; } P;
__attribute__((noinline)) static void wswap(long *p, long *q, int words) {
  for (int k = 0; k < words; k++) {
    long t = p[k];
    p[k] = q[k];
    q[k] = t;
  }
}
__attribute__((noinline)) double bubble(P *p, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j + 1 < n - i; j++)
      if (p[j].x > p[j + 1].x)
        wswap((long *)&p[j], (long *)&p[j + 1], 2);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * p[i].y * p[i].x;
  return s;
}
int main(void) {
  P p[3] = {{0.3, 0.1}, {0.9, 0.2}, {0.5, 0.4}}, dp[3] = {{0}};
  __enzyme_autodiff((void *)bubble, enzyme_dup, p, dp, enzyme_const, 3);
  // Sorted by x: (0.3, 0.1), (0.5, 0.4), (0.9, 0.2), weights 1, 2, 3.
  if (dp[0].x != 0.1 || dp[0].y != 0.3 || dp[2].x != 2 * 0.4 ||
      dp[2].y != 2 * 0.5 || dp[1].x != 3 * 0.2 || dp[1].y != 3 * 0.9)
    return 2;
  double x[2] = {0.7, -0.3}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)overwritten, enzyme_dup, x, dx, enzyme_const, 2);
  if (dx[0] != 1 || dx[1] != 1) // only the + x[i] term
    return 1;
  dx[0] = dx[1] = 0;
  __enzyme_autodiff((void *)reversed, enzyme_dup, x, dx, enzyme_const, 2);
  // y = (x1, x0): s = x1^2 + 2 x0^2.
  return dx[0] != 4 * 0.7 || dx[1] != 2 * -0.3;
}
#else
__attribute__((noinline)) double neg(double *x, int n) {
  double y[16];
  uint64_t *p = (uint64_t *)x, *q = (uint64_t *)y;
  for (int i = 0; i < n; ++i) q[i] = p[i] ^ 0x8000000000000000ull;
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i];
  return s;
}
typedef union { double d; int64_t i; } U;
__attribute__((noinline)) double union_neg(double *x, int n) {
  U a[16];
  for (int i = 0; i < n; ++i) a[i].d = x[i] * 2.0;
  for (int i = 0; i < n; ++i) a[i].i ^= (int64_t)1 << 63;
  double s = 0;
  for (int i = 0; i < n; ++i) s += a[i].d;
  return s;
}
int64_t g_slot;
__attribute__((noinline)) double via_global(double *x, int n) {
  double y[16];
  for (int i = 0; i < n; ++i) {
    memcpy(&g_slot, &x[i], 8);
    memcpy(&y[i], &g_slot, 8);
  }
  double s = 0;
  for (int i = 0; i < n; ++i) s += y[i] * y[i];
  return s;
}
void grads(double *x, double *dx) {
  __enzyme_autodiff((void *)neg, enzyme_dup, x, dx, enzyme_const, 2);
  __enzyme_autodiff((void *)union_neg, enzyme_dup, x, dx, enzyme_const, 2);
  __enzyme_autodiff((void *)via_global, enzyme_dup, x, dx, enzyme_const, 2);
}
#endif
