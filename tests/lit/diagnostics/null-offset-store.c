// A store of an active value through null plus a run-time offset: that
// is an integer made a pointer, not a path that faults, and its memory
// has no shadow: a diagnostic, no output.
// RUN: %clang -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t.ll
// RUN: rm -f %t.out.ll
// RUN: not %autodiff-opt %t.ll -o %t.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t.out.ll
// CHECK: in function `at_offset` (while generating `diffe_at_offset`), `store`: reverse mode does not yet support a store of active data through a pointer that was taken for inactive
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
double at_offset(double x, long k) {
  double *p = (double *)0;
  p[k] = x * 2;
  return p[k];
}
double grad(double x, long k) {
  return __enzyme_autodiff((void *)at_offset, x, enzyme_const, k);
}
