// Integer arithmetic on the bits of a caller's doubles that the function
// sees only through a uint64_t pointer (a sign flip by xor): with the
// caller's types in the request it is a diagnostic in reverse mode, at -O0
// and -O2 (it was a silently wrong gradient, dx 1 0 for
// 0 -1), and no output is written.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t2.out.ll
// CHECK: in function `negate_word` (while generating `diffe_negate_word`), {{.*}}reverse mode does not yet support {{storing a computed integer|integer arithmetic on the bits}}
#include <stdint.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

void negate_word(double *x) {
  uint64_t *u = (uint64_t *)x;
  u[0] = u[1] ^ 0x8000000000000000ull;
}

int main(void) {
  double x[2] = {1.5, 2.0}, dx[2] = {1, 0};
  __enzyme_autodiff((void *)negate_word, enzyme_dup, x, dx);
  return dx[1] != -1.0;
}
