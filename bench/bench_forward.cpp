//===- bench/bench_forward.cpp - Forward-mode cost against the primal -----===//
//
// Google Benchmark pairs BM_primal_K / BM_fwd_K for each kernel K of
// kernels.c, over the same sizes, followed by a table of the factor
// time(fwd) / time(primal) per kernel and size. Before timing, every
// derivative is checked once against central differences of its primal;
// a wrong derivative is not worth timing, so a mismatch exits with 1. The
// factor uses CPU time, steadier than real time on a shared machine.
// See bench/README.md.
//
//===----------------------------------------------------------------------===//
#include "kernels.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

std::vector<double> Fill(long n, double a, double b, double c) {
  std::vector<double> v(n);
  for (long i = 0; i < n; ++i)
    v[i] = a + b * std::sin(c * static_cast<double>(i) + 0.3);
  return v;
}

// ---- Benchmarks --------------------------------------------------------

void BM_primal_dot(benchmark::State &state) {
  long n = state.range(0);
  auto a = Fill(n, 0.1, 1, 0.7), b = Fill(n, -0.2, 1, 1.3);
  for (auto _ : state)
    benchmark::DoNotOptimize(k_dot(a.data(), b.data(), n));
  state.SetItemsProcessed(state.iterations() * n);
}
void BM_fwd_dot(benchmark::State &state) {
  long n = state.range(0);
  auto a = Fill(n, 0.1, 1, 0.7), b = Fill(n, -0.2, 1, 1.3);
  auto da = Fill(n, 0, 1, 0.9), db = Fill(n, 0, 1, 0.4);
  for (auto _ : state)
    benchmark::DoNotOptimize(fwd_dot(a.data(), da.data(), b.data(), db.data(), n));
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_primal_dot)->RangeMultiplier(16)->Range(1 << 10, 1 << 18);
BENCHMARK(BM_fwd_dot)->RangeMultiplier(16)->Range(1 << 10, 1 << 18);

