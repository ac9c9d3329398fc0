// Objects held in std::vector<std::unique_ptr<Base>> and called through
// virtual functions (C++ hunt):
//  - the vector grows to three elements without reserve: libstdc++ moves
//    the old unique_ptrs into the new buffer as one <2 x i64> load and
//    store; the shadow pointers were not moved along (a null shadow slot,
//    a segfault in the reverse sweep at -O2/-O3);
//  - an object whose only double is a constant (no shadow) is put beside
//    one holding active data: its address is stored as an integer, and its
//    shadow slot stayed null (the adjoint of the constant landed at
//    null+8); it now gets the sink as shadow, which the releases of
//    recorded shadows skip (it is not heap memory);
//  - a two-layer network whose layers return std::vector.
// Under the sanitizer build, any invalid access, bad free or leak fails.
// Gradients against finite differences.
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <cmath>
#include <memory>
#include <vector>

extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
}

struct Op {
  virtual ~Op() {}
  virtual double apply(double v) const = 0;
};
struct Scale : Op {
  double a;
  explicit Scale(double a_) : a(a_) {}
  double apply(double v) const override { return a * v; }
};
struct Sine : Op {
  double apply(double v) const override { return std::sin(v); }
};
struct Soft : Op {
  double beta;
  explicit Soft(double b) : beta(b) {}
  double apply(double v) const override { return std::exp(beta * v) / beta; }
};

extern "C" double grown_chain(const double *x) {
  std::vector<std::unique_ptr<Op>> c;
  c.emplace_back(new Scale(x[0]));
  c.emplace_back(new Sine());
  c.emplace_back(new Scale(x[2]));
  c.emplace_back(new Sine());
  double v = x[1];
  for (auto &op : c)
    v = op->apply(v);
  return v;
}

extern "C" double constant_object(const double *x) {
  std::vector<std::unique_ptr<Op>> c;
  c.reserve(2);
  c.push_back(std::make_unique<Scale>(x[0]));
  c.push_back(std::make_unique<Soft>(2.0));
  double v = x[1];
  for (auto &op : c)
    v = op->apply(v);
  return v * x[2];
}

struct Layer {
  virtual ~Layer() = default;
  virtual std::vector<double> forward(const std::vector<double> &in) const = 0;
};
struct Dense : Layer {
  const double *w;
  int nin, nout;
  Dense(const double *w_, int ni, int no) : w(w_), nin(ni), nout(no) {}
  std::vector<double> forward(const std::vector<double> &in) const override {
    std::vector<double> out(nout, 0.0);
    for (int o = 0; o < nout; ++o)
      for (int i = 0; i < nin; ++i)
        out[o] += w[o * nin + i] * in[i];
    return out;
  }
};
struct Softplus : Layer {
  double beta;
  explicit Softplus(double b) : beta(b) {}
  std::vector<double> forward(const std::vector<double> &in) const override {
    std::vector<double> out;
    for (double v : in)
      out.push_back(std::log1p(std::exp(beta * v)) / beta);
    return out;
  }
};

extern "C" double network(const double *w) {
  std::vector<std::unique_ptr<Layer>> net;
  net.push_back(std::make_unique<Dense>(w, 2, 2));
  net.push_back(std::make_unique<Softplus>(2.0));
  std::vector<double> a = {0.5, -1.0};
  for (const auto &l : net)
    a = l->forward(a);
  return a[0] * a[1];
}

static double grown_fd(const double *x, void *) { return grown_chain(x); }
static double constant_fd(const double *x, void *) { return constant_object(x); }
static double network_fd(const double *x, void *) { return network(x); }

int main() {
  double x[4] = {0.8, 0.6, -0.4, 0.7}, dx[4];
  for (double &d : dx)
    d = 0;
  __enzyme_autodiff((void *)grown_chain, enzyme_dup, x, dx);
  CHECK_GRADIENT(grown_fd, 0, x, 3, dx);
  for (double &d : dx)
    d = 0;
  __enzyme_autodiff((void *)constant_object, enzyme_dup, x, dx);
  CHECK_GRADIENT(constant_fd, 0, x, 3, dx);
  double w[4] = {0.3, -0.2, 0.7, 0.4}, dw[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)network, enzyme_dup, w, dw);
  CHECK_GRADIENT(network_fd, 0, w, 4, dw);
  return fd_report();
}
