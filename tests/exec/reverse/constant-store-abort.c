// Active data stored through a pointer that may point into memory passed as
// constant (chosen at run time between an active and a constant array):
// the derivative cannot give the stored value's adjoint back, so the
// reverse sweep stops with a message instead of returning a wrong
// gradient. With the active array chosen, the gradient is right.
// RUN: %clang -S -emit-llvm -O1 -I%testlib %s -o %t.ll
// RUN: %autodiff-opt %t.ll -O2 -o %t.ad.ll
// RUN: %clang -w %t.ad.ll -o %t -lm
// RUN: %t active
// RUN: not --crash %t constant 2>&1 | FileCheck %s
// CHECK: autodiff: active data was stored into memory passed as constant; its derivative cannot be given back (pass that memory as duplicated)
#include "enzyme.h"
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) double scale_into(double *a, double *c, int which) {
  double *p = which ? a : c;
  p[0] = a[0] * 3;
  return p[0] * a[1];
}

int main(int argc, char **argv) {
  int which = argc > 1 && strcmp(argv[1], "active") == 0;
  double a[2] = {2, 5}, da[2] = {0}, c[2] = {7, 11};
  __enzyme_autodiff((void *)scale_into, enzyme_dup, a, da, enzyme_const, c,
                    enzyme_const, which);
  /* which = 1: a[0] <- 3 a0, result 3 a0 a1: da = {3 a1, 3 a0} */
  printf("da = %g %g\n", da[0], da[1]);
  return !(da[0] == 15 && da[1] == 6);
}
