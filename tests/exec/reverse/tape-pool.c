// The tape arrays a derivative keeps between calls (a pool per loop tape):
// gradients called many times with growing and shrinking sizes, after
// __autodiff_release_tapes() has emptied the pools, from several threads
// at once, and from two separately differentiated modules linked into one
// program (each defines the shared list and release function; the linker
// keeps one). Every gradient against the analytic formula.
// RUN: sh %testlib/run-c.sh %s
// RUN: %clang -S -emit-llvm -O2 -I%testlib -DSECOND_MODULE %s -o %t.b.ll
// RUN: %clang -S -emit-llvm -O2 -I%testlib -DTWO_MODULES %s -o %t.a.ll
// RUN: %autodiff-opt %t.a.ll -O2 -o %t.a.ad.ll
// RUN: %autodiff-opt %t.b.ll -O2 -o %t.b.ad.ll
// RUN: %clang %t.a.ad.ll %t.b.ad.ll -o %t.exe -lm
// RUN: %t.exe two | FileCheck %s
// CHECK: 19 checks passed, 0 failed
#include "enzyme.h"
#include "fdcheck.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void __autodiff_release_tapes(void);

/* s_{k+1} = s_k * x_k + sin(x_k): one cached value per iteration */
double chain_b(const double *x, int n);
void grad_chain_b(const double *x, double *dx, int n);

#ifdef SECOND_MODULE
double chain_b(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s = s * x[i] + sin(x[i]);
  return s;
}
void grad_chain_b(const double *x, double *dx, int n) {
  __enzyme_autodiff((void *)chain_b, enzyme_dup, x, dx, enzyme_const, n);
}
#else

double chain(const double *x, int n) {
  double s = 1;
  for (int i = 0; i < n; ++i)
    s = s * x[i] + sin(x[i]);
  return s;
}

/* the gradient by hand: forward prefix values, then backwards */
static void expected(const double *x, int n, double *g) {
  double *s = malloc((n + 1) * sizeof(double));
  s[0] = 1;
  for (int i = 0; i < n; ++i)
    s[i + 1] = s[i] * x[i] + sin(x[i]);
  double a = 1;
  for (int i = n - 1; i >= 0; --i) {
    g[i] = a * (s[i] + cos(x[i]));
    a *= x[i];
  }
  free(s);
}

static int check(const double *x, int n, const double *dx) {
  double *g = malloc(n * sizeof(double));
  expected(x, n, g);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (!fd_is_close(g[i], dx[i], 1e-9, 1e-12))
      ++bad;
  free(g);
  return bad;
}

static void fill(double *x, int n, int seed) {
  for (int i = 0; i < n; ++i)
    x[i] = 0.9 + 0.1 * sin(0.37 * (i + 1) * (seed + 1));
}

enum { MAXN = 4000, THREADS = 4, ROUNDS = 60 };

static void *worker(void *arg) {
  long id = (long)arg, bad = 0;
  double *x = malloc(MAXN * sizeof(double));
  double *dx = malloc(MAXN * sizeof(double));
  for (int r = 0; r < ROUNDS; ++r) {
    int n = 1 + (int)((r * 977 + id * 131) % MAXN);
    fill(x, n, (int)id + r);
    memset(dx, 0, n * sizeof(double));
    __enzyme_autodiff((void *)chain, enzyme_dup, x, dx, enzyme_const, n);
    bad += check(x, n, dx);
  }
  free(x);
  free(dx);
  return (void *)bad;
}

int main(int argc, char **argv) {
  double *x = malloc(MAXN * sizeof(double));
  double *dx = malloc(MAXN * sizeof(double));
  /* growing, shrinking, released in between */
  const int sizes[] = {10, 1000, 3, 4000, 0, 250, 4000, 1};
  for (int k = 0; k < 8; ++k) {
    int n = sizes[k];
    fill(x, n, k);
    memset(dx, 0, MAXN * sizeof(double));
    __enzyme_autodiff((void *)chain, enzyme_dup, x, dx, enzyme_const, n);
    CHECK(check(x, n, dx) == 0);
    if (k == 3 || k == 5)
      __autodiff_release_tapes();
  }
  /* concurrent calls of one derivative */
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; ++i)
    CHECK(pthread_create(&t[i], 0, worker, (void *)i) == 0);
  for (int i = 0; i < THREADS; ++i) {
    void *bad;
    pthread_join(t[i], &bad);
    CHECK((long)bad == 0);
  }
#ifdef TWO_MODULES
  if (argc > 1) {
    /* the other module's derivative and pool, released by one function */
    for (int k = 0; k < 3; ++k) {
      int n = 500 * (k + 1);
      fill(x, n, k);
      memset(dx, 0, MAXN * sizeof(double));
      grad_chain_b(x, dx, n);
      CHECK(check(x, n, dx) == 0);
      __autodiff_release_tapes();
    }
  }
#endif
  __autodiff_release_tapes();
  free(x);
  free(dx);
  return fd_report();
}
#endif
