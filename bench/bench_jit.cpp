//===- bench/bench_jit.cpp - Time from request to callable derivative ----===//
//
// What a host waits for through the C API (runtime/include/autodiff/
// autodiff.h): a fresh JIT, a small module (a polynomial and a loop over an
// array, as clang-22 -O2 would emit it), one rustc-style item, and the
// lookup that differentiates, optimizes and compiles it, for forward and
// reverse items at -O2 (the goal: under 50 ms). Wall time, since the
// compile happens in the calling thread. A failure exits with 1.
//
//===----------------------------------------------------------------------===//
#include "autodiff/autodiff.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

const char kModule[] = R"(
declare double @llvm.sin.f64(double)
define double @poly(double %a, double %b) {
  %a2 = fmul double %a, %a
  %a3 = fmul double %a2, %a
  %t = fmul double %a3, %b
  %s = call double @llvm.sin.f64(double %b)
  %r = fadd double %t, %s
  ret double %r
}
define double @sumsq(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sq = fmul double %v, %v
  %s1 = fadd double %s, %sq
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %s1
}
)";

void ItemToPointer(benchmark::State &state, const char *item,
                   const char *target) {
  for (auto _ : state) {
    char *err = nullptr;
    ad_jit *j = ad_jit_create("-O2", &err);
    void *p = nullptr;
    if (j && ad_jit_add_module(j, kModule, std::strlen(kModule), &err) &&
        ad_jit_add_item(j, item, &err))
      p = ad_jit_lookup(j, target, &err);
    if (!p) {
      // Not a result to report: the smoke test (ctest) must fail.
      std::fprintf(stderr, "bench_jit: %s\n", err ? err : "no JIT");
      std::exit(1);
    }
    benchmark::DoNotOptimize(p);
    ad_jit_destroy(j);
  }
}

void BM_jit_forward_item(benchmark::State &state) {
  ItemToPointer(state, "poly=autodiff_forward(df_poly, Dual, Const, Dual)",
                "df_poly");
}
void BM_jit_reverse_item(benchmark::State &state) {
  ItemToPointer(state,
                "sumsq(x: &[f64]) -> f64=autodiff_reverse(d_sumsq, "
                "Duplicated, Active)",
                "d_sumsq");
}
BENCHMARK(BM_jit_forward_item)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_jit_reverse_item)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
