// A set-aside function with a static local keeps the subprogram that the
// static's debug information names as its scope: the body linked back from
// bitcode gets its original debug metadata again, so a debugger sees
// `calls` in `counter_fn` (the first version left the body with a copy of
// the subprogram: two `counter_fn`s in the DWARF, the static in the one
// without code). At -O0 and -O2 (where `helper` inlines it into `other`).
// RUN: %clang -g -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t0.ll
// RUN: %autodiff-opt %t0.ll -S -o %t0.out.ll
// RUN: FileCheck %s < %t0.out.ll
// RUN: %clang -g -S -emit-llvm -O2 %s -o %t2.ll
// RUN: %autodiff-opt %t2.ll -S -o %t2.out.ll
// RUN: FileCheck %s < %t2.out.ll
// RUN: %clang -g %t2.out.ll -o %t2 -lm && %t2
// CHECK: define {{.*}}i32 @counter_fn(i32 {{.*}}!dbg [[SP:![0-9]+]]
// CHECK-DAG: !DIGlobalVariable(name: "calls", scope: [[SP]]
// CHECK-DAG: [[SP]] = distinct !DISubprogram(name: "counter_fn"
// CHECK-NOT: !DISubprogram(name: "counter_fn"
#include <math.h>
double __enzyme_autodiff(void *, ...);

__attribute__((noinline)) int counter_fn(int n) {
  static int calls = 40;
  calls += n;
  return calls;
}
static inline int helper(int n) { return counter_fn(n) * 2; }
__attribute__((noinline)) int other(int n) { return helper(n) + 1; }
double f(double x) { return sin(x) * x; }
__attribute__((noinline)) double run(double x) {
  return __enzyme_autodiff((void *)f, x);
}
int main(void) {
  double x = 1.3;
  return !(other(3) == 87 && fabs(run(x) - (cos(x) * x + sin(x))) < 1e-12);
}
