// C++ objects built inside the differentiated function and destroyed by
// noinline functions kept as calls: a class whose out-of-line destructor
// deletes the buffer its inline constructor made, a `std::unique_ptr`
// handed to a sink that destroys it, and a noinline `clear()` that deletes
// a node list. The shadows of what those callees delete are released by
// the outermost derivative once its reverse sweep is done (the caller's
// reverse sweep still adds into them after the callee's is over). Under
// the sanitizer build, a leak, a double free, a use after free or a
// mismatched delete fails the test. Gradients against finite differences.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <cmath>
#include <memory>

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
}

enum { N = 4 };

class Buffer {
public:
  explicit Buffer(int n) : n_(n), data_(new double[n]) {}
  __attribute__((noinline)) ~Buffer();
  double &operator[](int i) { return data_[i]; }
  int size() const { return n_; }

private:
  int n_;
  double *data_;
};
Buffer::~Buffer() { delete[] data_; }

struct Node {
  double value;
  Node *next;
};

class List {
public:
  void push(double v) { head_ = new Node{v, head_}; }
  double weighted() const {
    double s = 0;
    int k = 1;
    for (Node *n = head_; n; n = n->next)
      s += k++ * n->value * n->value;
    return s;
  }
  __attribute__((noinline)) void clear();

private:
  Node *head_ = nullptr;
};
void List::clear() {
  while (head_) {
    Node *next = head_->next;
    delete head_;
    head_ = next;
  }
}

__attribute__((noinline)) double sink(std::unique_ptr<double[]> p, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[(i + 1) % n];
  return s;
}

extern "C" double with_buffer(const double *x) {
  double s = 0;
  {
    Buffer b(N);
    for (int i = 0; i < b.size(); ++i)
      b[i] = std::sin(x[i]) * x[(i + 1) % N];
    for (int i = 0; i < b.size(); ++i)
      s += b[i] * b[i];
  }
  return s;
}

extern "C" double with_sink(const double *x) {
  std::unique_ptr<double[]> p(new double[N]);
  for (int i = 0; i < N; ++i)
    p[i] = std::exp(0.2 * x[i]) + x[i];
  double first = p[0];
  return sink(std::move(p), N) * first;
}

extern "C" double with_list(const double *x) {
  List l;
  for (int i = 0; i < N; ++i)
    l.push(x[i] * x[(i + 2) % N]);
  double s = l.weighted();
  l.clear();
  return s;
}

static double buffer_fd(const double *x, void *) { return with_buffer(x); }
static double sink_fd(const double *x, void *) { return with_sink(x); }
static double list_fd(const double *x, void *) { return with_list(x); }

int main() {
  double x[N] = {0.4, -0.7, 1.2, 0.3}, dx[N];
  for (double &d : dx)
    d = 0;
  __enzyme_autodiff((void *)with_buffer, enzyme_dup, x, dx);
  CHECK_GRADIENT(buffer_fd, 0, x, N, dx);
  for (double &d : dx)
    d = 0;
  __enzyme_autodiff((void *)with_sink, enzyme_dup, x, dx);
  CHECK_GRADIENT(sink_fd, 0, x, N, dx);
  for (double &d : dx)
    d = 0;
  __enzyme_autodiff((void *)with_list, enzyme_dup, x, dx);
  CHECK_GRADIENT(list_fd, 0, x, N, dx);
  return fd_report();
}
