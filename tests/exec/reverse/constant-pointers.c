// Pointers into memory passed as constant (enzyme_const) kept beside active
// data: a pointer slot that holds the active array and then the constant
// one (once a silent wrong gradient: the slot's shadow kept the active
// shadow, dz = 16 instead of 6 at -O0), structs of an active value and a
// pointer to a constant table, and a pointer chosen between an active and
// a constant array. The constant memory's shadow is the sink arena: the
// adjoints of its loads are dropped there. (Storing active data through
// such a pointer stops the program: constant-store-abort.c.)
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"

enum { N = 6 };

__attribute__((noinline)) double reused_slot(double *z, const double *w) {
  const double *slot[1];
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    if (i == 0)
      slot[0] = z;
    else
      slot[0] = w;
    const double *p = *(const double *volatile *)slot;
    s += p[0] * p[0];
  }
  return s;
}

typedef struct {
  double v;
  const double *tbl;
} node;

__attribute__((noinline)) double nodes_sum(double *a, const double *c, int n) {
  node nodes[N];
  for (int i = 0; i < n; ++i) {
    nodes[i].v = a[i];
    nodes[i].tbl = (i & 1) ? c + i % 4 : c;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += nodes[i].v * nodes[i].tbl[0] * nodes[i].v;
  return s;
}

__attribute__((noinline)) double pick(double *a, const double *c, int n,
                                      int which) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double *p = ((i + which) & 1) ? a : c;
    s += p[i] * a[i];
  }
  return s;
}

static const double *g_c;
static int g_which;
static double nodes_F(const double *x, void *ctx) {
  (void)ctx;
  double t[N];
  for (int i = 0; i < N; ++i) t[i] = x[i];
  return nodes_sum(t, g_c, N);
}
static double pick_F(const double *x, void *ctx) {
  (void)ctx;
  double t[N];
  for (int i = 0; i < N; ++i) t[i] = x[i];
  return pick(t, g_c, N, g_which);
}

int main(void) {
  double z[1] = {3}, dz[1] = {0}, w[1] = {5};
  __enzyme_autodiff((void *)reused_slot, enzyme_dup, z, dz, enzyme_const, w);
  CHECK_CLOSE(6.0, dz[0]);
  CHECK(w[0] == 5);

  double a[N] = {0.3, -0.8, 1.1, 0.45, -0.2, 0.9};
  double c[N] = {1.2, 0.4, -0.6, 0.7, 2.1, -1.3}, c0[N];
  for (int i = 0; i < N; ++i) c0[i] = c[i];
  g_c = c0;
  double da[N] = {0};
  __enzyme_autodiff((void *)nodes_sum, enzyme_dup, a, da, enzyme_const, c,
                    enzyme_const, N);
  for (int i = 0; i < N; ++i) {
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(fd_dir(nodes_F, 0, a, e, N), da[i]);
    CHECK(c[i] == c0[i]);
  }
  for (g_which = 0; g_which < 2; ++g_which) {
    double db[N] = {0};
    __enzyme_autodiff((void *)pick, enzyme_dup, a, db, enzyme_const, c,
                      enzyme_const, N, enzyme_const, g_which);
    for (int i = 0; i < N; ++i) {
      double e[N] = {0};
      e[i] = 1;
      CHECK_CLOSE(fd_dir(pick_F, 0, a, e, N), db[i]);
      CHECK(c[i] == c0[i]);
    }
  }
  return fd_report();
}
