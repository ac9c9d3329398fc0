//===- bench/reverse_problems.cpp - Kernel data and gradient checks -------===//
//
// Inputs are uniform pseudo-random numbers from a fixed seed (ADBench's
// inputs are random too); sizes are listed in Kernels(). Every primal is
// the -O2 build's; the gradient of each build is checked against central
// differences of it.
//
//===----------------------------------------------------------------------===//
#include "reverse_problems.h"

#define RK_VARIANT o2
#include "reverse_kernels.h"
#undef RK_VARIANT
#define RK_VARIANT o0
#include "reverse_kernels.h"
#undef RK_VARIANT
#define RK_VARIANT nf
#include "reverse_kernels.h"
#undef RK_VARIANT

/// The gradient function `name` of variant `v`'s build.
#define RK_PICK(v, name)                                                       \
  ((v) == Variant::kAfterOpt        ? name##_o2                                \
   : (v) == Variant::kAfterOptExact ? name##_nf                                \
                                    : name##_o0)

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>

namespace reverse_bench {
namespace {

using Vec = std::vector<double>;

/// n numbers uniform in [lo, hi), the same on every run.
Vec Random(size_t n, double lo, double hi, uint64_t seed) {
  Vec v(n);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (double &x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = lo + (hi - lo) * static_cast<double>(s >> 11) * 0x1.0p-53;
  }
  return v;
}

void Zero(Vec &v) { std::fill(v.begin(), v.end(), 0.0); }

// ---- GMM ----------------------------------------------------------------

class Gmm : public Problem {
public:
  Gmm(int d, int k, int n)
      : d_(d), k_(k), n_(n), alphas_(Random(k, -1, 1, 1)),
        means_(Random(k * d, -1, 1, 2)),
        icf_(Random(k * d * (d + 1) / 2, -0.5, 0.5, 3)),
        x_(Random(n * d, -1, 1, 4)), da_(alphas_.size()),
        dm_(means_.size()), di_(icf_.size()) {}
  double Objective() {
    double err = 0;
    gmm_objective_o2(d_, k_, n_, alphas_.data(), means_.data(), icf_.data(),
                     x_.data(), kGamma, kM, &err);
    return err;
  }
  void Primal() override { benchmark::DoNotOptimize(Objective()); }
  void Grad(Variant v) override {
    auto *grad = RK_PICK(v, grad_gmm);
    grad(d_, k_, n_, alphas_.data(), da_.data(), means_.data(), dm_.data(),
         icf_.data(), di_.data(), x_.data(), kGamma, kM);
  }
  void ZeroGrad() override {
    Zero(da_);
    Zero(dm_);
    Zero(di_);
  }
  void Check(Variant v, const std::string &what, Checker &c) override {
    ZeroGrad();
    Grad(v);
    auto f = [this] { return Objective(); };
    c.Components(what + " alphas", alphas_.data(), alphas_.size(), da_.data(),
                 f);
    c.Components(what + " means", means_.data(), means_.size(), dm_.data(),
                 f);
    c.Components(what + " icf", icf_.data(), icf_.size(), di_.data(), f);
  }

private:
  static constexpr double kGamma = 1.0; // ADBench's Wishart parameters
  static constexpr int kM = 0;
  int d_, k_, n_;
  Vec alphas_, means_, icf_, x_, da_, dm_, di_;
};

// ---- LSTM ---------------------------------------------------------------

class Lstm : public Problem {
public:
  Lstm(int l, int c, int b)
      : l_(l), c_(c), b_(b), main_(Random(8 * l * b, -1, 1, 5)),
        extra_(Random(3 * b, -1, 1, 6)), state_(Random(2 * l * b, -1, 1, 7)),
        seq_(Random(c * b, 0, 1, 8)), dmain_(main_.size()),
        dextra_(extra_.size()) {}
  double Objective() {
    double loss = 0;
    lstm_objective_o2(l_, c_, b_, main_.data(), extra_.data(), state_.data(),
                      seq_.data(), &loss);
    return loss;
  }
  void Primal() override { benchmark::DoNotOptimize(Objective()); }
  void Grad(Variant v) override {
    auto *grad = RK_PICK(v, grad_lstm);
    grad(l_, c_, b_, main_.data(), dmain_.data(), extra_.data(),
         dextra_.data(), state_.data(), seq_.data());
  }
  void ZeroGrad() override {
    Zero(dmain_);
    Zero(dextra_);
  }
  void Check(Variant v, const std::string &what, Checker &c) override {
    ZeroGrad();
    Grad(v);
    auto f = [this] { return Objective(); };
    c.Components(what + " main", main_.data(), main_.size(), dmain_.data(), f);
    c.Components(what + " extra", extra_.data(), extra_.size(),
                 dextra_.data(), f);
  }

private:
  int l_, c_, b_;
  Vec main_, extra_, state_, seq_, dmain_, dextra_;
};

// ---- Bundle adjustment --------------------------------------------------

class Ba : public Problem {
public:
  Ba(int ncams, int npts, int nobs)
      : p_(nobs), cams_(ncams * RK_BA_CAM), X_(Random(3 * npts, -1, 1, 9)),
        w_(Random(nobs, 0.5, 1.5, 10)), feats_(Random(2 * nobs, -1, 1, 11)),
        err_(2 * nobs), J_(15 * nobs), obs_(2 * nobs) {
    Vec r = Random(cams_.size(), 0, 1, 12);
    for (int i = 0; i < ncams; ++i) {
      double *cam = &cams_[i * RK_BA_CAM];
      const double *u = &r[i * RK_BA_CAM];
      for (int j = 0; j < 3; ++j) {
        cam[j] = 0.2 * (u[j] - 0.5);         // small rotation
        cam[3 + j] = 0.5 * (u[3 + j] - 0.5); // centre near the origin
      }
      cam[6] = 1 + 0.2 * u[6];               // focal length
      cam[7] = 0.1 * (u[7] - 0.5);           // principal point
      cam[8] = 0.1 * (u[8] - 0.5);
      cam[9] = 0.02 * (u[9] - 0.5);          // radial distortion
      cam[10] = 0.02 * (u[10] - 0.5);
    }
    for (int i = 0; i < npts; ++i)
      X_[3 * i + 2] += 6; // in front of every camera
    Vec pick = Random(nobs, 0, 1, 13);
    for (int i = 0; i < nobs; ++i) {
      obs_[2 * i] = i % ncams;
      obs_[2 * i + 1] = static_cast<int>(pick[i] * npts);
    }
  }
  void Primal() override {
    ba_objective_o2(p_, cams_.data(), X_.data(), w_.data(), obs_.data(),
                    feats_.data(), err_.data());
    benchmark::DoNotOptimize(err_.data());
    benchmark::ClobberMemory();
  }
  void Grad(Variant v) override {
    auto *grad = RK_PICK(v, grad_ba);
    grad(p_, cams_.data(), X_.data(), w_.data(), obs_.data(), feats_.data(),
         kSeed, J_.data());
    benchmark::ClobberMemory();
  }
  void ZeroGrad() override { Zero(J_); }
  void Check(Variant v, const std::string &what, Checker &c) override {
    ZeroGrad();
    Grad(v);
    for (int i : {0, p_ / 2, p_ - 1}) {
      double *cam = &cams_[obs_[2 * i] * RK_BA_CAM];
      double *X = &X_[obs_[2 * i + 1] * 3];
      auto f = [&] {
        double e[2];
        ba_reproj_o2(cam, X, &w_[i], &feats_[2 * i], e);
        return kSeed[0] * e[0] + kSeed[1] * e[1];
      };
      std::string at = what + " observation " + std::to_string(i);
      for (int j = 0; j < RK_BA_CAM; ++j)
        c.One(at + " camera", &cam[j], J_[15 * i + j], f);
      for (int j = 0; j < 3; ++j)
        c.One(at + " point", &X[j], J_[15 * i + RK_BA_CAM + j], f);
      c.One(at + " weight", &w_[i], J_[15 * i + 14], f);
    }
  }

private:
  static constexpr double kSeed[2] = {1.0, 1.0};
  int p_;
  Vec cams_, X_, w_, feats_, err_, J_;
  std::vector<int> obs_;
};

// ---- Vector normalization -----------------------------------------------

class Normalize : public Problem {
public:
  explicit Normalize(long n)
      : n_(n), x_(Random(n, -1, 1, 14)), w_(Random(n, -1, 1, 15)), out_(n),
        dout_(n), dx_(n) {}
  void Primal() override {
    normalize_o2(out_.data(), x_.data(), n_);
    benchmark::ClobberMemory();
  }
  void Grad(Variant v) override {
    auto *grad = RK_PICK(v, grad_normalize);
    grad(out_.data(), dout_.data(), x_.data(), dx_.data(), w_.data(), n_);
    benchmark::ClobberMemory();
  }
  void ZeroGrad() override { Zero(dx_); }
  void Check(Variant v, const std::string &what, Checker &c) override {
    ZeroGrad();
    Grad(v);
    c.Components(what + " x", x_.data(), x_.size(), dx_.data(), [this] {
      normalize_o2(out_.data(), x_.data(), n_);
      double s = 0;
      for (long i = 0; i < n_; ++i)
        s += w_[i] * out_[i];
      return s;
    });
  }

private:
  long n_;
  Vec x_, w_, out_, dout_, dx_;
};

// ---- RK4 spring chain ---------------------------------------------------

class Rk4Chain : public Problem {
public:
  explicit Rk4Chain(long steps)
      : steps_(steps), y0_(Random(2 * RK_CHAIN, -0.5, 0.5, 16)),
        ks_(Random(RK_CHAIN + 1, 0.5, 1.5, 17)), dy0_(y0_.size()),
        dks_(ks_.size()) {}
  double Objective() {
    return rk4_chain_o2(y0_.data(), ks_.data(), steps_, kDt);
  }
  void Primal() override { benchmark::DoNotOptimize(Objective()); }
  void Grad(Variant v) override {
    auto *grad = RK_PICK(v, grad_rk4_chain);
    grad(y0_.data(), dy0_.data(), ks_.data(), dks_.data(), steps_, kDt);
    benchmark::ClobberMemory();
  }
  void ZeroGrad() override {
    Zero(dy0_);
    Zero(dks_);
  }
  void Check(Variant v, const std::string &what, Checker &c) override {
    ZeroGrad();
    Grad(v);
    auto f = [this] { return Objective(); };
    c.Components(what + " y0", y0_.data(), y0_.size(), dy0_.data(), f);
    c.Components(what + " ks", ks_.data(), ks_.size(), dks_.data(), f);
  }

private:
  static constexpr double kDt = 0.01;
  long steps_;
  Vec y0_, ks_, dy0_, dks_;
};

// ---- MLP ----------------------------------------------------------------

class Mlp : public Problem {
public:
  explicit Mlp(long batch)
      : batch_(batch), W1_(Random(RK_MLP_HID * RK_MLP_IN, -0.3, 0.3, 18)),
        b1_(Random(RK_MLP_HID, -0.1, 0.1, 19)),
        W2_(Random(RK_MLP_OUT * RK_MLP_HID, -0.3, 0.3, 20)),
        b2_(Random(RK_MLP_OUT, -0.1, 0.1, 21)),
        X_(Random(batch * RK_MLP_IN, -1, 1, 22)),
        Y_(Random(batch * RK_MLP_OUT, -1, 1, 23)), dW1_(W1_.size()),
        db1_(b1_.size()), dW2_(W2_.size()), db2_(b2_.size()) {}
  double Objective() {
    return mlp_loss_o2(W1_.data(), b1_.data(), W2_.data(), b2_.data(),
                       X_.data(), Y_.data(), batch_);
  }
  void Primal() override { benchmark::DoNotOptimize(Objective()); }
  void Grad(Variant v) override {
    auto *grad = RK_PICK(v, grad_mlp);
    grad(W1_.data(), dW1_.data(), b1_.data(), db1_.data(), W2_.data(),
         dW2_.data(), b2_.data(), db2_.data(), X_.data(), Y_.data(), batch_);
    benchmark::ClobberMemory();
  }
  void ZeroGrad() override {
    Zero(dW1_);
    Zero(db1_);
    Zero(dW2_);
    Zero(db2_);
  }
  void Check(Variant v, const std::string &what, Checker &c) override {
    ZeroGrad();
    Grad(v);
    auto f = [this] { return Objective(); };
    c.Components(what + " W1", W1_.data(), W1_.size(), dW1_.data(), f);
    c.Components(what + " b1", b1_.data(), b1_.size(), db1_.data(), f);
    c.Components(what + " W2", W2_.data(), W2_.size(), dW2_.data(), f);
    c.Components(what + " b2", b2_.data(), b2_.size(), db2_.data(), f);
  }

private:
  long batch_;
  Vec W1_, b1_, W2_, b2_, X_, Y_, dW1_, db1_, dW2_, db2_;
};

// ---- logsumexp ----------------------------------------------------------

class LogSumExp : public Problem {
public:
  explicit LogSumExp(long n) : n_(n), x_(Random(n, -3, 3, 24)), dx_(n) {}
  double Objective() { return logsumexp_o2(x_.data(), n_); }
  void Primal() override { benchmark::DoNotOptimize(Objective()); }
  void Grad(Variant v) override {
    auto *grad = RK_PICK(v, grad_logsumexp);
    grad(x_.data(), dx_.data(), n_);
    benchmark::ClobberMemory();
  }
  void ZeroGrad() override { Zero(dx_); }
  void Check(Variant v, const std::string &what, Checker &c) override {
    ZeroGrad();
    Grad(v);
    // The largest element too: the maximum is taken there.
    size_t top = std::max_element(x_.begin(), x_.end()) - x_.begin();
    auto f = [this] { return Objective(); };
    c.Components(what + " x", x_.data(), x_.size(), dx_.data(), f);
    c.One(what + " x[argmax]", &x_[top], dx_[top], f);
  }

private:
  long n_;
  Vec x_, dx_;
};

// ---- Nonlinear diffusion ------------------------------------------------

class Diffusion : public Problem {
public:
  Diffusion(long n, long steps)
      : n_(n), steps_(steps), u0_(Random(n * n, 0, 1.5, 25)),
        w_(Random(n * n, -1, 1, 26)), u_(n * n), tmp_(n * n), du0_(n * n),
        du_(n * n), dtmp_(n * n) {}
  double Objective() {
    return diffusion_o2(u0_.data(), w_.data(), u_.data(), tmp_.data(), n_,
                        steps_);
  }
  void Primal() override { benchmark::DoNotOptimize(Objective()); }
  void Grad(Variant v) override {
    auto *grad = RK_PICK(v, grad_diffusion);
    grad(u0_.data(), du0_.data(), w_.data(), u_.data(), du_.data(),
         tmp_.data(), dtmp_.data(), n_, steps_);
    benchmark::ClobberMemory();
  }
  void ZeroGrad() override {
    Zero(du0_);
    Zero(du_);
    Zero(dtmp_);
  }
  void Check(Variant v, const std::string &what, Checker &c) override {
    ZeroGrad();
    Grad(v);
    auto f = [this] { return Objective(); };
    c.Components(what + " u0", u0_.data(), u0_.size(), du0_.data(), f);
    long mid = n_ / 2 * n_ + n_ / 2;
    c.One(what + " u0[centre]", &u0_[mid], du0_[mid], f);
  }

private:
  long n_, steps_;
  Vec u0_, w_, u_, tmp_, du0_, du_, dtmp_;
};

template <typename P, typename... A> std::function<std::unique_ptr<Problem>()>
Make(A... args) {
  return [=] { return std::unique_ptr<Problem>(new P(args...)); };
}

} // namespace

// ---- Checking -------------------------------------------------------------

void Checker::One(const std::string &what, double *p, double ad,
                  const std::function<double()> &f) {
  const double saved = *p;
  const double h = 1e-3 * std::max(1.0, std::fabs(saved));
  auto at = [&](double t) {
    *p = saved + t;
    return f();
  };
  double f0 = at(0);
  double fd = (at(-2 * h) - 8 * at(-h) + 8 * at(h) - at(2 * h)) / (12 * h);
  *p = saved;
  double tol = 1e-5 * std::fabs(fd) + 1e-11 * (1 + std::fabs(f0)) / h;
  if (!(std::fabs(fd - ad) <= tol)) {
    std::fprintf(stderr,
                 "gradient check FAILED: %s: finite differences %.12g, "
                 "gradient %.12g\n",
                 what.c_str(), fd, ad);
    ++failures_;
  }
}

void Checker::Components(const std::string &what, double *p, size_t len,
                         const double *g, const std::function<double()> &f) {
  std::set<size_t> picks = {0, len / 3, len / 2, (2 * len) / 3, len - 1};
  for (size_t i : picks)
    One(what + "[" + std::to_string(i) + "]", &p[i], g[i], f);
}

const std::vector<KernelSpec> &Kernels() {
  static const std::vector<KernelSpec> kernels = {
      {"gmm", "d=10 k=25 n=1000", Make<Gmm>(10, 25, 1000),
       Make<Gmm>(3, 4, 7)},
      {"lstm", "l=4 c=4096 b=14", Make<Lstm>(4, 4096, 14),
       Make<Lstm>(2, 8, 4)},
      {"ba", "49 cameras, 7776 points, 31843 observations",
       Make<Ba>(49, 7776, 31843), Make<Ba>(3, 10, 20)},
      {"normalize", "n=1e6", Make<Normalize>(1000000L), Make<Normalize>(50L)},
      {"rk4", "16 masses, 1000 steps", Make<Rk4Chain>(1000L),
       Make<Rk4Chain>(30L)},
      {"mlp", "32-64-10, batch 256", Make<Mlp>(256L), Make<Mlp>(5L)},
      {"logsumexp", "n=1e6", Make<LogSumExp>(1000000L),
       Make<LogSumExp>(100L)},
      {"diffusion", "256 x 256, 5 steps", Make<Diffusion>(256L, 5L),
       Make<Diffusion>(9L, 3L)},
  };
  return kernels;
}

} // namespace reverse_bench
