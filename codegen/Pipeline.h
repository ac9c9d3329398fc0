//===- codegen/Pipeline.h - The autodiff pipeline driver -------*- C++ -*-===//
//
// Optional optimization before AD, lowering of items, differentiation by
// the bridge, re-optimization, with IR verification after each stage.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_CODEGEN_PIPELINE_H
#define AUTODIFF_CODEGEN_PIPELINE_H

#include "codegen/Lowering.h"
#include "enzyme_bridge/Bridge.h"

#include "absl/status/status.h"

#include <optional>
#include <vector>

namespace llvm {
class Module;
class raw_ostream;
} // namespace llvm

namespace autodiff {

enum class OptLevel { O0, O1, O2, O3, Os, Oz };

struct PipelineOptions {
  /// Optimization before AD (unrolling, vectorization and function merging
  /// off, as rustc does). nullopt: none.
  std::optional<OptLevel> pre_opt;
  /// Re-optimization after AD.
  OptLevel post_opt = OptLevel::O2;
  /// rustc's NoPostopt: skip the re-optimization.
  bool no_postopt = false;
  /// Re-optimize every function of the module. By default post-optimization
  /// sees only the functions differentiation created or changed and those
  /// they reach; the others are left as they came (codegen/SetAside.h).
  bool postopt_whole_module = false;
  /// rustc's PrintModBefore / PrintModAfter: print the module right before
  /// and right after differentiation to `print_stream` (stderr if null).
  bool print_module_before = false;
  bool print_module_after = false;
  llvm::raw_ostream *print_stream = nullptr;
  /// Print each stage as it starts, and the LLVM passes the optimization
  /// stages run (LLVM's -debug-pass-manager), to stderr.
  bool debug_pass_manager = false;
  /// Stop after lowering items into __enzyme_* calls.
  bool stop_after_lowering = false;
  /// Also differentiate requests read from llvm.global.annotations.
  bool use_annotations = true;
  /// Let every request, annotated ones included, replace a target that has
  /// a real body (LoweringRequest::replace_defined_target for all).
  bool replace_defined_targets = false;
  BridgeOptions bridge;
};

/// Runs the pipeline on `m` for `requests` (plus annotated ones). Any stage's
/// failure, including a verifier failure, comes back as a status naming the
/// stage and function. The optimization stages run with LLVM's standard
/// instrumentation, so LLVM's `-time-passes`, `-print-after-all`, ...
/// apply to them; with `-time-passes` (llvm::TimePassesIsEnabled) the
/// autodiff stages are timed too. Statistics (`-stats`, DEBUG_TYPE
/// "autodiff") count targets and differentiated requests.
absl::Status RunAutodiffPipeline(llvm::Module &m,
                                 const std::vector<LoweringRequest> &requests,
                                 const PipelineOptions &opts);

/// Runs LLVM's default per-module pipeline at `level` on `m`, as
/// `opt -O<level>` does (with a TargetMachine for the module's triple when
/// one can be made): what post-optimization runs after AD.
void OptimizeModule(llvm::Module &m, OptLevel level);

/// "O0".."Oz" <-> OptLevel.
std::optional<OptLevel> ParseOptLevel(std::string_view s);

} // namespace autodiff

#endif // AUTODIFF_CODEGEN_PIPELINE_H
