// Records and float pairs moved through a `double` temporary (memcpy into
// a double and out again): a load and stores of double over memory that
// holds a float and an int. The adjoints were moved as doubles, silently
// wrong (found by a hunt: a float field's gradient came back as -1.5e-37
// instead of 21). A move of doubles or floats over memory the rest of the
// code shows holding another layout (here the requesting caller's float at
// the record's start) is now a move of an integer of its width, typed by
// the memory where it can be, a diagnostic where it cannot (the record's
// int is unknown to the callee). No output.
// RUN: rm -f %t0.out.ll %t2.out.ll
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t0.out.ll
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t2.out.ll
// CHECK: in function `dup2` (while generating `diffe_dup2`), `store`: reverse mode does not yet support an integer access to memory that holds active floating-point data
#include <string.h>
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

typedef struct { float w; int k; } rec;

void dup2(rec *restrict b, const rec *restrict a) {
  double t;
  memcpy(&t, a, 8);
  memcpy(&b[0], &t, 8);
  memcpy(&b[1], &t, 8);
}

void gradient(rec *b, rec *db, rec *a, rec *da) {
  a->w = 0.5f;
  a->k = 3;
  __enzyme_autodiff((void *)dup2, enzyme_dup, b, db, enzyme_dup, a, da);
}
