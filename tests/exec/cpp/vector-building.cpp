// std::vector built inside the differentiated function, in reverse mode
// through clang++ at -O0..-O3: resize (once "a phi joining an active
// pointer and one without shadow memory": the buffer before it is filled
// is inactive on one path into the phi), resize with a value, reserve and
// push_back past the capacity, assign, a vector of vectors. Against central
// differences.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
#include "enzyme.h"
#include "fdcheck.h"
#include <cmath>
#include <vector>
#include <numeric>
// std::vector built in the differentiated function: resize, resize with a
// value, reserve + push_back, assign, a vector of vectors.
__attribute__((noinline)) double resized(const double *x, int n) {
  std::vector<double> v;
  v.resize(n);
  for (int i = 0; i < n; ++i) v[i] = x[i];
  double s = 0;
  for (double e : v) s += e * e;
  return s;
}
__attribute__((noinline)) double resized_value(const double *x, int n) {
  std::vector<double> v;
  v.resize(n, 0.5);
  for (int i = 0; i < n; ++i) v[i] += x[i] * x[(i + 1) % n];
  return std::accumulate(v.begin(), v.end(), 0.0);
}
__attribute__((noinline)) double pushed(const double *x, int n) {
  std::vector<double> v;
  v.reserve(2);
  for (int i = 0; i < n; ++i) v.push_back(std::sin(x[i]));
  for (int i = 0; i < n; ++i) v.push_back(x[i] * v[i]);
  double s = 0;
  for (double e : v) s += e;
  return s;
}
__attribute__((noinline)) double assigned(const double *x, int n) {
  std::vector<double> v;
  v.assign(x, x + n);
  v.push_back(x[0] * 3);
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += v[i] * (i + 1);
  return s * s;
}
__attribute__((noinline)) double nested(const double *x, int n) {
  std::vector<std::vector<double>> rows(n, std::vector<double>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) rows[i][j] = x[i] * x[j];
  double s = 0;
  for (auto &r : rows) s += std::exp(0.1 * std::accumulate(r.begin(), r.end(), 0.0));
  return s;
}
#define CHECK_GRAD(f)                                                        \
  do {                                                                       \
    const int n = 4;                                                         \
    double x[n] = {0.3, -1.2, 2.5, 0.8}, dx[n] = {0};                        \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);        \
    for (int k = 0; k < n; ++k) {                                            \
      double a[n], b[n], h = 1e-6;                                           \
      for (int i = 0; i < n; ++i) a[i] = b[i] = x[i];                        \
      a[k] += h;                                                             \
      b[k] -= h;                                                             \
      CHECK_CLOSE((f(a, n) - f(b, n)) / (2 * h), dx[k]);                     \
    }                                                                        \
  } while (0)
int main() {
  CHECK_GRAD(resized);
  CHECK_GRAD(resized_value);
  CHECK_GRAD(pushed);
  CHECK_GRAD(assigned);
  CHECK_GRAD(nested);
  return fd_report();
}
