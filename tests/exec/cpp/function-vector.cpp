// A std::vector of std::function called on active values, in a program
// whose gradient check also calls functions through pointers (as any test
// harness or callback-based host does). At -O0 the std::function call
// operator is an `invoke` whose handler pointer may, by type, reach every
// address-taken `double(ptr, ptr)` function: the harness's evaluator,
// which calls the differentiated function through its own pointer. The
// call operator was taken for recursive, kept as a call, and refused ("an
// invoke ... that could not be inlined"); an invoke is now inlined unless
// its callee calls itself directly. Reverse gradients checked against
// central differences at -O0..-O3; recursion through virtual calls stays
// covered by recursive-virtual.cpp. (A std::function whose callee calls
// another std::function is still refused: each may, by type, reach the
// other's handler again; docs/status.md.)
//
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
#include "fdcheck.h"
#include "vecfn.h"
#include <cmath>
#include <functional>
#include <vector>

extern "C" {
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
}


/* The request names the function itself (a constant), as it must. */
#define CHECK_REVERSE(f, x, n)                                               \
  do {                                                                       \
    double g_[8] = {0};                                                      \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g_, enzyme_const, n);        \
    VecFnCtx c_{f, n};                                                       \
    CHECK_GRADIENT(vecfn_eval, &c_, x, n, g_);                               \
  } while (0)

static double apply_all(const double *x, int n) {
  std::vector<std::function<double(double)>> fs;
  fs.push_back([](double v) { return v * v; });
  fs.push_back([](double v) { return std::sin(v); });
  fs.push_back([](double v) { return std::exp(-v) * v; });
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += fs[i % 3](x[i]) * x[(i + 1) % n];
  return s;
}

int main() {
  double x[5] = {0.7, -0.2, 1.3, 0.4, -0.9};
  CHECK_REVERSE(apply_all, x, 5);
  return fd_report();
}
