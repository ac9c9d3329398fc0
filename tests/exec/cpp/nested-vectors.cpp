// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
//
// std::vector buffers reached through pointers loaded from memory: rows of
// a std::vector<std::vector<double>> grown after reserve (the growth's
// memmove reads the row's buffer pointer from the outer vector's memory),
// and std::copy between two vectors passed in (a memmove between buffers
// loaded from the vector objects). Both memmoves were refused as copies of
// memory of unknown type: nothing typed the loaded buffer pointers. The
// type analysis now types a pointer loaded from a field by what is known
// of the other pointers loaded from or stored into that field (the loops
// that read the elements). Found by the C++ hunt. Gradients against finite
// differences and the analytic values.
#include "enzyme.h"
#include "fdcheck.h"
#include <vector>
#include <algorithm>
/* rows grown with reserve + push_back inside a vector of vectors */
double rows(const double *x, int n) {
  std::vector<std::vector<double>> m(3);
  for (int r = 0; r < 3; ++r) {
    m[r].reserve(2);
    for (int c = 0; c < n; ++c) m[r].push_back(x[c] * (r + 1) + 0.1 * c);
  }
  double acc = 0;
  for (auto &row : m)
    for (double a : row) acc += a * a;
  return acc;
}
static double rows_fd(const double *x, void *c) { return rows(x, *(int *)c); }
/* std::copy between two vectors passed in, then an in-place transform */
double copied(std::vector<double> *a, std::vector<double> *b) {
  std::copy(a->begin(), a->end(), b->begin());
  std::transform(b->begin(), b->end(), b->begin(), [](double v) { return v * v; });
  double s = 0;
  for (size_t i = 0; i < b->size(); ++i) s += (*b)[i] * (i + 1);
  return s;
}
int main() {
  double x[5] = {0.6, -0.4, 1.1, 0.3, -0.9}, dx[5] = {0};
  int n = 5;
  __enzyme_autodiff((void *)rows, enzyme_dup, x, dx, enzyme_const, n);
  CHECK_GRADIENT(rows_fd, &n, x, 5, dx);
  std::vector<double> a(x, x + 5), b(5, 0.0), da(5, 0.25), db(5, 1.0);
  __enzyme_autodiff((void *)copied, enzyme_dup, &a, &da, enzyme_dup, &b, &db);
  for (int i = 0; i < 5; ++i) {
    /* b's seed (1.0) is the adjoint of b's final values, b[i] = a[i]^2 */
    CHECK_CLOSE(0.25 + 2 * x[i] * (i + 1) + 2 * x[i] * 1.0, da[i]);
    CHECK(db[i] == 0); /* b is overwritten: its seed was consumed */
  }
  return fd_report();
}
