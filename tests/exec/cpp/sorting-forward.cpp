// Forward mode through std::sort of a std::vector<double> (clang++ -O0..-O3).
// At -O0 the introsort's depth limit, 2 * log2(last - first), is computed
// from the distance of two iterators that a helper returns; the helper's
// integer result was taken for the bits of a double and the limit's
// multiplication refused ("integer mul on the bits of an active
// floating-point value"). Against central differences along a direction,
// at a point away from ties; reverse mode of the same in sorting.cpp.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
#include "enzyme.h"
#include "fdcheck.h"
#include <algorithm>
#include <vector>

double weighted_sorted(const double *x, int n) {
  std::vector<double> v(x, x + n);
  std::sort(v.begin(), v.end());
  double s = 0;
  for (int i = 0; i < n; i++)
    s += (i + 1) * v[i] * v[i];
  return s;
}

enum { N = 20 };
static double weighted_of(const double *x, void *) {
  return weighted_sorted(x, N);
}

int main() {
  double x[N], dir[N];
  for (int i = 0; i < N; i++) {
    x[i] = ((i * 7) % N) * 0.37 - 3.1;
    dir[i] = 1.0 + 0.1 * i;
  }
  CHECK_CLOSE(fd_dir(weighted_of, nullptr, x, dir, N),
              __enzyme_fwddiff((void *)weighted_sorted, enzyme_dup, x, dir,
                               enzyme_const, N));
  return fd_report();
}
