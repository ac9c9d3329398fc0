// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
//
// Virtual calls inside virtual functions, reached through
// std::vector<std::unique_ptr<Shape>> (an invoke, for the vector's
// cleanup). Every method has type double(const Shape *), so a call through
// a pointer of that type had every one of them as candidate: Tri::area's
// call of perim() could reach Tri::area itself, which made it recursive,
// so it could not be inlined at the invoke, and the derivative stopped at
// run time ("could not be differentiated") at -O0..-O3. Found by the C++
// hunt. A virtual call's candidates are now what its vtable slot holds in
// the module's vtables. Gradients against the analytic values and finite
// differences.
#include "enzyme.h"
#include "fdcheck.h"
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual double perim() const = 0;
  virtual double scale() const { return 1.0; }
};
struct Tri : Shape {
  double a;
  explicit Tri(double a) : a(a) {}
  double perim() const override { return 3 * a; }
  double area() const override { return perim() * a * scale(); }
  double scale() const override { return 0.5; }
};
struct Sq : Shape {
  double a;
  explicit Sq(double a) : a(a) {}
  double perim() const override { return 4 * a; }
  double area() const override { return a * a + perim(); }
};

double loss(const double *x) {
  std::vector<std::unique_ptr<Shape>> v;
  v.push_back(std::make_unique<Tri>(x[0]));
  v.push_back(std::make_unique<Sq>(x[1]));
  v.push_back(std::make_unique<Tri>(x[0] * x[1]));
  double s = 0;
  for (auto &p : v) s += p->area() * p->perim();
  return s;
}

static double wrap(const double *x, void *) { return loss(x); }

int main() {
  double x[2] = {0.8, 1.3}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)loss, enzyme_dup, x, dx);
  /* Tri(a): area 1.5 a^2, perim 3a: 4.5 a^3. Sq(b): (b^2 + 4b) 4b. */
  double a = x[0], b = x[1], c = a * b;
  double dtri = 13.5 * c * c;
  CHECK_CLOSE(13.5 * a * a + dtri * b, dx[0]);
  CHECK_CLOSE(12 * b * b + 32 * b + dtri * a, dx[1]);
  CHECK_GRADIENT(wrap, nullptr, x, 2, dx);
  return fd_report();
}
