// Vector reverse mode (`enzyme_width`) with memory the derivative owns,
// from a hunt with programs written against the feature: a malloc'd buffer
// rotated in among two caller buffers that a loop swaps (its shadow was
// shared by the lanes: lane 0 silently wrong), a realloc'd growing buffer
// and memcpy of active doubles (refused before: the adjoint-of-copy helper;
// then the first shadow was shared), and a linked list built with malloc
// (refused before: its shadow nodes are reached through pointers cached in
// a tape array and stored in other shadow nodes).
// Every lane is compared with a width-1 run with that lane's shadows.
//
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>
#include <string.h>

enum { N = 3 };

static double rotate(double *a, double *b, long n) {
  double *cur = a, *nxt = b;
  double *m = malloc(n * sizeof(double));
  for (long s = 0; s < 2; ++s) {
    for (long i = 0; i < n; ++i)
      nxt[i] = cur[i] * cur[(i + 1) % n];
    double *t = cur;
    cur = nxt;
    nxt = t;
    if (s == 0) { /* rotate the malloc'd buffer in */
      t = cur;
      cur = m;
      m = t;
      for (long q = 0; q < n; ++q)
        cur[q] = 0.5 * m[q];
    }
  }
  double r = 0;
  for (long i = 0; i < n; ++i)
    r += cur[i] * (i + 1);
  free(nxt);
  return r;
}

static void check_rotate(void) {
  static const double Z[2][N] = {{0.5, 0.9, 1.2}, {0.7, 1.1, 0.6}};
  static const double SA[2][N] = {{1, 2, 3}, {-1, 0.5, 2}};
  static const double SB[2][N] = {{0.25, -2, 1}, {3, 1, -1}};
  double a[N], b[N], da[2][N], db[2][N];
  memcpy(a, Z[0], sizeof a);
  memcpy(b, Z[1], sizeof b);
  memcpy(da, SA, sizeof da);
  memcpy(db, SB, sizeof db);
  __enzyme_autodiff_void((void *)rotate, enzyme_width, 2, enzyme_dup, a,
                         da[0], da[1], enzyme_dup, b, db[0], db[1],
                         enzyme_const, (long)N);
  for (int lane = 0; lane < 2; ++lane) {
    double ra[N], rb[N], rda[N], rdb[N];
    memcpy(ra, Z[0], sizeof ra);
    memcpy(rb, Z[1], sizeof rb);
    memcpy(rda, SA[lane], sizeof rda);
    memcpy(rdb, SB[lane], sizeof rdb);
    __enzyme_autodiff_void((void *)rotate, enzyme_dup, ra, rda, enzyme_dup,
                           rb, rdb, enzyme_const, (long)N);
    for (int i = 0; i < N; ++i) {
      CHECK_CLOSE(rda[i], da[lane][i]);
      CHECK_CLOSE(rdb[i], db[lane][i]);
      CHECK(ra[i] == a[i] && rb[i] == b[i]);
    }
  }
}

static double grow(const double *x, long n) {
  double *buf = malloc(sizeof(double));
  buf[0] = x[0] * x[0];
  buf = realloc(buf, n * sizeof(double));
  for (long i = 1; i < n; ++i)
    buf[i] = x[i] * buf[i - 1];
  double s = buf[n - 1];
  free(buf);
  return s;
}

static double copied(const double *x, long n) {
  double t[4];
  memcpy(t, x, n * sizeof(double));
  return t[0] * t[1] * t[2];
}

struct node {
  double v;
  struct node *next;
};

static double listed(const double *x, long n) {
  struct node *head = 0;
  for (long i = 0; i < n; ++i) {
    struct node *nd = malloc(sizeof *nd);
    nd->v = x[i];
    nd->next = head;
    head = nd;
  }
  double r = 0;
  for (struct node *p = head; p; p = p->next)
    r += p->v * p->v * p->v;
  while (head) {
    struct node *nx = head->next;
    free(head);
    head = nx;
  }
  return r;
}

/* Width 3 against width 1 and the analytic gradient (a macro: the
 * request must name the function itself). */
#define CHECK_LANES(f, expect)                                               \
  do {                                                                       \
    double x_[N] = {0.5, 1.5, 2.0}, d_[3][N] = {{0}}, r_[N] = {0};           \
    __enzyme_autodiff_void((void *)f, enzyme_width, 3, enzyme_dup, x_,       \
                           d_[0], d_[1], d_[2], enzyme_const, (long)N);      \
    __enzyme_autodiff_void((void *)f, enzyme_dup, x_, r_, enzyme_const,      \
                           (long)N);                                         \
    for (int i_ = 0; i_ < N; ++i_) {                                         \
      CHECK_CLOSE((expect)[i_], r_[i_]);                                     \
      for (int k_ = 0; k_ < 3; ++k_)                                         \
        CHECK_CLOSE(r_[i_], d_[k_][i_]);                                     \
    }                                                                        \
  } while (0)

int main(void) {
  check_rotate();
  /* grow: x0^2 x1 x2; copied: x0 x1 x2; listed: sum x^3. */
  const double g[N] = {2 * 0.5 * 1.5 * 2.0, 0.25 * 2.0, 0.25 * 1.5};
  const double c[N] = {3.0, 1.0, 0.75};
  const double l[N] = {3 * 0.25, 3 * 2.25, 3 * 4.0};
  CHECK_LANES(grow, g);
  CHECK_LANES(copied, c);
  CHECK_LANES(listed, l);
  return fd_report();
}
