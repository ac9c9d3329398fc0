// Linked nodes built with malloc that carry integer fields beside a double
// (an index, a flag, a count) read back while walking the list. The walk
// reads the integer through a pointer that moves from node to node, and
// the value is cached for the reverse sweep (the nodes are freed before
// it): that cache store was taken for a move of the integer's bits, and
// the type analysis's view of the whole node (a double at offset 0) made
// it "an integer access to memory that holds active floating-point data",
// refused at every level. Checked against analytic gradients and finite
// differences, at width 1 and width 2 (each lane against its own seed).
//
// RUN: sh %testlib/run-c.sh %s
#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>

struct node {
  double v;
  long id;
  int flag;
  struct node *next;
};

enum { N = 5 };

/// out[id] = v * v (or v * 3 where the flag is set), walking the list in
/// reverse order of construction; then a sum weighted by the ids.
static double scatter_list(const double *x, double *out, long n) {
  struct node *head = 0;
  for (long i = 0; i < n; ++i) {
    struct node *nd = malloc(sizeof *nd);
    nd->v = x[i];
    nd->id = (i * 2) % n;
    nd->flag = i % 2;
    nd->next = head;
    head = nd;
  }
  double s = 0;
  for (struct node *p = head; p; p = p->next) {
    out[p->id] = p->flag ? 3 * p->v : p->v * p->v;
    s += p->v * (double)p->id;
  }
  while (head) {
    struct node *nx = head->next;
    free(head);
    head = nx;
  }
  return s;
}

static double loss_of_x(const double *x, void *ctx) {
  const double *w = ctx;
  double out[N] = {0};
  double s = scatter_list(x, out, N);
  double r = s;
  for (int i = 0; i < N; ++i)
    r += w[i] * out[i];
  return r;
}

#define REQUEST(...) __enzyme_autodiff((void *)scatter_list, __VA_ARGS__)

int main(void) {
  double x[N] = {0.5, 1.5, -2.0, 0.75, 1.25};
  double w[N] = {1, 2, 3, 4, 5};
  // Width 1: out's shadow is the weights, the return seeded with 1.
  double dx[N] = {0}, out[N] = {0}, dout[N];
  for (int i = 0; i < N; ++i)
    dout[i] = w[i];
  REQUEST(enzyme_dup, x, dx, enzyme_dup, out, dout, enzyme_const, (long)N);
  for (int i = 0; i < N; ++i) {
    long id = (i * 2) % N;
    double analytic = (i % 2 ? 3 : 2 * x[i]) * w[id] + (double)id;
    CHECK_CLOSE(analytic, dx[i]);
    double e[N] = {0};
    e[i] = 1;
    CHECK_CLOSE(fd_dir(loss_of_x, w, x, e, N), dx[i]);
    CHECK_CLOSE(0.0, dout[i]); // overwritten: its adjoint was consumed
  }
  // Width 2: lane 1 has weights 2w; each lane's return is seeded with 1.
  double dx0[N] = {0}, dx1[N] = {0}, d0[N], d1[N], w1[N];
  for (int i = 0; i < N; ++i) {
    d0[i] = w[i];
    d1[i] = w1[i] = 2 * w[i];
  }
  REQUEST(enzyme_width, 2, enzyme_dup, x, dx0, dx1, enzyme_dup, out, d0, d1,
          enzyme_const, (long)N);
  for (int i = 0; i < N; ++i) {
    long id = (i * 2) % N;
    double slope = i % 2 ? 3 : 2 * x[i];
    CHECK_CLOSE(slope * w[id] + (double)id, dx0[i]);
    CHECK_CLOSE(slope * w1[id] + (double)id, dx1[i]);
    CHECK_CLOSE(0.0, d0[i]);
    CHECK_CLOSE(0.0, d1[i]);
  }
  return fd_report();
}
