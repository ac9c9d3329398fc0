// Post-optimization sets aside what differentiation does not reach
// (codegen/SetAside.h), here in C++ through clang++ at -O0..-O3: a global
// object's constructor, never reached by the derivative, fills a std::map
// keyed by std::string, builds shapes behind virtual calls, writes the
// static weight the derivative reads, and calls an inline (linkonce_odr,
// comdat) helper the derivative also calls. All of it must come back
// linked, with its comdats, and the weight must not be folded to its
// initializer. Against the analytic gradient and central differences.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
#include "enzyme.h"
#include "fdcheck.h"
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

__attribute__((noinline)) inline int terms(int n, int k) { return n * k; }

struct Shape {
  virtual double area(double s) const = 0;
  virtual ~Shape() {}
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Disc : Shape {
  double area(double r) const override { return 3.0 * r * r; }
};

static double weight = 1.0;
static double shapes_area = 0.0;
static int ctor_terms = 0;

struct Registry {
  std::map<std::string, double> weights;
  Registry() {
    weights["alpha"] = 2.5;
    weights["beta"] = 0.5;
    weight = weights["alpha"] * weights["beta"] * 2.0; // 2.5
    std::vector<std::unique_ptr<Shape>> shapes;
    shapes.emplace_back(new Square);
    shapes.emplace_back(new Disc);
    for (const auto &s : shapes)
      shapes_area += s->area(2.0); // 4 + 12
    ctor_terms = terms(3, 4);
  }
};
static Registry registry;

double f(double x) {
  double s = 0.0;
  int n = terms(2, 1);
  for (int i = 0; i < n; ++i)
    s += std::sin(x * (i + 1));
  return weight * s;
}

static double f_at(double x) { return f(x); }

int main() {
  double x = 0.7;
  double analytic = 2.5 * (std::cos(x) + 2.0 * std::cos(2.0 * x));
  double dx = __enzyme_autodiff((void *)f, x);
  CHECK_CLOSE(analytic, dx);
  CHECK_CLOSE(fd_scalar(f_at, x), dx);
  CHECK(ctor_terms == 12);
  CHECK_CLOSE(16.0, shapes_area);
  CHECK(registry.weights.at("beta") == 0.5);
  return fd_report();
}
