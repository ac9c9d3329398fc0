//===- bench/bench_reverse.cpp - Reverse-mode cost against the primal -----===//
//
// For each kernel K of reverse_kernels.c (see reverse_problems.cpp for the
// sizes), Google Benchmark runs
//   BM_primal_K    the function (the -O2 build);
//   BM_grad_K      its gradient through __enzyme_autodiff, the whole call,
//                  from the build that differentiates clang -O2 IR;
//   BM_grad_O0_K   the same from the build that differentiates clang -O0
//                  IR (AD before optimization), optimized afterwards;
//   BM_grad_nf_K   as BM_grad_K, without the fast-math flags (reassoc, nsz,
//                  arcp, contract) derivative arithmetic gets by default.
// Each gradient benchmark reports the counter `tape`: the peak of live heap
// bytes during one gradient call minus that of one primal call (heap_meter.h),
// measured on a call that starts with the tape pools emptied. The timed calls
// then reuse the tape arrays, as a program calling the gradient in a loop
// does.
// A table of grad / primal per kernel closes the console output (CPU time;
// the median when --benchmark_repetitions is given). Before timing, both
// gradients of every kernel are checked once against central differences
// of the primal on small inputs; a mismatch exits with 1 without timing.
// See bench/README.md.
//
//===----------------------------------------------------------------------===//
#include "heap_meter.h"
#include "reverse_problems.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <unistd.h>

/// Frees the tape arrays that derivatives keep between calls (emitted by
/// the core with the derivatives; docs/user-guide.md).
extern "C" void __autodiff_release_tapes(void);

