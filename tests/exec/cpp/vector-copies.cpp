// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
//
// Copies of std::vector<double> whose buffer the type analysis could not
// see: a vector filled by push_back then copy-constructed (the copy's
// memmove reads the growing buffer through the loop's pointer phi), a
// std::vector<std::vector<double>> built from copies of one row and then
// copied whole (each row's memmove reads a buffer pointer loaded from a
// loop walking the outer buffer), a struct holding two vectors copied and
// passed by value, and a row built from a local array initialized from a
// constant (at -O0, a memcpy from a constant global). All were refused
// ("memory copy of active data whose type is mixed or unknown"). Copies
// through a pointer phi now join the types of each pointer it may choose;
// loads and stores through a pointer walking an array by a constant step
// share the field of each element; a constant global's initializer types
// the floats it holds. Gradients against finite differences and the
// analytic values.
#include "enzyme.h"
#include "fdcheck.h"
#include <cmath>
#include <vector>

/* push_back, then a copy of the grown vector */
double grown_copy(const double *x, int n) {
  std::vector<double> a;
  for (int i = 0; i < n; ++i) a.push_back(x[i] * 0.3);
  std::vector<double> b = a;
  std::vector<std::vector<double>> m(2, b);
  double s = 0;
  for (auto &r : m) for (double v : r) s += v * v;
  return s;
}

/* a vector of vectors built from copies of one row, copied whole */
double rows_copied(const double *x, int n) {
  std::vector<std::vector<double>> rows(3, std::vector<double>(x, x + n));
  std::vector<std::vector<double>> copy = rows;
  double s = 0;
  for (size_t r = 0; r < copy.size(); ++r)
    for (size_t k = 0; k < copy[r].size(); ++k) s += (r + 1) * copy[r][k] * copy[r][k];
  return s;
}

struct Layer { std::vector<double> w, b; int n; };
static double apply(Layer L, const double *x) {
  double s = 0;
  for (int i = 0; i < L.n; ++i) s += std::tanh(L.w[i] * x[i] + L.b[i]);
  return s;
}
/* a struct of vectors copied, and passed by value */
double layer_copied(const double *x, int n) {
  Layer L;
  L.n = n;
  for (int i = 0; i < n; ++i) { L.w.push_back(0.5 + 0.1 * i); L.b.push_back(x[i] * 0.3); }
  Layer M = L;
  return apply(M, x);
}

/* a row from a constant-initialized local array, scaled by x */
double from_constant(const double *x, int n) {
  double c[4] = {1.5, -2.0, 0.25, 3.0};
  std::vector<double> row(c, c + 4);
  std::vector<double> copy = row;
  double s = 0;
  for (int i = 0; i < n; ++i) s += copy[i % 4] * x[i] * x[i];
  return s;
}

typedef double (*Loss)(const double *, int);
struct Ctx { Loss f; int n; };
static double call(const double *x, void *c) { Ctx *k = (Ctx *)c; return k->f(x, k->n); }

int main() {
  const int n = 4;
  double x[n] = {0.3, -0.7, 1.1, 0.2};
  double d1[n] = {0}, d2[n] = {0}, d3[n] = {0}, d4[n] = {0};
  __enzyme_autodiff((void *)grown_copy, enzyme_dup, x, d1, enzyme_const, n);
  __enzyme_autodiff((void *)rows_copied, enzyme_dup, x, d2, enzyme_const, n);
  __enzyme_autodiff((void *)layer_copied, enzyme_dup, x, d3, enzyme_const, n);
  __enzyme_autodiff((void *)from_constant, enzyme_dup, x, d4, enzyme_const, n);
  Ctx c1 = {grown_copy, n}, c2 = {rows_copied, n}, c3 = {layer_copied, n}, c4 = {from_constant, n};
  CHECK_GRADIENT(call, &c1, x, n, d1);
  CHECK_GRADIENT(call, &c2, x, n, d2);
  CHECK_GRADIENT(call, &c3, x, n, d3);
  CHECK_GRADIENT(call, &c4, x, n, d4);
  const double c[4] = {1.5, -2.0, 0.25, 3.0};
  for (int i = 0; i < n; ++i) {
    CHECK_CLOSE(2 * 2 * 0.09 * x[i], d1[i]);  /* 2 rows of (0.3 x)^2 */
    CHECK_CLOSE(2 * 6 * x[i], d2[i]);         /* (1 + 2 + 3) x^2 */
    double w = 0.5 + 0.1 * i, t = std::tanh(w * x[i] + 0.3 * x[i]);
    CHECK_CLOSE((1 - t * t) * (w + 0.3), d3[i]);
    CHECK_CLOSE(2 * c[i % 4] * x[i], d4[i]);
  }
  return fd_report();
}
