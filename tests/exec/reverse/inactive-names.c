// Functions are inactive by what they are, not by a word in their name:
// user functions whose names contain "panic" or "fmt" are differentiated
// (a name test once made them silently inactive: zero gradients).
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
__attribute__((noinline)) double panic_free_sq(double x) { return x * x; }
__attribute__((noinline)) double square_no_panic(double x) { return 3 * x * x; }
double use_both(double x) { return panic_free_sq(x) + square_no_panic(x); }
int main(void) {
  CHECK_CLOSE(2 * 1.5, __enzyme_autodiff((void *)panic_free_sq, 1.5));
  CHECK_CLOSE(8 * 1.5, __enzyme_autodiff((void *)use_both, 1.5));
  CHECK_CLOSE(8 * 1.5, __enzyme_fwddiff((void *)use_both, 1.5, 1.0));
  return fd_report();
}
