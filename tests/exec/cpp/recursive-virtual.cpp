// A recursive structure evaluated through virtual calls (an expression
// tree, the composite pattern): the virtual call reaches the function it
// is in, so the dispatched calls are recursive and go through split
// derivatives. Inlining them again and again ran out of rounds and left a
// call through a pointer, refused as having no candidate (C++ hunt).
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <cmath>

extern "C" {
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
}

struct Node {
  virtual double eval() const = 0;
};
struct Leaf : Node {
  double v;
  explicit Leaf(double v) : v(v) {}
  double eval() const override { return v; }
};
struct Square : Node {
  Node *a;
  explicit Square(Node *a) : a(a) {}
  double eval() const override {
    double t = a->eval();
    return t * t;
  }
};
struct Sum : Node {
  Node *a, *b;
  Sum(Node *a, Node *b) : a(a), b(b) {}
  double eval() const override { return a->eval() + std::sin(b->eval()); }
};

double evaluate(const Node *root) { return root->eval(); }

int main() {
  // (x^2)^2 + sin(y^2 + sin(x))
  Leaf x(0.7), dx(0.0), y(-1.1), dy(0.0);
  Square x2(&x), dx2(&dx), x4(&x2), dx4(&dx2), y2(&y), dy2(&dy);
  Sum inner(&y2, &x), dinner(&dy2, &dx);
  Sum root(&x4, &inner), droot(&dx4, &dinner);
  __enzyme_autodiff((void *)evaluate, enzyme_dup, &root, &droot);
  double u = y.v * y.v + std::sin(x.v);
  CHECK_CLOSE(4 * std::pow(x.v, 3) + std::cos(u) * std::cos(x.v), dx.v);
  CHECK_CLOSE(std::cos(u) * 2 * y.v, dy.v);
  return fd_report();
}
