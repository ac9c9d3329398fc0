// Reverse mode through noinline callees that free memory their caller
// allocated inside the differentiated function: a destructor function
// (`vec_free(v)`), a consumer that reads a buffer and frees it, a release
// two calls deep, a release in a loop of the caller, and a callee freeing
// one of two buffers it is given. The caller's reverse sweep still reads
// the shadow after the callee's reverse sweep is done, so the callee
// cannot release it there; the outermost derivative releases it once its
// own reverse sweep is done. In the sanitizer build LeakSanitizer checks
// that every shadow is released exactly once (and AddressSanitizer that
// none is used after its release). Gradients against finite differences.
// RUN: sh %testlib/run-c.sh %s

#include "enzyme.h"
#include "fdcheck.h"
#include <stdlib.h>
#include <string.h>
enum { N = 5 };
typedef struct { int n; double *data; } Vec;

__attribute__((noinline)) void vec_free(Vec *v) {
  free(v->data);
  free(v);
}
__attribute__((noinline)) double sum_and_free(double **slot, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += (*slot)[i] * (*slot)[i];
  free(*slot);
  *slot = 0;
  return s;
}
__attribute__((noinline)) double deeper(double **slot, int n) {
  return 0.5 * sum_and_free(slot, n);
}
__attribute__((noinline)) double keep_one(Vec *a, Vec *b) {
  double s = 0;
  for (int i = 0; i < a->n; ++i) s += a->data[i] * b->data[i];
  free(b->data);
  b->data = 0;
  return s;
}

typedef struct Tree { double v; struct Tree *l, *r; } Tree;
__attribute__((noinline)) double *make_squares(const double *x, int n) {
  double *b = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) b[i] = x[i] * x[i];
  return b;
}
__attribute__((noinline)) void release(double *p) { free(p); }
__attribute__((noinline)) void free_tree(Tree *t) {
  if (!t) return;
  free_tree(t->l);
  free_tree(t->r);
  free(t);
}
__attribute__((noinline)) Tree *leaf(double v) {
  Tree *t = malloc(sizeof(Tree));
  t->v = v;
  t->l = t->r = 0;
  return t;
}
__attribute__((noinline)) double consume(double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += p[i] * p[i];
  free(p);
  return s;
}

double loss_made_released(const double *x) {
  double *b = make_squares(x, N);
  double r = 0;
  for (int i = 0; i < N; ++i) r += b[i] * sin(x[i]);
  release(b);
  return r;
}
double loss_tree(const double *x) {
  Tree *root = leaf(x[0]);
  root->l = leaf(x[1] * x[2]);
  root->r = leaf(cos(x[3]));
  root->l->l = leaf(x[4]);
  double s = root->v * root->l->v + root->r->v * root->l->l->v;
  free_tree(root);
  return s;
}
typedef struct Node { double v; struct Node *next; } Node;
__attribute__((noinline)) void push_front(Node **h, double v) {
  Node *n = malloc(sizeof *n);
  n->v = v;
  n->next = *h;
  *h = n;
}
/* Nodes a noinline push made, freed here node by node (the freed pointer
   is a loop phi of the head and each `next` read). */
double loss_list(const double *x) {
  Node *h = 0;
  for (int i = 0; i < N; ++i) push_front(&h, x[i] * x[(i + 1) % N]);
  double s = 0;
  int k = 1;
  for (Node *n = h; n; n = n->next) s += k++ * n->v * n->v;
  while (h) {
    Node *m = h->next;
    free(h);
    h = m;
  }
  return s;
}
/* Rows a noinline function made, kept in a heap `double **` and freed
   here through it. */
double loss_rows(const double *x) {
  double **rows = malloc(3 * sizeof(double *));
  for (int k = 0; k < 3; ++k) rows[k] = make_squares(x + k, 2);
  double s = 0;
  for (int k = 0; k < 3; ++k) s += rows[k][0] * rows[k][1] * (k + 1);
  for (int k = 0; k < 3; ++k) free(rows[k]);
  free(rows);
  return s;
}
double loss_user_buffer(double *p) { return 0.5 * consume(p, N); }

