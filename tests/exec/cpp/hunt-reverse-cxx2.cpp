// Reverse mode on C++ at -O0..-O3: a std::vector<std::vector<double>>
// matrix built inside the function, a try/catch around a helper that may
// throw (it does not here), and a CRTP class template whose member and
// field are both active. Checked against finite differences and analytic
// gradients.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"
#include <cmath>
#include <stdexcept>
#include <vector>
extern "C" double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
double vv(const double *x, int n) {
  std::vector<std::vector<double>> m(n, std::vector<double>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m[i][j] = x[i] * x[j] + (i == j);
  double s = 0;
  for (auto &r : m) for (double v : r) s += v * v;
  return s;
}
static double checked_sqrt(double v) {
  if (v < 0) throw std::domain_error("negative");
  return std::sqrt(v);
}
double safe_norm(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  try {
    return checked_sqrt(s);
  } catch (const std::domain_error &) {
    return 0;
  }
}
template <class D> struct Base { double eval(double x) const { return static_cast<const D *>(this)->impl(x) * 2; } };
struct Sq : Base<Sq> { double k; double impl(double x) const { return k * x * x; } };
double crtp(const Sq *s, double x) { return s->eval(x) + s->k * x; }
struct ctx { int n; };
static double vv_F(const double *v, void *p) { return vv(v, ((ctx *)p)->n); }
int main() {
  double x[4] = {0.5, -1.0, 1.5, 0.25}, dx[4] = {0};
  __enzyme_autodiff((void *)vv, enzyme_dup, x, dx, enzyme_const, 4);
  ctx c{4};
  for (int i = 0; i < 4; ++i) { double e[4] = {0}; e[i] = 1; CHECK_CLOSE_TOL(fd_dir(vv_F, &c, x, e, 4), dx[i], 1e-6, 1e-8); }
  double dy[4] = {0};
  __enzyme_autodiff((void *)safe_norm, enzyme_dup, x, dy, enzyme_const, 4);
  double nr = safe_norm(x, 4);
  for (int i = 0; i < 4; ++i) CHECK_CLOSE(x[i] / nr, dy[i]);
  Sq s; s.k = 1.5; Sq ds; ds.k = 0;
  double dxs = __enzyme_autodiff((void *)crtp, enzyme_dup, &s, &ds, 0.8);
  CHECK_CLOSE(2 * 2 * 1.5 * 0.8 + 1.5, dxs);
  CHECK_CLOSE(2 * 0.64 + 0.8, ds.k);
  return fd_report();
}
