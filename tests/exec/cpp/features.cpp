// C++ through clang++ at -O0..-O3: classes with operators, templates at
// double and float, std::vector grown with push_back (operator new under
// landing pads), std::array and operator[] returning references, virtual
// calls, std::function and lambdas, exceptions with destructors,
// unique_ptr, std::complex.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <array>
#include <cmath>
#include <complex>
#include <functional>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddiff_f(void *, ...) __asm__("__enzyme_fwddiff");
}

struct Vec3 {
  double x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};

template <typename T> T poly(const T *c, int n, T x) {
  T r = 0;
  for (int i = n - 1; i >= 0; --i)
    r = r * x + c[i];
  return r;
}

struct Shape {
  virtual ~Shape() = default;
  virtual double area(double s) const = 0;
};
struct Square : Shape {
  double area(double s) const override { return s * s; }
};
struct Circle : Shape {
  double area(double s) const override { return 3.14159 * s * s; }
};

struct Guard {
  double *slot;
  ~Guard() { *slot += 1; }
};

static double checked_sqrt(double v) {
  if (v < 0)
    throw std::domain_error("negative");
  return std::sqrt(v);
}

double f(double x) {
  Vec3 a{x, 2 * x, std::sin(x)}, b{1.5, -x, x * x};
  std::vector<double> v;
  for (int i = 0; i < 7; ++i)
    v.push_back(std::cos(x * i) + (a + b * x).dot(b));
  std::array<double, 4> arr{};
  for (int i = 0; i < 4; ++i)
    arr[i] = v[i] * v[i + 1];
  std::unique_ptr<Shape> shapes[2] = {std::make_unique<Square>(),
                                      std::make_unique<Circle>()};
  double area = 0;
  for (auto &s : shapes)
    area += s->area(x + 0.5);
  std::function<double(double)> fn = [&](double t) { return t * arr[1]; };
  double counter = 0, r = 0;
  try {
    Guard g{&counter};
    r = checked_sqrt(x * x + 1) * fn(x);
  } catch (const std::exception &) {
    r = -1;
  }
  std::complex<double> z(x, 0.5 * x);
  double cz = std::abs(std::exp(z) * z);
  return std::accumulate(v.begin(), v.end(), 0.0) + arr[3] + area + r +
         counter + cz;
}

float g(float x) {
  const float c[3] = {1.0f, -2.0f, 0.5f};
  return poly(c, 3, x) * std::exp(x);
}

int main() {
  double xs[] = {0.3, 0.9, -0.7};
  for (double x : xs)
    CHECK_CLOSE(fd_scalar(f, x), __enzyme_fwddiff((void *)f, x, 1.0));
  for (double x : xs)
    CHECK_CLOSE_F(fd_scalar_f(g, (float)x),
                  __enzyme_fwddiff_f((void *)g, (float)x, 1.0f));
  return fd_report();
}
