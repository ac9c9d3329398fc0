// A std::function calling another that captures a duplicated pointer
// (-O2 and -O3, where both are inlined): the inner capture travels as an
// integer through the outer one's small buffer (ptrtoint, an i64 slot,
// inttoptr). Its shadow was null: the adjoint was stored through null
// (a segfault, or main folded to `unreachable`; C++ hunt). At -O0 and
// -O1 the calls through the function objects stay indirect invokes: a
// diagnostic.
// RUN: env ADTEST_CLANG=%clangxx ADTEST_LEVELS="2 3" sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <functional>

extern "C" {
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
}

static double integrate(std::function<double(double)> f, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += f(0.1 * i);
  return s;
}

double loss(const double *p) {
  std::function<double(double)> model = [p](double t) { return p[0] * t + p[1]; };
  std::function<double(double)> sq = [&model](double t) {
    double m = model(t);
    return m * m;
  };
  return integrate(sq, 4);
}

int main() {
  double p[2] = {2.0, -0.3}, dp[2] = {0};
  __enzyme_autodiff((void *)loss, enzyme_dup, p, dp);
  double d0 = 0, d1 = 0;
  for (int i = 0; i < 4; ++i) {
    double t = 0.1 * i, m = p[0] * t + p[1];
    d0 += 2 * m * t;
    d1 += 2 * m;
  }
  CHECK_CLOSE(d0, dp[0]);
  CHECK_CLOSE(d1, dp[1]);
  return fd_report();
}
