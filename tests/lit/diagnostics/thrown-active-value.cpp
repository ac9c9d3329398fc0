// An active value thrown as a C++ exception: the exception object has no
// shadow; the diagnostic says so (it advised giving the definition of
// __cxa_allocate_exception to the module).
// RUN: %clangxx -std=c++17 -O2 -S -emit-llvm %s -o %t.ll
// RUN: not %autodiff-opt %t.ll -o %t.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t.out.ll
// CHECK: in function `_Z11value_throwd` (while generating `diffe__Z11value_throwd`), `store`: storing an active value into memory whose shadow is unknown; the memory is a C++ exception object: an active value thrown as an exception has no derivative
extern "C" double __enzyme_autodiff(void *, ...);
double value_throw(double x) {
  try {
    if (x > 1)
      throw x * 3.0;
    return x;
  } catch (double v) {
    return v * v;
  }
}
double grad(double x) { return __enzyme_autodiff((void *)value_throw, x); }
