// Exceptions thrown and caught inside the differentiated function: the
// throw's landing pad is a branch of the primal like any other, taken or
// not per call (also in a loop, from an inlined helper). Before, the throw
// became a plain call with its landing pad removed, so a throw that
// happened at run time left the derivative: std::terminate (C++ hunt).
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <cmath>
#include <stdexcept>

extern "C" {
double __enzyme_autodiff(void *, ...);
}

static double checked_log(double v) {
  if (v <= 0)
    throw 1;
  return std::log(v);
}

double guarded(double x) {
  try {
    return checked_log(x);
  } catch (int) {
    return x * x;
  }
}

static double checked(double v) {
  if (v <= 0)
    throw std::domain_error("not positive");
  return std::log(v);
}

double loop_catch(double x) {
  double s = 0;
  for (int i = -2; i < 3; ++i) {
    try {
      s += checked(x * i) * x;
    } catch (const std::exception &) {
      s += x * x * i;
    }
  }
  return s;
}

int main() {
  CHECK_CLOSE(0.5, __enzyme_autodiff((void *)guarded, 2.0));   // 1 / x
  CHECK_CLOSE(-1.0, __enzyme_autodiff((void *)guarded, -0.5)); // 2 x
  for (double x : {0.7, 1.3}) {
    double h = 1e-6;
    double fd = (loop_catch(x + h) - loop_catch(x - h)) / (2 * h);
    CHECK_CLOSE_TOL(fd, __enzyme_autodiff((void *)loop_catch, x), 1e-6, 1e-8);
  }
  return fd_report();
}
