// Loops that walk an array by adding to its address as an integer
// (`for (p = (uintptr_t)a; p != end; p += 8)`, and Numba's `for v in x`,
// whose optimized IR keeps the address in an integer phi): the shadow's
// address walks along in a phi of its own. Before, reverse mode refused
// them; and once the phi had a shadow, the unrolled loads at `p + 8`,
// `p + 16`, ... were taken for loads of constant memory (the activity
// analysis did not follow the address through the phi) and their
// adjoints silently dropped (-O2/-O3).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include <stdint.h>
double rows(double *a, long n, long m) {
  double s = 0;
  uintptr_t p = (uintptr_t)a;
  for (long i = 0; i < n; i++) {
    double r = 0;
    for (long j = 0; j < m; j++) { r += *(double *)p; p += 8; }
    s += r * r;
  }
  return s;
}
double walk(double *a, long n) {
  double s = 0;
  for (uintptr_t p = (uintptr_t)a, e = (uintptr_t)(a + n); p != e; p += sizeof(double))
    s += *(double *)p * *(double *)p;
  return s;
}
int main(void) {
  double a[6] = {1, 2, 3, 4, 5, 6}, da[6] = {0};
  __enzyme_autodiff((void *)rows, enzyme_dup, a, da, enzyme_const, 2L, enzyme_const, 3L);
  for (int i = 0; i < 6; i++) CHECK_CLOSE(i < 3 ? 12.0 : 30.0, da[i]);
  double db[6] = {0};
  __enzyme_autodiff((void *)walk, enzyme_dup, a, db, enzyme_const, 6L);
  for (int i = 0; i < 6; i++) CHECK_CLOSE(2 * a[i], db[i]);
  return fd_report();
}
