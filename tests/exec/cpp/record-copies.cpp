// Records with fields this function never reads by themselves (an `int
// id` beside a double), copied whole: by value in a range-for over a
// std::vector (at -O0 the copy's integer half moves through the iterator,
// a pointer that walks the records: it was refused as "an integer access
// to memory that holds active floating-point data"). Found by the C++
// new-user hunt. Gradients checked against finite differences, other
// fields kept, -O0..-O3. (std::copy of such records between two vectors
// is still refused: the memmove's pointers are loaded from the vectors,
// and the type analysis does not tie them to the loads that read the
// elements.)
// RUN: env ADTEST_CLANG=%clangxx sh %testlib/run-c.sh %s -std=c++17
#include "fdcheck.h"
#include <algorithm>
#include <cmath>
#include <vector>

extern "C" {
double __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_out;
}

struct Body { double x; int id; };
enum { N = 6 };

__attribute__((noinline)) double drift(std::vector<Body> *bs, double dt) {
  double e = 0;
  for (Body &b : *bs) {
    Body c = b;
    c.x += dt * c.x * c.x;
    b = c;
    e += c.x * c.x;
  }
  return e;
}

static double drift_F(const double *v, void *) {
  std::vector<Body> b(N);
  for (int i = 0; i < N; ++i) b[i] = Body{v[i], i};
  return drift(&b, v[N]);
}
int main() {
  double v[2 * N], g[2 * N];
  {
    std::vector<Body> b(N), db(N);
    for (int i = 0; i < N; ++i) { b[i] = Body{0.2 + 0.15 * i, i}; db[i] = Body{0, -1}; v[i] = b[i].x; }
    v[N] = 0.3;
    double ddt = __enzyme_autodiff((void *)drift, enzyme_dup, &b, &db, enzyme_out, 0.3);
    for (int i = 0; i < N; ++i) g[i] = db[i].x;
    g[N] = ddt;
    CHECK_GRADIENT(drift_F, nullptr, v, N + 1, g);
    for (int i = 0; i < N; ++i) CHECK(b[i].id == i);
  }
  return fd_report();
}
