// Reverse-mode requests that the core refuses, written as C programs would
// write them, at -O0 and -O2: each is a diagnostic that names the function
// and the operation, with the instruction on the next line, a non-zero
// exit and no output file: malformed requests (enzyme_out on a pointer, a
// missing shadow, too many arguments, an unknown marker, a result type that
// does not fit, a function without a body). (Recursion and function
// pointers, refused when this test was written, are differentiated now:
// tests/exec/reverse/recursion.c and callbacks.c.)
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone -DBAD %s -o %t.bad0.ll
// RUN: not %autodiff-opt %t.bad0.ll -o %t.bad0.out.ll 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad0.out.ll
// RUN: %clang -S -emit-llvm -O2 -DBAD %s -o %t.bad2.ll
// RUN: not %autodiff-opt %t.bad2.ll -o %t.bad2.out.ll 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad2.out.ll
// RUN: %clang -S -emit-llvm -O2 -DRESULT %s -o %t.res.ll
// RUN: not %autodiff-opt %t.res.ll -o %t.res.out.ll 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not test -e %t.res.out.ll

// BAD-DAG: error: in function `main`, call to `__enzyme_autodiff`: enzyme_out on parameter 0 of `arr`
// BAD-DAG: error: in function `main`, call to `__enzyme_autodiff`: missing shadow 1 of 1 for parameter 0 of `arr`
// BAD-DAG: error: in function `main`, call to `__enzyme_autodiff`: too many arguments: `sq` takes 1 parameters
// BAD-DAG: error: in function `main`, call to `__enzyme_autodiff`: unknown marker `enzyme_foo`
// BAD-DAG: error: in function `main`, call to `__enzyme_autodiff`: cannot differentiate `ext`: it is only declared in this module (no body)
// BAD-DAG: {{^}}  instruction: {{.*}}call double (ptr, ...) @__enzyme_autodiff(ptr noundef {{.*}}@ext

// RESULT: error: in function `main`, call to `__enzyme_autodiff_two`: the call expects `{ double, double }`, but the derivative of `sq` {{.*}} returns (double)
// RESULT-NEXT: {{^}}  instruction: {{.*}}@__enzyme_autodiff_two(ptr noundef nonnull @sq

#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_out, enzyme_foo;
double __enzyme_autodiff(void *, ...);

#ifdef BAD
double sq(double x) { return x * x; }
double arr(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += x[i] * x[i];
  return s;
}
double ext(double);
double gx[4];
int main(void) {
  double s = __enzyme_autodiff((void *)arr, enzyme_out, gx, enzyme_const, 4);
  s += __enzyme_autodiff((void *)arr, enzyme_dup, gx);
  s += __enzyme_autodiff((void *)sq, 2.0, 3.0);
  s += __enzyme_autodiff((void *)sq, enzyme_foo, 3.0);
  s += __enzyme_autodiff((void *)ext, 2.0);
  return (int)s;
}
#endif

#ifdef RESULT
typedef struct { double a, b; } two;
two __enzyme_autodiff_two(void *, ...);
double sq(double x) { return x * x; }
int main(void) {
  two d = __enzyme_autodiff_two((void *)sq, 2.0);
  return (int)(d.a + d.b);
}
#endif
