// A std::vector grown by push_back in a function of its own, after its
// caller read the vector's first element. At -O0 the growth inlined into
// the caller keeps a construction through null (the new buffer of a
// vector of zero capacity, never taken): it was refused ("memory whose
// shadow is unknown"). Gradients against finite differences, at every
// level.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "enzyme.h"
#include "fdcheck.h"
#include <vector>
#include <cstring>
enum { N = 6 };
__attribute__((noinline)) void grow(std::vector<double> &v, const double *x) {
  for (int i = 0; i < N; ++i) v.push_back(x[i] * v.back() + sin(x[i]));
}
extern "C" double loss(const double *x) {
  std::vector<double> v;
  v.push_back(x[0]);
  double a = v[0] * v[0];
  grow(v, x);
  double s = a;
  for (double e : v) s += e * e;
  return s;
}
static double loss_fd(const double *x, void *) { return loss(x); }
int main() {
  double x[N] = {0.3, -0.5, 0.7, 1.1, -0.2, 0.4}, dx[N];
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx);
  CHECK_GRADIENT(loss_fd, 0, x, N, dx);
  return fd_report();
}
