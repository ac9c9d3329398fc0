// An invoke (an object with a destructor is live) of a recursive function
// that can throw, at -O0: a diagnostic naming the call (it crashed while
// keeping the invoke's result: the cache was stored after the block's
// terminator). At -O1 and above the same program differentiates.
// RUN: %clangxx -std=c++17 -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t0.ll
// RUN: not %autodiff-opt %t0.ll -o %t0.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t0.out.ll
// RUN: %clangxx -std=c++17 -O2 -S -emit-llvm %s -o %t2.ll
// RUN: %autodiff-opt %t2.ll -o %t2.out.ll && %clangxx %t2.out.ll -o %t2 && %t2
// CHECK: in function `_Z1fPdi` (while generating `diffe__Z1fPdi`), invoke of `_ZL3recPdii`: reverse mode does not yet support an invoke (a call that may throw) on active data that could not be inlined
#include <cmath>
#include <stdexcept>
#include <vector>
extern "C" {
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
}
static double rec(double *a, int n, int depth) {
  if (depth > 1000)
    throw std::runtime_error("deep");
  if (n == 1)
    return std::sin(a[0]);
  return rec(a, n / 2, depth + 1) + rec(a + n / 2, n - n / 2, depth + 1);
}
struct Guard {
  std::vector<int> v;
  Guard() : v(3) {}
};
__attribute__((noinline)) double f(double *x, int n) {
  Guard g;
  double r = rec(x, n, g.v[0]);
  return r * r;
}
int main() {
  double x[2] = {0.7, -0.3}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 2);
  // f = (sin x0 + sin x1)^2: df/dxi = 2 (sin x0 + sin x1) cos xi.
  double s = std::sin(0.7) + std::sin(-0.3);
  return std::fabs(dx[0] - 2 * s * std::cos(0.7)) > 1e-12 ||
         std::fabs(dx[1] - 2 * s * std::cos(-0.3)) > 1e-12;
}
