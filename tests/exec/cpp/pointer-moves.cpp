// Found by a C++ new-user hunt. Reverse mode:
//  - a std::vector of pointers to active heap data grows by push_back: at
//    -O1 and above libstdc++ moves the old pointers as i64 loads and stores,
//    whose shadows were not moved along (a null shadow, then a segfault);
//    the same with std::vector<std::unique_ptr<Base>> and virtual calls;
//  - a virtual destructor called through a base pointer, in a program that
//    also defines a std::exception subclass: the dispatch's candidates
//    include that subclass's destructors, which call std::exception's
//    destructor (in libstdc++, no body here): it was refused.
// Gradients checked against central differences at -O0..-O3. The
// unique_ptr case was refused at -O2 and -O3: the vectorized relocation
// loop moves the pointers as <2 x i64> tagged with their pointer type,
// and the type analysis dropped the tag for vector elements (Integer
// against Pointer: "Anything", so the integer copy was refused).
//
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17 -DWITH_UNIQUE_PTR
#include "fdcheck.h"
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <vector>

extern "C" {
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
}

typedef double (*vecfn)(const double *, int);

static void check_fd(vecfn f, double *x, int n, const double *g) {
  for (int i = 0; i < n; ++i) {
    double h = 1e-5 * (x[i] == 0 ? 1 : x[i]);
    double keep = x[i];
    x[i] = keep + h;
    double up = f(x, n);
    x[i] = keep - h;
    double down = f(x, n);
    x[i] = keep;
    CHECK_CLOSE_TOL((up - down) / (2 * h), g[i], 1e-6, 1e-9);
  }
}

/* The request names the function itself (a constant), as it must. */
#define CHECK_GRADIENT_OF(f, x, n)                                           \
  do {                                                                       \
    double g_[8] = {0};                                                      \
    __enzyme_autodiff((void *)f, enzyme_dup, x, g_, enzyme_const, n);        \
    check_fd(f, x, n, g_);                                                   \
  } while (0)

static double raw_pointers(const double *x, int n) {
  std::vector<double *> v;
  for (int i = 0; i + 1 < n; ++i)
    v.push_back(new double(x[i] * x[i]));
  double s = 0;
  for (double *b : v)
    s += *b * x[n - 1];
  for (double *b : v)
    delete b;
  return s;
}

struct Base {
  virtual ~Base() = default;
  virtual double eval(double t) const = 0;
};
struct Lin : Base {
  double k;
  explicit Lin(double k) : k(k) {}
  double eval(double t) const override { return k * t; }
};
struct Sq : Base {
  double k;
  explicit Sq(double k) : k(k) {}
  double eval(double t) const override { return k * t * t; }
};
struct MyError : std::exception {
  const char *what() const noexcept override { return "my error"; }
};

[[maybe_unused]] static double unique_pointers(const double *x, int n) {
  std::vector<std::unique_ptr<Base>> v;
  for (int i = 0; i + 1 < n; ++i) {
    if (i % 2)
      v.push_back(std::make_unique<Lin>(x[i]));
    else
      v.push_back(std::make_unique<Sq>(x[i]));
  }
  double s = 0;
  for (const auto &b : v)
    s += b->eval(x[n - 1]);
  return s;
}

__attribute__((noinline)) static Base *make(double k, int kind) {
  if (kind)
    return new Lin(k);
  return new Sq(k);
}

static double virtual_delete(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    Base *b = make(x[i], i % 2);
    s += b->eval(x[n - 1]);
    delete b;
  }
  return s;
}

int main() {
  double x[5] = {0.7, -0.2, 1.3, 0.4, 0.9};
  CHECK_GRADIENT_OF(raw_pointers, x, 5);
#ifdef WITH_UNIQUE_PTR
  CHECK_GRADIENT_OF(unique_pointers, x, 5);
#endif
  CHECK_GRADIENT_OF(virtual_delete, x, 5);
  try {
    if (x[0] > 100)
      throw MyError();
  } catch (const std::exception &e) {
    std::puts(e.what());
  }
  return fd_report();
}
