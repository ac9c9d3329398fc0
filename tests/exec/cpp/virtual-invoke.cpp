// Virtual calls made while an object with a destructor is alive: clang
// emits them as `invoke` (the callee may throw, the destructor must run).
// Reverse mode dispatches such an invoke over the module's candidates,
// each an invoke to the same landing pad, and inlines them (once refused:
// "an invoke (a call that may throw) on active data that could not be
// inlined"). Two objectives behind one base pointer, a local std::vector
// of weights, against analytic gradients and central differences.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
#include "enzyme.h"
#include "fdcheck.h"
#include <cmath>
#include <vector>

struct Objective {
  virtual double eval(const double *x) const = 0;
  virtual ~Objective() {}
};
struct Quad : Objective {
  double eval(const double *x) const override {
    return 3 * x[0] * x[0] + x[0] * x[1];
  }
};
struct Wave : Objective {
  double eval(const double *x) const override {
    return std::sin(x[0]) * std::exp(0.5 * x[1]);
  }
};

__attribute__((noinline)) double run(const Objective *o, const double *x,
                                     int n) {
  std::vector<double> w(n, 1.5); // alive across the call: an invoke
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * o->eval(x) * (i + 1);
  return s;
}

int main() {
  Quad q;
  Wave v;
  const Objective *objs[2] = {&q, &v};
  for (int k = 0; k < 2; ++k) {
    double x[2] = {0.7, 1.3}, dx[2] = {0, 0};
    __enzyme_autodiff((void *)run, enzyme_const, objs[k], enzyme_dup, x, dx,
                      enzyme_const, 2);
    for (int i = 0; i < 2; ++i) {
      double a[2] = {0.7, 1.3}, b[2] = {0.7, 1.3}, h = 1e-6;
      a[i] += h;
      b[i] -= h;
      CHECK_CLOSE((run(objs[k], a, 2) - run(objs[k], b, 2)) / (2 * h), dx[i]);
    }
    if (k == 0) {
      // run = 1.5 * 3 * eval: d/dx0 = 4.5 (6 x0 + x1), d/dx1 = 4.5 x0.
      CHECK_CLOSE(4.5 * (6 * 0.7 + 1.3), dx[0]);
      CHECK_CLOSE(4.5 * 0.7, dx[1]);
    }
  }
  return fd_report();
}
