// A struct holding a float array and its count (`{float x[4]; int n}`),
// averaged by a noinline helper: the array read at a variable index types
// every offset of the struct as float, and forward mode took the bytes
// after `n`'s first for floats too, refusing `sitofp(p->n)` as reading a
// float's bits (-O0..-O3; the hunt's case). The count's own fact covers
// its bytes now. d/dt mean(t, 2t, 3t, 4t) = 2.5, both modes.
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

typedef struct {
  float x[4];
  int n;
} Samples;

__attribute__((noinline)) double mean(const Samples *p) {
  double s = 0;
  for (int i = 0; i < p->n; i++)
    s += p->x[i];
  return s / p->n;
}

double f(double t) {
  Samples p;
  for (int i = 0; i < 4; i++)
    p.x[i] = (float)(t * (i + 1));
  p.n = 4;
  return mean(&p);
}

int main(void) {
  double t = 1.3;
  CHECK_CLOSE_F(2.5, fd_scalar(f, t));
  CHECK_CLOSE_F(2.5, __enzyme_fwddiff((void *)f, t, 1.0));
  CHECK_CLOSE_F(2.5, __enzyme_autodiff((void *)f, t));
  return fd_report();
}
