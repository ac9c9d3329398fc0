// Forward mode through heap data: a function that builds a linked list with
// malloc from its input, sums it with a nonlinear weight, and frees it
// (the shadow list must be allocated and freed alongside); and a list built
// by the caller and passed in with a shadow list of the same shape
// (Enzyme's documented pattern).
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"

struct node {
  double value;
  int index;
  struct node *next;
};

double list_energy(const double *x, int n) {
  struct node *head = NULL;
  for (int i = 0; i < n; ++i) {
    struct node *nd = (struct node *)malloc(sizeof *nd);
    nd->value = x[i] * x[i] + 0.5 * x[i];
    nd->index = i;
    nd->next = head;
    head = nd;
  }
  double s = 0;
  for (struct node *p = head; p; p = p->next)
    s += p->value * sin(p->value) + p->index * p->value;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return s;
}

double list_sum(const struct node *l) {
  double s = 0, w = 1;
  for (; l; l = l->next) {
    s += w * l->value * l->value;
    w *= 0.9;
  }
  return s;
}

static struct node *push(struct node *head, double v, int i) {
  struct node *nd = (struct node *)malloc(sizeof *nd);
  nd->value = v;
  nd->index = i;
  nd->next = head;
  return nd;
}

struct ctx {
  int n;
};
static double list_energy_fd(const double *v, void *p) {
  return list_energy(v, ((struct ctx *)p)->n);
}

enum { N = 12 };

int main(void) {
  volatile int nv = N;
  int n = nv;
  double x[N], dx[N];
  for (int i = 0; i < N; ++i) {
    x[i] = 0.3 + 0.6 * sin(1.3 * i);
    dx[i] = 0.5 - 0.08 * i;
  }
  /* d/dt sum (u sin u + i u), u = x^2 + x/2, du = (2x + 1/2) dx. */
  double an = 0;
  for (int i = 0; i < n; ++i) {
    double u = x[i] * x[i] + 0.5 * x[i], du = (2 * x[i] + 0.5) * dx[i];
    an += (sin(u) + u * cos(u) + i) * du;
  }
  struct ctx c = {n};
  CHECK_CLOSE(an, fd_dir(list_energy_fd, &c, x, dx, n));
  CHECK_CLOSE(an, __enzyme_fwddiff((void *)list_energy, enzyme_dup, x, dx,
                                   enzyme_const, n));
  CHECK_CLOSE(an, __enzyme_fwddiff((void *)list_energy, x, dx, n));
  CHECK_CLOSE(0.0, __enzyme_fwddiff((void *)list_energy, x, dx, 0));

  /* Caller-built list and shadow list (the head is the last pushed). */
  struct node *l = NULL, *dl = NULL;
  for (int i = 0; i < n; ++i) {
    l = push(l, x[i], i);
    dl = push(dl, dx[i], i);
  }
  double an_sum = 0, w = 1;
  for (int i = n - 1; i >= 0; --i) {
    an_sum += w * 2 * x[i] * dx[i];
    w *= 0.9;
  }
  /* The reference against differences along the same direction. */
  double s_plus, s_minus, h = 1e-6;
  {
    struct node *p = l, *q = dl;
    for (; p; p = p->next, q = q->next)
      p->value += h * q->value;
    s_plus = list_sum(l);
    for (p = l, q = dl; p; p = p->next, q = q->next)
      p->value -= 2 * h * q->value;
    s_minus = list_sum(l);
    for (p = l, q = dl; p; p = p->next, q = q->next)
      p->value += h * q->value;
  }
  CHECK_CLOSE_TOL(an_sum, (s_plus - s_minus) / (2 * h), 1e-6, 1e-8);
  CHECK_CLOSE(an_sum, __enzyme_fwddiff((void *)list_sum, enzyme_dup, l, dl));
  CHECK_CLOSE(an_sum, __enzyme_fwddiff((void *)list_sum, l, dl));
  /* The list is intact. */
  int count = 0;
  for (struct node *p = l; p; p = p->next)
    count += p->index == n - 1 - count;
  CHECK(count == n);
  while (l) {
    struct node *a = l->next, *b = dl->next;
    free(l);
    free(dl);
    l = a;
    dl = b;
  }
  return fd_report();
}