double loss_vec(const double *x) {
  Vec *v = malloc(sizeof(Vec));
  v->n = N;
  v->data = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i) v->data[i] = exp(0.3 * x[i]);
  double s = 0;
  for (int i = 0; i < v->n; ++i) s += v->data[i] * x[i];
  vec_free(v);
  return s;
}
double loss_consumed(const double *x) {
  double *b = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i) b[i] = sin(x[i]) * x[(i + 2) % N];
  double first = b[0];
  return sum_and_free(&b, N) + first * x[3];
}
double loss_deeper(const double *x) {
  double s = 0;
  for (int k = 1; k <= 3; ++k) {
    double *b = malloc(N * sizeof(double));
    for (int i = 0; i < N; ++i) b[i] = k * x[i] * x[(i + k) % N];
    s += deeper(&b, N);
  }
  return s;
}
double loss_keep_one(const double *x) {
  Vec a = {N, malloc(N * sizeof(double))};
  Vec b = {N, malloc(N * sizeof(double))};
  for (int i = 0; i < N; ++i) {
    a.data[i] = cos(x[i]);
    b.data[i] = x[i] * x[(i + 1) % N];
  }
  double s = keep_one(&a, &b);
  s += a.data[1] * a.data[2];
  free(a.data);
  return s;
}

static double made_released_fd(const double *x, void *c) { (void)c; return loss_made_released(x); }
static double rows_fd(const double *x, void *c) { (void)c; return loss_rows(x); }
static double list_fd(const double *x, void *c) { (void)c; return loss_list(x); }
static double tree_fd(const double *x, void *c) { (void)c; return loss_tree(x); }
static double vec_fd(const double *x, void *c) { (void)c; return loss_vec(x); }
static double consumed_fd(const double *x, void *c) { (void)c; return loss_consumed(x); }
static double deeper_fd(const double *x, void *c) { (void)c; return loss_deeper(x); }
static double keep_one_fd(const double *x, void *c) { (void)c; return loss_keep_one(x); }

int main(void) {
  double x[N] = {0.3, -0.5, 0.7, 1.1, -0.2}, dx[N];
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_vec, enzyme_dup, x, dx);
  CHECK_GRADIENT(vec_fd, 0, x, N, dx);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_consumed, enzyme_dup, x, dx);
  CHECK_GRADIENT(consumed_fd, 0, x, N, dx);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_deeper, enzyme_dup, x, dx);
  CHECK_GRADIENT(deeper_fd, 0, x, N, dx);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_keep_one, enzyme_dup, x, dx);
  CHECK_GRADIENT(keep_one_fd, 0, x, N, dx);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_made_released, enzyme_dup, x, dx);
  CHECK_GRADIENT(made_released_fd, 0, x, N, dx);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)loss_tree, enzyme_dup, x, dx);
  CHECK_GRADIENT(tree_fd, 0, x, N, dx);
  for (int r = 0; r < 2; ++r) { /* twice: a tape pool keeps the last call's */
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)loss_list, enzyme_dup, x, dx);
    CHECK_GRADIENT(list_fd, 0, x, N, dx);
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)loss_rows, enzyme_dup, x, dx);
    CHECK_GRADIENT(rows_fd, 0, x, N, dx);
  }
  // The user's buffer, freed by the function: its shadow stays the
  // user's (d/dp of 0.5 * sum p^2 is p).
  double *p = malloc(N * sizeof(double)), *dp = calloc(N, sizeof(double));
  for (int i = 0; i < N; ++i) p[i] = x[i];
  __enzyme_autodiff((void *)loss_user_buffer, enzyme_dup, p, dp);
  for (int i = 0; i < N; ++i) CHECK_CLOSE(x[i], dp[i]);
  free(dp);
  return fd_report();
}