namespace {

using reverse_bench::Checker;
using reverse_bench::KernelSpec;
using reverse_bench::Problem;
using reverse_bench::Variant;

/// The full-size problem of a kernel, built on first use (so that a
/// filtered run builds only what it times) and kept for its benchmarks.
Problem &Full(const KernelSpec &k) {
  static std::map<std::string, std::unique_ptr<Problem>> built;
  auto &p = built[k.name];
  if (!p)
    p = k.full();
  return *p;
}

benchmark::Counter Bytes(long bytes) {
  return benchmark::Counter(static_cast<double>(bytes),
                            benchmark::Counter::kDefaults,
                            benchmark::Counter::OneK::kIs1024);
}

void RunPrimal(benchmark::State &state, const KernelSpec &k) {
  Problem &p = Full(k);
  HeapMeterStart();
  p.Primal();
  long heap = HeapMeterStop();
  for (auto _ : state)
    p.Primal();
  state.counters["heap"] = Bytes(heap);
}

void RunGrad(benchmark::State &state, const KernelSpec &k, Variant v) {
  Problem &p = Full(k);
  p.ZeroGrad();
  HeapMeterStart();
  p.Primal();
  long primal = HeapMeterStop();
  // The tape arrays of earlier calls wait in their pools: the one call
  // measured starts without them, so that it allocates its whole tape.
  __autodiff_release_tapes();
  HeapMeterStart();
  p.Grad(v);
  long grad = HeapMeterStop();
  for (auto _ : state)
    p.Grad(v);
  state.counters["tape"] = Bytes(grad - primal);
}

void Register() {
  for (const KernelSpec &k : reverse_bench::Kernels()) {
    std::string name = k.name;
    benchmark::RegisterBenchmark(("BM_primal_" + name).c_str(),
                                 [&k](benchmark::State &s) { RunPrimal(s, k); })
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(
        ("BM_grad_" + name).c_str(),
        [&k](benchmark::State &s) { RunGrad(s, k, Variant::kAfterOpt); })
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(
        ("BM_grad_O0_" + name).c_str(),
        [&k](benchmark::State &s) { RunGrad(s, k, Variant::kBeforeOpt); })
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(
        ("BM_grad_nf_" + name).c_str(),
        [&k](benchmark::State &s) { RunGrad(s, k, Variant::kAfterOptExact); })
        ->Unit(benchmark::kMicrosecond);
  }
}

int CheckGradients() {
  Checker c;
  for (const KernelSpec &k : reverse_bench::Kernels()) {
    std::unique_ptr<Problem> p = k.small();
    p->Check(Variant::kAfterOpt, std::string(k.name) + " (AD after -O2)", c);
    p->Check(Variant::kBeforeOpt, std::string(k.name) + " (AD before opt)",
             c);
    p->Check(Variant::kAfterOptExact,
             std::string(k.name) + " (AD after -O2, no fast math)", c);
  }
  return c.failures();
}

// ---- Reporting grad / primal ----------------------------------------------

std::string HumanBytes(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (u < 3 && bytes >= 1024) {
    bytes /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u ? "%.1f %s" : "%.0f %s", bytes,
                units[u]);
  return text;
}

class RatioReporter : public benchmark::ConsoleReporter {
public:
  explicit RatioReporter(bool color)
      : ConsoleReporter(color ? OO_ColorTabular : OO_Tabular) {}
  void ReportRuns(const std::vector<Run> &runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run &run : runs) {
      if (run.error_occurred)
        continue;
      // The last repetition's time, replaced by the median when there is
      // one; the other aggregates (mean, stddev, cv) are not times to use.
      bool median = run.run_type == Run::RT_Aggregate &&
                    run.aggregate_name == "median";
      if (run.run_type != Run::RT_Iteration && !median)
        continue;
      Entry &e = entries_[run.run_name.function_name];
      if (e.median && !median)
        continue;
      e.cpu = run.GetAdjustedCPUTime();
      e.median = median;
      auto tape = run.counters.find("tape");
      if (tape != run.counters.end())
        e.tape = tape->second.value;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    bool header = false;
    for (const KernelSpec &k : reverse_bench::Kernels()) {
      std::string name = k.name;
      auto primal = entries_.find("BM_primal_" + name);
      if (primal == entries_.end() || primal->second.cpu <= 0)
        continue;
      if (!header) {
        GetOutputStream()
            << "\ngrad / primal (CPU time" << (AnyMedian() ? ", medians" : "")
            << "; tape: peak heap bytes of one gradient call minus the "
               "primal's)\n"
            << "  kernel        primal us   AD after -O2         tape"
               "   AD before opt         tape  no fast math\n";
        header = true;
      }
      char line[200];
      int at = std::snprintf(line, sizeof line, "  %-12s %10.1f", k.name,
                             primal->second.cpu);
      for (const char *prefix : {"BM_grad_", "BM_grad_O0_"}) {
        auto g = entries_.find(prefix + name);
        if (g == entries_.end())
          at += std::snprintf(line + at, sizeof line - at, "   %12s %12s",
                              "-", "-");
        else
          at += std::snprintf(line + at, sizeof line - at,
                              "   %11.2fx %12s",
                              g->second.cpu / primal->second.cpu,
                              HumanBytes(g->second.tape).c_str());
      }
      auto nf = entries_.find("BM_grad_nf_" + name);
      if (nf == entries_.end())
        std::snprintf(line + at, sizeof line - at, "   %11s", "-");
      else
        std::snprintf(line + at, sizeof line - at, "   %11.2fx",
                      nf->second.cpu / primal->second.cpu);
      GetOutputStream() << line << "\n";
    }
  }

private:
  struct Entry {
    double cpu = 0, tape = 0;
    bool median = false;
  };
  bool AnyMedian() const {
    for (const auto &e : entries_)
      if (e.second.median)
        return true;
    return false;
  }
  std::map<std::string, Entry> entries_;
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
  if (int failures = CheckGradients()) {
    std::fprintf(stderr, "%d gradient checks failed; not timing\n", failures);
    return 1;
  }
  std::fprintf(stderr, "gradient checks: ok\n");
  Register();
  if (console) {
    RatioReporter reporter(color);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  return 0;
}
