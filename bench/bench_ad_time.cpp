//===- bench/bench_ad_time.cpp - AD time and memory against module size ---===//
//
// For each module (by default the generated scale_N.ll modules built with
// the benchmarks, see scale/gen_module.py; or the .ll/.bc files named on
// the command line), Google Benchmark runs:
//   BM_parse/M        reading the module only (the memory floor);
//   BM_opt_O2/M       reading it and running LLVM's -O2 pipeline on it, what
//                     `opt-22 -O2` does: the reference;
//   BM_ad_nopost/M    reading it and differentiating every request;
//   BM_ad_O2/M        the same followed by -O2 post-optimization, what
//                     `autodiff-opt -O2` does.
// Every run happens in a forked child so that its peak memory (ru_maxrss,
// read with wait4) is its own; the time reported is the child's CPU time.
// A table at the end gives time and peak memory of AD against -O2.
//
//===----------------------------------------------------------------------===//
#include "codegen/Pipeline.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/SourceMgr.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Sample {
  double cpu_s = 0;
  double peak_mb = 0;
  bool ok = false;
};

/// Runs `work` in a child process; its CPU time and peak resident memory.
Sample RunInChild(const std::function<bool()> &work) {
  Sample s;
  pid_t pid = fork();
  if (pid < 0)
    return s;
  if (pid == 0)
    _exit(work() ? 0 : 1);
  int status = 0;
  struct rusage ru = {};
  if (wait4(pid, &status, 0, &ru) != pid)
    return s;
  s.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  s.cpu_s = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
            1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  s.peak_mb = ru.ru_maxrss / 1024.0;
  return s;
}

enum class Work { Parse, OptO2, AdNoPost, AdO2 };

bool DoWork(const std::string &path, Work w) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseIRFile(path, diag, ctx);
  if (!m) {
    std::fprintf(stderr, "bench_ad_time: cannot read %s: %s\n", path.c_str(),
                 diag.getMessage().str().c_str());
    return false;
  }
  if (w == Work::Parse)
    return true;
  if (w == Work::OptO2) {
    autodiff::OptimizeModule(*m, autodiff::OptLevel::O2);
    return true;
  }
  autodiff::PipelineOptions opts;
  opts.no_postopt = w == Work::AdNoPost;
  absl::Status st = autodiff::RunAutodiffPipeline(*m, {}, opts);
  if (!st.ok())
    std::fprintf(stderr, "bench_ad_time: %s: %s\n", path.c_str(),
                 std::string(st.message()).c_str());
  return st.ok();
}

/// results[module][work name] = sample, for the closing table.
std::map<std::string, std::map<std::string, Sample>> results;
std::vector<std::string> module_order;

void Register(const std::string &path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  module_order.push_back(name);
  struct stat st = {};
  double mb = stat(path.c_str(), &st) == 0 ? st.st_size / 1048576.0 : 0;
  const std::pair<const char *, Work> kinds[] = {{"parse", Work::Parse},
                                                 {"opt_O2", Work::OptO2},
                                                 {"ad_nopost", Work::AdNoPost},
                                                 {"ad_O2", Work::AdO2}};
  for (const auto &[kind, work] : kinds) {
    std::string label = std::string("BM_") + kind + "/" + name;
    benchmark::RegisterBenchmark(
        label.c_str(),
        [path, name, kind = std::string(kind), work = work,
         mb](benchmark::State &state) {
          Sample s;
          for (auto _ : state) {
            s = RunInChild([&] { return DoWork(path, work); });
            if (!s.ok) {
              state.SkipWithError("the run failed");
              return;
            }
            state.SetIterationTime(s.cpu_s);
          }
          state.counters["peak_MB"] = s.peak_mb;
          state.counters["module_MB"] = mb;
          results[name][kind] = s;
        })
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

void PrintTable() {
  std::printf("\nAD against opt -O2 (child CPU time, peak resident memory)\n");
  std::printf("%-24s %10s %10s %10s %10s %8s %8s\n", "module", "O2 s",
              "AD+O2 s", "O2 MB", "AD+O2 MB", "time x", "mem x");
  for (const std::string &m : module_order) {
    auto &r = results[m];
    if (!r.count("opt_O2") || !r.count("ad_O2"))
      continue;
    const Sample &o = r["opt_O2"], &a = r["ad_O2"];
    std::printf("%-24s %10.2f %10.2f %10.1f %10.1f %8.2f %8.2f\n", m.c_str(),
                o.cpu_s, a.cpu_s, o.peak_mb, a.peak_mb,
                o.cpu_s > 0 ? a.cpu_s / o.cpu_s : 0,
                o.peak_mb > 0 ? a.peak_mb / o.peak_mb : 0);
  }
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<std::string> modules(argv + 1, argv + argc);
  if (modules.empty()) {
    std::string defaults = AUTODIFF_SCALE_MODULES;
    for (size_t start = 0; start < defaults.size();) {
      size_t end = defaults.find(';', start);
      if (end == std::string::npos)
        end = defaults.size();
      modules.push_back(defaults.substr(start, end - start));
      start = end + 1;
    }
  }
  for (const std::string &m : modules)
    Register(m);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  PrintTable();
  return 0;
}
