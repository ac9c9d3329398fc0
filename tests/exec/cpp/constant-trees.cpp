// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
//
// Constant trees walked by recursion beside active data: a plain struct
// tree passed enzyme_const, the same through virtual calls, and a tree of
// unique_ptr nodes built inside the differentiated function. The
// recursive derivatives were called with the constant tree duplicated and
// its shadow in the sink (which absorbs adjoints of constant memory), so
// they followed the null child shadows loaded from it: a segfault at every
// level (found by the C++ hunt). A pointer whose shadow is the sink is now
// constant for the callee as well.
#include "enzyme.h"
#include "fdcheck.h"
#include <memory>

struct TNode { int var; const TNode *l; const TNode *r; };
static double ev_plain(const TNode *t, const double *v) {
  if (!t->l) return v[t->var];
  return ev_plain(t->l, v) * ev_plain(t->r, v);
}
double plain(const double *v, const TNode *t) { return ev_plain(t, v); }

struct Node { virtual double eval(const double *v) const = 0; };
struct Leaf : Node {
  int i;
  explicit Leaf(int i) : i(i) {}
  double eval(const double *v) const override { return v[i]; }
};
struct Mul : Node {
  const Node *a, *b;
  Mul(const Node *a, const Node *b) : a(a), b(b) {}
  double eval(const double *v) const override { return a->eval(v) * b->eval(v); }
};
double virt(const double *v, const Node *t) { return t->eval(v); }

struct N { int var; std::unique_ptr<N> l, r; };
static std::unique_ptr<N> build(int d) {
  auto n = std::make_unique<N>();
  n->var = d % 2;
  if (d > 0) { n->l = build(d - 1); n->r = build(d - 1); }
  return n;
}
static double ev_owned(const N *t, const double *v) {
  if (!t->l) return v[t->var];
  return ev_owned(t->l.get(), v) + ev_owned(t->r.get(), v) * v[t->var];
}
double owned(const double *v) { auto t = build(3); return ev_owned(t.get(), v); }
static double owned_fd(const double *v, void *) { return owned(v); }

int main() {
  double v[2] = {0.7, 1.3};
  {
    TNode l0{0, nullptr, nullptr}, l1{1, nullptr, nullptr};
    TNode a{0, &l0, &l1}, top{0, &a, &l1}; // v0 * v1 * v1
    double dv[2] = {0.25, -0.5};           // accumulated into
    __enzyme_autodiff((void *)plain, enzyme_dup, v, dv, enzyme_const, &top);
    CHECK_CLOSE(0.25 + v[1] * v[1], dv[0]);
    CHECK_CLOSE(-0.5 + 2 * v[0] * v[1], dv[1]);
  }
  {
    Leaf l0(0), l1(1);
    Mul m(&l0, &l1), top(&m, &l1); // v0 * v1 * v1
    double dv[2] = {0, 0};
    __enzyme_autodiff((void *)virt, enzyme_dup, v, dv, enzyme_const,
                      (const Node *)&top);
    CHECK_CLOSE(v[1] * v[1], dv[0]);
    CHECK_CLOSE(2 * v[0] * v[1], dv[1]);
  }
  {
    double dv[2] = {0, 0};
    __enzyme_autodiff((void *)owned, enzyme_dup, v, dv);
    CHECK_GRADIENT(owned_fd, nullptr, v, 2, dv);
  }
  return fd_report();
}
