// Doubles moved as words through uint64_t pointers by a function whose
// requesting caller never uses them as doubles either (it passes `void *`
// on from its own caller): the words' only type was the integer type of
// the copy itself, and the reverse derivative left the adjoints where they
// were (dx 1 2 3 4 for 4 3 2 1, silently, at -O0..-O3). An integer copy is
// now no evidence of integers: without a struct declaring the field
// integer (tests/exec/reverse/struct-integer-fields.c) or a caller typing
// the memory (tests/exec/reverse/integer-view.c) it is a diagnostic, and
// no output is written. Forward mode moves the tangent bits and is right.
// RUN: rm -f %t0.out.ll %t2.out.ll
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t2.out.ll
// CHECK: in function `reverse_words` (while generating `diffe_reverse_words`), `store`: reverse mode does not yet support an integer copy through a pointer to active memory whose type the type analysis cannot deduce
// CHECK-SAME: pass memory that holds none as enzyme_const
#include <stdint.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

void reverse_words(double *x, int n) {
  uint64_t *u = (uint64_t *)x;
  for (int i = 0, j = n - 1; i < j; ++i, --j) {
    uint64_t t = u[i];
    u[i] = u[j];
    u[j] = t;
  }
}

__attribute__((noinline)) void gradient(void *x, void *dx, int n) {
  __enzyme_autodiff((void *)reverse_words, enzyme_dup, x, dx, enzyme_const,
                    n);
}

int main(void) {
  double x[4] = {1, 2, 3, 4}, dx[4] = {1, 2, 3, 4};
  gradient(x, dx, 4);
  return dx[0] != 4.0;
}
