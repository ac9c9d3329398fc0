// Control flow and memory in one program: a switch with a case that
// cannot happen (__builtin_unreachable), a loop written with goto, a heap
// buffer grown with realloc, calls through a table of function pointers,
// and a helper returning a struct of two doubles by value.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

#include <math.h>
#include <stdlib.h>

typedef struct { double a, b; } pair;
pair __enzyme_fwddiff_pair(void *, ...);

static double op_sin(double x) { return sin(x); }
static double op_sq(double x) { return x * x; }
static double op_exp(double x) { return exp(0.5 * x); }
static double (*table[3])(double) = {op_sin, op_sq, op_exp};

__attribute__((noinline)) pair two(double x) {
  pair p = {x * x, sin(x) * x};
  return p;
}

double f(double x, int mode, int n) {
  double acc = 0;
  int cap = 2;
  double *buf = malloc(cap * sizeof(double));
  for (int i = 0; i < n; ++i) {
    if (i >= cap) {
      cap *= 2;
      buf = realloc(buf, cap * sizeof(double));
    }
    switch ((i + mode) % 4) {
    case 0:
      buf[i] = table[0](x * i);
      break;
    case 1:
      buf[i] = table[1](x + i);
      break;
    case 2:
      buf[i] = table[2](x);
      break;
    case 3: {
      pair p = two(x + 0.1 * i);
      buf[i] = p.a - p.b;
      break;
    }
    default:
      __builtin_unreachable();
    }
  }
  int k = 0;
again:
  acc += buf[k] * (k + 1);
  if (++k < n)
    goto again;
  free(buf);
  return acc;
}

static int g_mode, g_n;
static double f_fd(const double *v, void *c) {
  (void)c;
  return f(v[0], g_mode, g_n);
}

int main(void) {
  double x = 0.37, one = 1;
  g_n = 11;
  for (g_mode = 0; g_mode < 4; ++g_mode)
    CHECK_CLOSE(fd_dir(f_fd, 0, &x, &one, 1),
                __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, g_mode,
                                 enzyme_const, g_n));
  pair t = __enzyme_fwddiff_pair((void *)two, x, 1.0);
  CHECK_CLOSE(2 * x, t.a);
  CHECK_CLOSE(cos(x) * x + sin(x), t.b);
  return fd_report();
}
