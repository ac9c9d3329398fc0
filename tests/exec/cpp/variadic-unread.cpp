// Calls to variadic functions that never read their variadic arguments
// (no va_start): libstdc++'s std::visit at -O0 calls a lambda whose
// parameter list ends in `...` with active values there, and a C-style
// helper `f(x, ...)` that ignores its extra arguments. Both modes refused
// "a call with active arguments to the variadic function"; the calls now go
// to fixed-arity copies (enzyme_bridge/UnreadVarargs.h). Reverse and
// forward gradients checked against central differences at -O0..-O3; the
// std::visit case not at -O1, where the vector of variants is relocated
// by a copy the type analysis cannot type (a diagnostic, docs/status.md).
//
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
// RUN: env ADTEST_CLANG=%clangxx ADTEST_LEVELS="0 2 3" sh %testlib/run-c.sh %s -std=c++17 -DWITH_VISIT
#include "fdcheck.h"
#include "vecfn.h"
#include <cmath>
#include <variant>
#include <vector>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;
}


/* The request names the function itself (a constant), as it must. */
#define CHECK_BOTH_MODES(f, x, n)                                            \
  do {                                                                       \
    double g_[8] = {0}, t_[8];                                               \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g_, enzyme_const, n);        \
    for (int i_ = 0; i_ < (n); ++i_) {                                       \
      double d_[8] = {0};                                                    \
      d_[i_] = 1;                                                            \
      t_[i_] = __enzyme_fwddiff((void *)f, enzyme_dup, x, d_, enzyme_const,  \
                                n);                                          \
    }                                                                        \
    VecFnCtx c_{f, n};                                                       \
    CHECK_GRADIENT(vecfn_eval, &c_, x, n, g_);                               \
    CHECK_GRADIENT(vecfn_eval, &c_, x, n, t_);                               \
  } while (0)

struct Lin {
  double a;
  double operator()(double t) const { return a * t; }
};
struct Quad {
  double a, b;
  double operator()(double t) const { return a * t * t + b; }
};
using Term = std::variant<Lin, Quad>;

[[maybe_unused]] static double visit_terms(const double *x, int n) {
  std::vector<Term> terms;
  terms.push_back(Lin{x[0]});
  terms.push_back(Quad{x[1], x[2]});
  terms.push_back(Lin{x[3] * x[0]});
  double s = 0;
  for (const auto &t : terms)
    s += std::visit([&](const auto &term) { return term(x[n - 1]); }, t);
  return s;
}

__attribute__((noinline)) static double first_squared(double x, ...) {
  return x * std::sin(x);
}

static double c_variadic(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += first_squared(x[i], x[(i + 1) % n], i) * x[(i + 2) % n];
  return s;
}

int main() {
  double x[5] = {0.7, -0.2, 1.3, 0.4, -0.9};
#ifdef WITH_VISIT
  CHECK_BOTH_MODES(visit_terms, x, 5);
#endif
  CHECK_BOTH_MODES(c_variadic, x, 5);
  return fd_report();
}