// The scalar function over n points, one call each.
void BM_primal_libm(benchmark::State &state) {
  long n = state.range(0);
  auto x = Fill(n, 1.2, 0.9, 0.37);
  for (auto _ : state) {
    double s = 0;
    for (long i = 0; i < n; ++i)
      s += k_libm(x[i]);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void BM_fwd_libm(benchmark::State &state) {
  long n = state.range(0);
  auto x = Fill(n, 1.2, 0.9, 0.37);
  for (auto _ : state) {
    double s = 0;
    for (long i = 0; i < n; ++i)
      s += fwd_libm(x[i], 1.0);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_primal_libm)->RangeMultiplier(16)->Range(1 << 8, 1 << 12);
BENCHMARK(BM_fwd_libm)->RangeMultiplier(16)->Range(1 << 8, 1 << 12);

// n x n matrix times a vector.
void BM_primal_matvec(benchmark::State &state) {
  long n = state.range(0);
  auto A = Fill(n * n, 0, 0.5, 0.11), x = Fill(n, 1, 0.5, 0.3);
  std::vector<double> y(n);
  for (auto _ : state) {
    k_matvec(y.data(), A.data(), x.data(), n, n);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n * n);
}
void BM_fwd_matvec(benchmark::State &state) {
  long n = state.range(0);
  auto A = Fill(n * n, 0, 0.5, 0.11), x = Fill(n, 1, 0.5, 0.3);
  auto dA = Fill(n * n, 0, 0.2, 0.23), dx = Fill(n, 0, 1, 0.5);
  std::vector<double> y(n), dy(n);
  for (auto _ : state) {
    fwd_matvec(y.data(), dy.data(), A.data(), dA.data(), x.data(), dx.data(),
               n, n);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_primal_matvec)->RangeMultiplier(4)->Range(64, 1024);
BENCHMARK(BM_fwd_matvec)->RangeMultiplier(4)->Range(64, 1024);

// One step on an n x n grid.
void BM_primal_stencil(benchmark::State &state) {
  long n = state.range(0);
  auto in = Fill(n * n, 1, 0.3, 0.01);
  std::vector<double> out(n * n);
  for (auto _ : state) {
    k_stencil(out.data(), in.data(), n, n);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n * n);
}
void BM_fwd_stencil(benchmark::State &state) {
  long n = state.range(0);
  auto in = Fill(n * n, 1, 0.3, 0.01), din = Fill(n * n, 0, 1, 0.02);
  std::vector<double> out(n * n), dout(n * n);
  for (auto _ : state) {
    fwd_stencil(out.data(), dout.data(), in.data(), din.data(), n, n);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_primal_stencil)->RangeMultiplier(4)->Range(64, 1024);
BENCHMARK(BM_fwd_stencil)->RangeMultiplier(4)->Range(64, 1024);

// n steps of the logistic map.
void BM_primal_logistic(benchmark::State &state) {
  long n = state.range(0);
  double x0 = 0.31, r = 3.2;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x0);
    benchmark::DoNotOptimize(k_logistic(x0, r, n));
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void BM_fwd_logistic(benchmark::State &state) {
  long n = state.range(0);
  double x0 = 0.31, r = 3.2;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x0);
    benchmark::DoNotOptimize(fwd_logistic(x0, 1.0, r, 0.0, n));
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_primal_logistic)->RangeMultiplier(16)->Range(1 << 8, 1 << 16);
BENCHMARK(BM_fwd_logistic)->RangeMultiplier(16)->Range(1 << 8, 1 << 16);

// x / |x|: every element divided by the norm.
void BM_primal_normalize(benchmark::State &state) {
  long n = state.range(0);
  auto x = Fill(n, 0.1, 1, 0.7);
  std::vector<double> out(n);
  for (auto _ : state) {
    k_normalize(out.data(), x.data(), n);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
void BM_fwd_normalize(benchmark::State &state) {
  long n = state.range(0);
  auto x = Fill(n, 0.1, 1, 0.7), dx = Fill(n, 0, 1, 0.9);
  std::vector<double> out(n), dout(n);
  for (auto _ : state) {
    fwd_normalize(out.data(), dout.data(), x.data(), dx.data(), n);
    benchmark::DoNotOptimize(dout.data());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_primal_normalize)->RangeMultiplier(16)->Range(1 << 10, 1 << 16);
BENCHMARK(BM_fwd_normalize)->RangeMultiplier(16)->Range(1 << 10, 1 << 16);

// ---- Checking the derivatives once --------------------------------------

int g_failures = 0;

void Expect(const char *what, double expected, double actual) {
  double tol = 1e-6 * std::fabs(expected) + 1e-8;
  if (!(std::fabs(expected - actual) <= tol)) {
    std::fprintf(stderr, "derivative check FAILED: %s: expected %.17g, got %.17g\n",
                 what, expected, actual);
    ++g_failures;
  }
}

// Central difference of g along t at 0 with step h.
template <typename G> double Central(G g, double h) {
  return (g(-2 * h) - 8 * g(-h) + 8 * g(h) - g(2 * h)) / (12 * h);
}

void CheckDerivatives() {
  const long n = 37;
  const double h = 1e-4;
  auto a = Fill(n, 0.1, 1, 0.7), b = Fill(n, -0.2, 1, 1.3);
  auto da = Fill(n, 0, 1, 0.9), db = Fill(n, 0, 1, 0.4);
  auto Shift = [](const std::vector<double> &v, const std::vector<double> &d,
                  double t) {
    std::vector<double> r(v);
    for (size_t i = 0; i < r.size(); ++i)
      r[i] += t * d[i];
    return r;
  };
  Expect("dot", Central([&](double t) {
           auto at = Shift(a, da, t), bt = Shift(b, db, t);
           return k_dot(at.data(), bt.data(), n);
         }, h),
         fwd_dot(a.data(), da.data(), b.data(), db.data(), n));

  for (double x : {0.37, 1.3, 2.9})
    Expect("libm", Central([&](double t) { return k_libm(x + t); }, h * x),
           fwd_libm(x, 1.0));

  const long m = 5;
  auto A = Fill(m * n, 0, 0.5, 0.11), dA = Fill(m * n, 0, 0.2, 0.23);
  std::vector<double> y(m), dy(m, -1.0), fy(m);
  fwd_matvec(y.data(), dy.data(), A.data(), dA.data(), a.data(), da.data(), m,
             n);
  for (long i = 0; i < m; ++i) {
    double fd = Central([&](double t) {
      auto At = Shift(A, dA, t), xt = Shift(a, da, t);
      k_matvec(fy.data(), At.data(), xt.data(), m, n);
      return fy[i];
    }, h);
    Expect("matvec", fd, dy[i]);
  }

  const long g = 9;
  auto in = Fill(g * g, 1, 0.3, 0.31), din = Fill(g * g, 0, 1, 0.2);
  std::vector<double> out(g * g, 0.0), dout(g * g, 0.0), fo(g * g, 0.0);
  fwd_stencil(out.data(), dout.data(), in.data(), din.data(), g, g);
  for (long k : {g + 1, 2 * g + 3, 4 * g + 4, (g - 2) * g + g - 2}) {
    double fd = Central([&](double t) {
      auto it = Shift(in, din, t);
      k_stencil(fo.data(), it.data(), g, g);
      return fo[k];
    }, h);
    Expect("stencil", fd, dout[k]);
  }

  std::vector<double> no(n), dno(n), fno(n);
  fwd_normalize(no.data(), dno.data(), a.data(), da.data(), n);
  for (long k : {0L, 5L, n - 1}) {
    double fd = Central([&](double t) {
      auto at = Shift(a, da, t);
      k_normalize(fno.data(), at.data(), n);
      return fno[k];
    }, h);
    Expect("normalize", fd, dno[k]);
  }

  double x0 = 0.31, r = 3.2;
  Expect("logistic",
         Central([&](double t) { return k_logistic(x0 + t, r + 0.5 * t, 20); },
                 h * x0),
         fwd_logistic(x0, 1.0, r, 0.5, 20));
}

// ---- Reporting the factor fwd / primal ----------------------------------

class RatioReporter : public benchmark::ConsoleReporter {
public:
  explicit RatioReporter(bool color)
      : ConsoleReporter(color ? OO_ColorTabular : OO_Tabular) {}
  void ReportRuns(const std::vector<Run> &runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run &run : runs)
      if (run.run_type == Run::RT_Iteration && !run.error_occurred) {
        if (!times_.count(run.benchmark_name()))
          order_.push_back(run.benchmark_name());
        times_[run.benchmark_name()] = run.GetAdjustedCPUTime();
      }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    bool header = false;
    for (const std::string &name : order_) {
      double fwd = times_[name];
      const std::string prefix = "BM_fwd_";
      if (name.compare(0, prefix.size(), prefix) != 0)
        continue;
      std::string rest = name.substr(prefix.size());
      auto primal = times_.find("BM_primal_" + rest);
      if (primal == times_.end() || primal->second <= 0)
        continue;
      if (!header) {
        GetOutputStream() << "\nfwd / primal (CPU time):\n";
        header = true;
      }
      char line[160];
      std::snprintf(line, sizeof line, "  %-24s %8.2fx\n", rest.c_str(),
                    fwd / primal->second);
      GetOutputStream() << line;
    }
  }

private:
  std::map<std::string, double> times_;
  std::vector<std::string> order_; // as reported

};

} // namespace

int main(int argc, char **argv) {
  // The ratio table rides on the console format; another format
  // (--benchmark_format=json|csv) gets the library's own reporter.
  bool console = true, color = isatty(fileno(stdout));
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--benchmark_format=", 0) == 0)
      console = arg == "--benchmark_format=console";
    if (arg.rfind("--benchmark_color=", 0) == 0)
      color = arg == "--benchmark_color=true" || arg == "--benchmark_color=yes";
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  CheckDerivatives();
  if (g_failures) {
    std::fprintf(stderr, "%d derivative checks failed; not timing\n",
                 g_failures);
    return 1;
  }
  std::fprintf(stderr, "derivative checks: ok\n");
  if (console) {
    RatioReporter reporter(color);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  return 0;
}
