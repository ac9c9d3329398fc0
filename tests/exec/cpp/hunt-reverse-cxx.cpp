// Reverse mode on C++ written the usual way: a Vec3 template with
// operators, a particle system class holding std::vector<Particle>, a
// std::vector<double> grown with push_back inside the differentiated
// function (operator new, copy of the old buffer, operator delete),
// std::accumulate / std::inner_product / std::transform with lambdas,
// std::array, std::max_element, reference parameters, a const member
// function reached through a free function. Checked against finite
// differences and analytic gradients. -O0 is left out: a std::vector copy
// at -O0 is a documented diagnostic (docs/status.md).
// RUN: env ADTEST_CLANG=%clangxx ADTEST_LEVELS="1 2 3" sh %testlib/run-c.sh %s -std=c++17

#include "fdcheck.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <vector>

extern "C" double __enzyme_autodiff(void *, ...);
extern "C" void __enzyme_autodiff_void(void *, ...);
extern int enzyme_dup, enzyme_const, enzyme_out;

template <class T> struct Vec3 {
  T x, y, z;
  Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator*(T s) const { return {x * s, y * s, z * s}; }
  T dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  T norm() const { return std::sqrt(dot(*this)); }
};
using V3 = Vec3<double>;

struct Particle {
  V3 pos;
  double charge;
  int species;
};

class System {
public:
  std::vector<Particle> parts;
  double soft = 0.05;
  double coulomb() const {
    double e = 0;
    for (size_t i = 0; i < parts.size(); ++i)
      for (size_t j = i + 1; j < parts.size(); ++j) {
        double r = (parts[i].pos - parts[j].pos).norm();
        double k = parts[i].species == parts[j].species ? 1.0 : 0.5;
        e += k * parts[i].charge * parts[j].charge / std::sqrt(r * r + soft * soft);
      }
    return e;
  }
};
double system_energy(const System *s) { return s->coulomb(); }

/* pushes the positive terms, then a weighted sum over the grown vector */
double grow_sum(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    if (x[i] > 0) v.push_back(std::log1p(x[i]) * x[i]);
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i) s += (1.0 + i) * v[i] * v[i];
  return s;
}

double stl_mix(const double *x, int n) {
  std::vector<double> a(x, x + n), b(n);
  std::transform(a.begin(), a.end(), b.begin(), [](double t) { return std::sin(t) * t; });
  double ip = std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
  double acc = std::accumulate(b.begin(), b.end(), 0.0, [](double s, double t) { return s + t * t; });
  double mx = *std::max_element(a.begin(), a.end());
  return ip + acc + mx * mx;
}

void update(double &p, double &v, double k, double dt) {
  for (int s = 0; s < 1000; ++s) {
    v -= dt * k * std::sin(p);
    p += dt * v;
  }
}

double arr_energy(const std::array<V3, 4> *pts) {
  double e = 0;
  for (size_t i = 0; i < pts->size(); ++i) {
    const V3 &a = (*pts)[i], &b = (*pts)[(i + 1) % pts->size()];
    V3 mid = (a + b) * 0.5;
    e += (a - b).dot(a - b) + 0.1 * mid.norm();
  }
  return e;
}

