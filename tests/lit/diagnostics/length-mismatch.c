// A duplicated slice whose shadow is shorter than the primal stops the
// program before differentiation, with a message naming the target and the
// shadow. Lowering only: the __enzyme entry point and the marker globals are
// stubs (built from this file with -DSTUBS), so this tests the check alone.
// RUN: %clang -S -emit-llvm -O0 -Xclang -disable-O0-optnone %s -o %t.ll
// RUN: %autodiff-opt %t.ll --stop-after-lowering -o %t.lowered.ll \
// RUN:   --autodiff 'sum_sq(x: &[f64]) -> f64=autodiff_reverse(d_sum_sq, Duplicated, Active)' \
// RUN:   --autodiff 'sum_sq(x: &[f64]) -> f64=autodiff_forward(f_sum_sq, 2, Dualv, DualOnly)'
// RUN: %clang -DSTUBS -c %s -o %t.stubs.o
// RUN: %clang %t.lowered.ll %t.stubs.o -o %t.exe
// RUN: %t.exe reverse 3 3 | FileCheck %s --check-prefix=OK
// RUN: %t.exe reverse 3 5 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t.exe reverse 3 2 2>&1 | FileCheck %s --check-prefix=REVERSE
// RUN: %t.exe forward 3 6 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t.exe forward 3 5 2>&1 | FileCheck %s --check-prefix=FORWARD

// OK: reached __enzyme
// REVERSE: autodiff: d_sum_sq: shadow `dx` of `x` has length 2, but the primal has length 3
// REVERSE-NOT: reached
// FORWARD: autodiff: f_sum_sq: shadow `dx` of `x` has length 5, but the primal has length 3 and 2 lanes need length 6
// FORWARD-NOT: reached

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef STUBS
void *enzyme_dup, *enzyme_const, *enzyme_primal_return, *enzyme_seed,
    *enzyme_width;
double __enzyme_autodiff_d_sum_sq(void) {
  puts("reached __enzyme_autodiff_d_sum_sq");
  return 0;
}
struct T2 { double t0, t1; };
struct T2 __enzyme_fwddiff_f_sum_sq(void) {
  puts("reached __enzyme_fwddiff_f_sum_sq");
  struct T2 r = {0, 0};
  return r;
}
#else
double sum_sq(const double *x, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

// The lowered targets; their bodies come from autodiff-opt.
double d_sum_sq(const double *x, size_t n, double *dx, size_t dn, double dret);
struct T2 { double t0, t1; };
struct T2 f_sum_sq(const double *x, size_t n, double *dx, size_t dn);

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  size_t n = strtoul(argv[2], 0, 10), dn = strtoul(argv[3], 0, 10);
  double x[16] = {0}, dx[16] = {0};
  if (!strcmp(argv[1], "reverse"))
    d_sum_sq(x, n, dx, dn, 1.0);
  else
    f_sum_sq(x, n, dx, dn);
  fflush(stdout);
  return 0;
}
#endif
