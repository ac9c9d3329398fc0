// A C++ kernel with a std::vector temporary
// (tests/lit/tools/autodiff-compare.test): operator new is counted too.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

extern int enzyme_dup, enzyme_const;
extern "C" void __enzyme_autodiff(void *, ...);

double energy(const double *x, int n) {
  std::vector<double> t(n);
  for (int i = 0; i < n; i++)
    t[i] = std::sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  return s;
}

static double x[100];

extern "C" {
void setup_vec(void) {
  for (int i = 0; i < 100; i++)
    x[i] = 0.01 * i;
}
double primal_vec(void) { return energy(x, 100); }
size_t gradient_vec(double *grad, size_t cap) {
  std::memset(grad, 0, 100 * sizeof(double));
  __enzyme_autodiff((void *)energy, enzyme_dup, x, grad, enzyme_const, 100);
  return 100;
}
}
