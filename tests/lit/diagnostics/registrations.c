// Registration globals that are malformed or contradict each other are
// diagnostics naming the registration (they were silently ignored, or one
// of two rules was used): two different forward derivatives for one
// function, a derivative registration of one element, an inactive-function
// list holding a variable, an inactive-global list holding a function. A
// forward derivative and a gradient rule for one function are no conflict.
// RUN: %clang -S -emit-llvm -O2 %s -o %t.ll
// RUN: not %autodiff-opt %t.ll -o %t.out.ll 2>&1 | FileCheck %s
// RUN: not test -e %t.out.ll
// RUN: not %autodiff-opt %t.ll -o %t.out.ll 2>&1 | FileCheck %s --check-prefix=BOTH

// CHECK-DAG: error: `__enzyme_register_derivative_spB` and `__enzyme_register_derivative_spA` register different derivatives for `sp`; keep one
// CHECK-DAG: error: `__enzyme_register_derivative_one` must be `void *__enzyme_register_derivative_one[2] = {fn, derivative};` (two functions)
// CHECK-DAG: error: `__enzyme_inactivefn_x` lists @counter, which is not a function
// CHECK-DAG: error: `__enzyme_inactive_global_y` lists @sp, which is not a global variable
// BOTH-NOT: both_kinds
#include <math.h>
double __enzyme_fwddiff(void *, ...);
typedef struct { double primal, tangent; } dual;

__attribute__((noinline)) double sp(double x) { return log1p(exp(x)); }
__attribute__((noinline)) double sq(double x) { return x * x; }
double f(double x) { return 4 * sp(x) + sq(x); }
dual a_fwd(double x, double dx) { dual r = {sp(x), dx}; return r; }
dual b_fwd(double x, double dx) { dual r = {sp(x), 2 * dx}; return r; }
long counter;

void *__enzyme_register_derivative_spA[2] = {(void *)sp, (void *)a_fwd};
void *__enzyme_register_derivative_spB[2] = {(void *)sp, (void *)b_fwd};
void *__enzyme_register_derivative_one[1] = {(void *)sq};
void *__enzyme_inactivefn_x[1] = {(void *)&counter};
void *__enzyme_inactive_global_y[1] = {(void *)sp};

__attribute__((noinline)) double both_kinds(double x) { return x * x; }
dual both_kinds_fwd(double x, double dx) { dual r = {x * x, 2 * x * dx}; return r; }
typedef struct { void *tape; double r; } aug;
aug both_kinds_aug(double x) { aug a = {0, x * x}; return a; }
double both_kinds_rev(double x, double dret, void *tape) { return 2 * x * dret; }
void *__enzyme_register_derivative_both_kinds[2] = {(void *)both_kinds,
                                                    (void *)both_kinds_fwd};
void *__enzyme_register_gradient_both_kinds[3] = {
    (void *)both_kinds, (void *)both_kinds_aug, (void *)both_kinds_rev};

double g(void) { return __enzyme_fwddiff((void *)f, 0.0, 1.0); }
