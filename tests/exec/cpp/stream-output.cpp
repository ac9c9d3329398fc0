// Printing with iostreams inside differentiated code (std::cout << value
// << std::endl, std::cerr): the stream functions are inactive, as printf
// is; the printed values are the primal's. They were refused in reverse
// mode ("a call to `_ZNSo9_M_insertIdEERSoT_` ... no body and no
// derivative rule"; C++ hunt).
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <iostream>

extern "C" {
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

double traced(double x) {
  double y = x * x;
  std::cout << "y = " << y << std::endl;
  double z = std::sin(y);
  std::cerr << "z = " << z << ", step " << 1 << '\n';
  return z * x;
}

int main() {
  double x = 0.8;
  double want = std::cos(x * x) * 2 * x * x + std::sin(x * x);
  CHECK_CLOSE(want, __enzyme_autodiff((void *)traced, x));
  CHECK_CLOSE(want, __enzyme_fwddiff((void *)traced, x, 1.0));
  return fd_report();
}
