// Reverse-mode requests that the core refuses, written as C programs would
// write them, at -O0 and -O2: each is a diagnostic that names the function
// and the operation, with the instruction on the next line, a non-zero
// exit and no output file. Recursion on the active path (a recursive sum
// over a linked list and a recursive power), a callback passed enzyme_const
// and a function-pointer table, and malformed requests (enzyme_out on a
// pointer, a missing shadow, too many arguments, an unknown marker, a
// result type that does not fit, a function without a body).
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone -DREC %s -o %t.rec0.ll
// RUN: not %autodiff-opt %t.rec0.ll -o %t.rec0.out.ll 2>&1 | FileCheck %s --check-prefix=REC
// RUN: not test -e %t.rec0.out.ll
// RUN: %clang -S -emit-llvm -O2 -DREC %s -o %t.rec2.ll
// RUN: not %autodiff-opt %t.rec2.ll -o %t.rec2.out.ll 2>&1 | FileCheck %s --check-prefix=REC
// RUN: not test -e %t.rec2.out.ll
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone -DFNPTR %s -o %t.fn0.ll
// RUN: not %autodiff-opt %t.fn0.ll -o %t.fn0.out.ll 2>&1 | FileCheck %s --check-prefix=FNPTR
// RUN: not test -e %t.fn0.out.ll
// RUN: %clang -S -emit-llvm -O2 -DFNPTR %s -o %t.fn2.ll
// RUN: not %autodiff-opt %t.fn2.ll -o %t.fn2.out.ll 2>&1 | FileCheck %s --check-prefix=FNPTR
// RUN: not test -e %t.fn2.out.ll
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone -DBAD %s -o %t.bad0.ll
// RUN: not %autodiff-opt %t.bad0.ll -o %t.bad0.out.ll 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad0.out.ll
// RUN: %clang -S -emit-llvm -O2 -DBAD %s -o %t.bad2.ll
// RUN: not %autodiff-opt %t.bad2.ll -o %t.bad2.out.ll 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad2.out.ll
// RUN: %clang -S -emit-llvm -O2 -DRESULT %s -o %t.res.ll
// RUN: not %autodiff-opt %t.res.ll -o %t.res.out.ll 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not test -e %t.res.out.ll

// REC-DAG: error: in function `list_rsum` (while generating `diffe_list_rsum`), call to `list_rsum`: reverse mode does not yet support a recursive call to `list_rsum`
// REC-DAG: error: in function `rpow` (while generating `diffe_rpow`), call to `rpow`: reverse mode does not yet support a recursive call to `rpow`
// REC-DAG: {{^}}  instruction: {{.*}}call double @list_rsum(
// REC-DAG: {{^}}  instruction: {{.*}}call double @rpow(

// FNPTR-DAG: error: in function `integrate` (while generating `diffe_integrate`), indirect call through `%{{[0-9]+}}`: reverse mode does not yet support a call through a function pointer with active arguments
// FNPTR-DAG: error: in function `use_table` (while generating `diffe_use_table`), indirect call through `%{{[0-9]+}}`: reverse mode does not yet support a call through a function pointer with active arguments
// FNPTR-DAG: {{^}}  instruction: {{.*}}call double %{{[0-9]+}}(double

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

#ifdef REC
struct node { double v; struct node *next; };
double list_rsum(const struct node *n) { return n ? n->v * n->v + list_rsum(n->next) : 0.0; }
double rpow(double x, int k) {
  if (k == 0) return 1;
  double h = rpow(x, k / 2);
  return k % 2 ? h * h * x : h * h;
}
int main(void) {
  struct node b = {2, 0}, a = {1, &b}, db = {0, 0}, da = {0, &db};
  __enzyme_autodiff((void *)list_rsum, &a, &da);
  return (int)__enzyme_autodiff((void *)rpow, 1.1, 5);
}
#endif

#ifdef FNPTR
typedef double (*fn)(double);
static double f1(double x) { return x * x; }
static double f2(double x) { return sin(x); }
static fn table[2] = {f1, f2};
double use_table(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += table[i % 2](x[i]);
  return s;
}
double integrate(fn f, double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; ++i) s += f(a + i * h);
  return s * h;
}
int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {0};
  __enzyme_autodiff((void *)use_table, enzyme_dup, x, dx, enzyme_const, 3);
  return (int)__enzyme_autodiff((void *)integrate, enzyme_const, f2, 0.2, enzyme_const, 1.0,
                                enzyme_const, 10);
}
#endif

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
