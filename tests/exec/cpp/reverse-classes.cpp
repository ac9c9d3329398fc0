// Reverse mode on C++ through clang++ at -O1..-O3: a member function reading
// a std::vector of weights through a const object, and a std::vector
// temporary built from the input (operator new under an invoke, memmove from
// std::copy). At -O0 the vector's copy goes through layers whose memory type
// the type analysis cannot see yet: a diagnostic, tested in lit.
// RUN: env ADTEST_CLANG=%clangxx ADTEST_LEVELS="1 2 3" sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <cmath>
#include <vector>

extern "C" double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;

struct Model {
  std::vector<double> w;
  double loss(const double *x, int n) const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += w[i % w.size()] * std::sin(x[i]) * x[i];
    return s;
  }
};
static double loss_of(const Model *m, const double *x, int n) {
  return m->loss(x, n);
}
double vec_norm(const double *x, int n) {
  std::vector<double> t(x, x + n);
  double s = 0;
  for (double v : t)
    s += v * v;
  return std::sqrt(s);
}

int main() {
  Model m{{1.0, 2.0, 3.0}};
  double x[5] = {0.5, 1.0, 1.5, 2.0, -0.7}, dx[5] = {0};
  __enzyme_autodiff((void *)loss_of, enzyme_const, &m, enzyme_dup, x, dx,
                    enzyme_const, 5);
  for (int i = 0; i < 5; ++i)
    CHECK_CLOSE(m.w[i % 3] * (std::cos(x[i]) * x[i] + std::sin(x[i])), dx[i]);
  double dy[5] = {0};
  __enzyme_autodiff((void *)vec_norm, enzyme_dup, x, dy, enzyme_const, 5);
  double nrm = vec_norm(x, 5);
  for (int i = 0; i < 5; ++i)
    CHECK_CLOSE(x[i] / nrm, dy[i]);
  return fd_report();
}