struct ctx { int n; };
static double grow_F(const double *v, void *p) { return grow_sum(v, ((ctx *)p)->n); }
static double stl_F(const double *v, void *p) { return stl_mix(v, ((ctx *)p)->n); }
static void check_grad(double (*F)(const double *, void *), void *c, const double *x, int n,
                       const double *got) {
  for (int i = 0; i < n; ++i) {
    double e[32] = {0};
    e[i] = 1;
    CHECK_CLOSE_TOL(fd_dir(F, c, x, e, n), got[i], 1e-6, 1e-8);
  }
}
static System *g_sys;
static double sys_F(const double *v, void *) {
  System s = *g_sys;
  for (size_t i = 0; i < s.parts.size(); ++i) {
    s.parts[i].pos = {v[4 * i], v[4 * i + 1], v[4 * i + 2]};
    s.parts[i].charge = v[4 * i + 3];
  }
  return s.coulomb();
}
static double arr_F(const double *v, void *) {
  std::array<V3, 4> a;
  for (int i = 0; i < 4; ++i) a[i] = {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
  return arr_energy(&a);
}

int main() {
  System sys, dsys;
  for (int i = 0; i < 5; ++i) {
    sys.parts.push_back({{0.9 * i, std::sin(1.0 * i), 0.3 * i * i}, i % 2 ? 1.0 : -0.7, i % 3});
    dsys.parts.push_back({{0, 0, 0}, 0, 0});
  }
  dsys.soft = 0;
  __enzyme_autodiff((void *)system_energy, enzyme_dup, &sys, &dsys);
  double flat[20], gflat[20];
  for (int i = 0; i < 5; ++i) {
    const Particle &p = sys.parts[i], &d = dsys.parts[i];
    flat[4 * i] = p.pos.x; flat[4 * i + 1] = p.pos.y; flat[4 * i + 2] = p.pos.z; flat[4 * i + 3] = p.charge;
    gflat[4 * i] = d.pos.x; gflat[4 * i + 1] = d.pos.y; gflat[4 * i + 2] = d.pos.z; gflat[4 * i + 3] = d.charge;
  }
  g_sys = &sys;
  check_grad(sys_F, nullptr, flat, 20, gflat);
  double h = 1e-6;
  System sp = sys, sm = sys;
  sp.soft += h; sm.soft -= h;
  CHECK_CLOSE_TOL((sp.coulomb() - sm.coulomb()) / (2 * h), dsys.soft, 1e-6, 1e-9);

  double x[12], dx[12];
  for (int i = 0; i < 12; ++i) x[i] = std::sin(1.7 * i) + 0.2;
  for (int n : {0, 1, 5, 12}) {
    std::fill(dx, dx + 12, 0.0);
    __enzyme_autodiff((void *)grow_sum, enzyme_dup, x, dx, enzyme_const, n);
    ctx c{n};
    check_grad(grow_F, &c, x, n, dx);
    for (int i = 0; i < n; ++i) if (x[i] < 0) CHECK(dx[i] == 0);
    std::fill(dx, dx + 12, 0.0);
    if (n > 0) {
      __enzyme_autodiff((void *)stl_mix, enzyme_dup, x, dx, enzyme_const, n);
      check_grad(stl_F, &c, x, n, dx);
    }
  }

  /* references: pendulum state updated in place, k out */
  {
    double p = 0.8, v = -0.3, dp = 1.0, dv = 2.0;
    double dk = __enzyme_autodiff((void *)update, enzyme_dup, &p, &dp, enzyme_dup, &v, &dv, 2.5,
                                  enzyme_const, 1e-3);
    auto L = [](double p0, double v0, double k) {
      update(p0, v0, k, 1e-3);
      return p0 + 2 * v0;
    };
    double hp = 1e-6;
    CHECK_CLOSE_TOL((L(0.8 + hp, -0.3, 2.5) - L(0.8 - hp, -0.3, 2.5)) / (2 * hp), dp, 1e-6, 1e-8);
    CHECK_CLOSE_TOL((L(0.8, -0.3 + hp, 2.5) - L(0.8, -0.3 - hp, 2.5)) / (2 * hp), dv, 1e-6, 1e-8);
    CHECK_CLOSE_TOL((L(0.8, -0.3, 2.5 + hp) - L(0.8, -0.3, 2.5 - hp)) / (2 * hp), dk, 1e-6, 1e-8);
  }
  {
    std::array<V3, 4> pts{{{1, 0.2, 0}, {0.1, 1.3, 0.4}, {-0.9, 0.1, 0.7}, {0.2, -1.1, 0.3}}}, dpts{};
    __enzyme_autodiff((void *)arr_energy, enzyme_dup, &pts, &dpts);
    double v[12], g[12];
    for (int i = 0; i < 4; ++i) {
      v[3 * i] = pts[i].x; v[3 * i + 1] = pts[i].y; v[3 * i + 2] = pts[i].z;
      g[3 * i] = dpts[i].x; g[3 * i + 1] = dpts[i].y; g[3 * i + 2] = dpts[i].z;
    }
    check_grad(arr_F, nullptr, v, 12, g);
  }
  return fd_report();
}
