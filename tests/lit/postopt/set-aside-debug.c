// Set-aside functions keep their debug information: the bodies linked back
// after post-optimization bring copies of the compile unit, which are
// folded into the module's own (one compile unit in the output; the
// primal `f`, which the derivative does not reach, keeps its subprogram in
// it), and the program still builds with -g and runs right. At -O0 (the
// constructor is set aside too) and -O2 (clang has already evaluated it).
// RUN: %clang -g -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: %autodiff-opt %t0.ll -S -o %t0.out.ll
// RUN: FileCheck %s < %t0.out.ll
// RUN: %clang -g %t0.out.ll -o %t0 -lm && %t0
// RUN: %clang -g -S -emit-llvm -O2 %s -o %t2.ll
// RUN: %autodiff-opt %t2.ll -S -o %t2.out.ll
// RUN: FileCheck %s < %t2.out.ll
// RUN: %clang -g %t2.out.ll -o %t2 -lm && %t2
// CHECK: define dso_local double @f(double noundef %0) {{.*}}!dbg [[F:![0-9]+]]
// CHECK: !llvm.dbg.cu = !{[[CU:![0-9]+]]}
// CHECK: [[CU]] = distinct !DICompileUnit(
// CHECK-NOT: !DICompileUnit(
// CHECK: [[F]] = distinct !DISubprogram(name: "f", {{.*}}unit: [[CU]]
// CHECK-NOT: !DICompileUnit(
#include <math.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

static double scale = 1.0;
static int ctor_steps;

__attribute__((noinline)) static int steps(int n, int k) { return n * k; }

__attribute__((constructor)) static void init(void) {
  scale = 3.0;
  ctor_steps = steps(3, 4);
}

double f(double x) {
  double s = 0.0;
  int n = steps(2, 1);
  for (int i = 0; i < n; ++i)
    s += sin(x * (i + 1));
  return scale * s;
}

int main(void) {
  double x = 0.7;
  double want = 3.0 * (cos(x) + 2.0 * cos(2.0 * x));
  double dx = __enzyme_autodiff((void *)f, x);
  return !(fabs(dx - want) < 1e-12 && ctor_steps == 12);
}
