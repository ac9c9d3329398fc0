// Reverse mode of a float packed with an int into the i64 that the x86-64
// ABI passes `struct {float; int;}` in, across noinline helpers: inlined
// (their integer interface would hide the float), the packing that -O2
// leaves (a funnel shift repacking the struct) is integer arithmetic on
// the float's bits, which reverse mode refuses (it was a silently zero
// gradient at -O1..-O3), with no output. At -O0 the packing goes through
// stack slots and folds away (tests/exec/reverse/packed-struct-abi.c).
// RUN: %clang -S -emit-llvm -O2 %s -o %t2.ll
// RUN: not %autodiff-opt %t2.ll -o %t2.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t2.out.ll
// CHECK: in function `packed` (while generating `diffe_packed`), `bitcast`: reverse mode does not yet support reinterpreting the bits of active floating-point data as another type
double __enzyme_autodiff(void *, ...);

typedef struct { float w; int idx; } Weighted;
typedef struct { int tag; float val; } Tagged;
__attribute__((noinline)) Weighted make_weighted(float w, int i) {
  Weighted r = {w * w, i};
  return r;
}
__attribute__((noinline)) Tagged retag(Weighted a) {
  Tagged r = {a.idx, a.w * 2.0f};
  return r;
}
__attribute__((noinline)) float use_tagged(Tagged t) { return t.val * t.tag; }
double packed(double x) { return use_tagged(retag(make_weighted((float)x, 3))); }

int main(void) { return __enzyme_autodiff((void *)packed, 1.25) != 15.0; }
