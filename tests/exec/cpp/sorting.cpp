// Standard algorithms that move active doubles, in reverse mode through
// clang++ at -O0..-O3: std::sort (recursive __introsort_loop reached through
// an invoke; at -O3 the insertion step's 8-byte moves are `load i64` /
// `store i64` pairs and memmoves of the buffer), std::sort of more elements
// than the insertion-sort threshold with a comparator, std::stable_sort
// (a temporary buffer), std::nth_element (a median), std::reverse and
// std::rotate, std::swap of structs of doubles, a sort of (value, weight)
// pairs by value. Against central differences, at points away from ties.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
#include "enzyme.h"
#include "fdcheck.h"
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

const int N = 37;

// A rank-weighted sum of squares: a trimmed mean's cousin.
__attribute__((noinline)) double sorted_weights(const double *x, int n) {
  std::vector<double> v(x, x + n);
  for (double &e : v) e = e * e + 0.25 * e;
  std::sort(v.begin(), v.end());
  double s = 0;
  for (int i = 1; i < n - 1; ++i) s += v[i] * (1 + 0.1 * i);
  return s;
}
__attribute__((noinline)) double sorted_descending(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::sort(v.begin(), v.end(), [](double a, double b) { return a > b; });
  double s = 0;
  for (int i = 0; i < n / 3; ++i) s += std::sin(v[i]) * (i + 1);
  return s;
}
__attribute__((noinline)) double stable(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::stable_sort(v.begin(), v.end());
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i] * (i % 4);
  return s;
}
__attribute__((noinline)) double median(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  return std::exp(0.5 * v[n / 2]);
}
__attribute__((noinline)) double reversed_rotated(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::reverse(v.begin(), v.end());
  std::rotate(v.begin(), v.begin() + 5, v.end());
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i] * (i + 1);
  return s * 0.01 * s;
}
struct Pt { double a, b; };
__attribute__((noinline)) double swapped_structs(const double *x, int n) {
  std::vector<Pt> p(n / 2);
  for (int i = 0; i < n / 2; ++i) p[i] = {x[2 * i], x[2 * i + 1]};
  for (int i = 0; i + 1 < n / 2; i += 2) std::swap(p[i], p[i + 1]);
  double s = 0;
  for (int i = 0; i < n / 2; ++i) s += p[i].a * (i + 1) + p[i].b * p[i].b;
  return s;
}
__attribute__((noinline)) double sorted_pairs(const double *x, int n) {
  std::vector<std::pair<double, double>> p;
  for (int i = 0; i + 1 < n; i += 2) p.push_back({x[i], x[i + 1]});
  std::sort(p.begin(), p.end());
  double s = 0;
  for (size_t i = 0; i < p.size(); ++i) s += p[i].second * (i + 1) * p[i].first;
  return s;
}

#define CHECK_GRAD(f)                                                        \
  do {                                                                       \
    double x[N], dx[N] = {0};                                                \
    for (int i = 0; i < N; ++i) x[i] = std::sin(1.3 * i + 0.4) * (1 + 0.07 * i); \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);        \
    for (int k = 0; k < N; ++k) {                                            \
      double a[N], b[N], h = 1e-6;                                           \
      for (int i = 0; i < N; ++i) a[i] = b[i] = x[i];                        \
      a[k] += h;                                                             \
      b[k] -= h;                                                             \
      CHECK_CLOSE_TOL((f(a, N) - f(b, N)) / (2 * h), dx[k], 1e-6, 1e-7);     \
    }                                                                        \
  } while (0)
int main() {
  CHECK_GRAD(sorted_weights);
  CHECK_GRAD(sorted_descending);
  CHECK_GRAD(stable);
  CHECK_GRAD(median);
  CHECK_GRAD(reversed_rotated);
  CHECK_GRAD(swapped_structs);
  CHECK_GRAD(sorted_pairs);
  return fd_report();
}
