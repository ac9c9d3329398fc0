// A pointer slot that holds the active argument's pointer in one iteration
// and the constant argument's in the next: the shadow slot kept the active
// shadow, so the adjoints of the constant array's loads landed in the
// active gradient (dz = 16 instead of 6 at -O0). Now a diagnostic naming
// the store and the constant argument (at -O1 the slot becomes a select of
// the two pointers, refused too).
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.0.ll
// RUN: not %autodiff-opt %t.0.ll -o %t.0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t.0.out.ll
// RUN: %clang -S -emit-llvm -O1 %s -o %t.1.ll
// RUN: not %autodiff-opt %t.1.ll -o %t.1.out.ll 2>&1 | FileCheck %s --check-prefix=SELECT
// RUN: %clang -S -emit-llvm -O2 %s -o %t.2.ll
// RUN: not %autodiff-opt %t.2.ll -o %t.2.out.ll 2>&1 | FileCheck %s
// CHECK: error: in function `f` (while generating `diffe_f`), `store`: reverse mode does not yet support storing a pointer without shadow memory into memory that holds active data (the analyses do not yet tell a struct's fields apart); the pointer points into {{.*}}, which is constant
// CHECK-NEXT: {{^}}  instruction: store ptr
// SELECT: error: in function `f` (while generating `diffe_f`), `select`: reverse mode does not yet support a select between an active pointer and one without shadow memory

double __enzyme_autodiff(void *, ...);
extern int enzyme_const, enzyme_dup;

__attribute__((noinline)) double f(double *z, double *w) {
  double *slot[1];
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    if (i == 0)
      slot[0] = z;
    else
      slot[0] = w;
    double *p = *(double *volatile *)slot;
    s += p[0] * p[0];
  }
  return s;
}

int main(void) {
  double z[1] = {3}, dz[1] = {0}, w[1] = {5};
  __enzyme_autodiff((void *)f, enzyme_dup, z, dz, enzyme_const, w);
  return dz[0] != 6;
}
