//===- bench/reverse_problems.h - Kernel data and checks -------*- C++ -*-===//
//
// One Problem per kernel of reverse_kernels.c: its inputs at a given size,
// its gradient buffers, the primal and the three gradient variants, and a
// check of a gradient against central finite differences of the primal.
// The benchmarks build them at full size, the startup check at a small one.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_BENCH_REVERSE_PROBLEMS_H
#define AUTODIFF_BENCH_REVERSE_PROBLEMS_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace reverse_bench {

/// Which build of the kernels computes the gradient.
enum class Variant {
  kAfterOpt,  ///< clang -O2 IR, differentiated, optimized (-O2) again
  kBeforeOpt, ///< clang -O0 IR, differentiated, then optimized (-O2)
  kAfterOptExact, ///< as kAfterOpt, with --derivative-fast-math=none
                  ///< (kAfterOpt has the default flags)
};

/// Counts mismatches between gradients and finite differences.
class Checker {
public:
  /// Compares g[i] with the central difference of f along p[i], for a few
  /// indices i spread over [0, len). f reads p, which is perturbed in place
  /// and restored.
  void Components(const std::string &what, double *p, size_t len,
                  const double *g, const std::function<double()> &f);
  /// Compares `ad` with the central difference of f along *p.
  void One(const std::string &what, double *p, double ad,
           const std::function<double()> &f);
  int failures() const { return failures_; }

private:
  int failures_ = 0;
};

/// A kernel with its data. Primal and Grad run the code being timed.
class Problem {
public:
  virtual ~Problem() = default;
  virtual void Primal() = 0;
  /// Adds the gradient into the gradient buffers.
  virtual void Grad(Variant v) = 0;
  virtual void ZeroGrad() = 0;
  /// Computes the gradient of `v` from zero and checks it.
  virtual void Check(Variant v, const std::string &what, Checker &c) = 0;
};

/// A kernel: its name, and its problem at benchmark size or check size.
struct KernelSpec {
  const char *name;
  const char *what; ///< one line: the size used
  std::function<std::unique_ptr<Problem>()> full, small;
};

/// The kernels, in the order of the report.
const std::vector<KernelSpec> &Kernels();

} // namespace reverse_bench

#endif // AUTODIFF_BENCH_REVERSE_PROBLEMS_H
