//===- codegen/Pipeline.cpp - The autodiff pipeline driver ----------------===//
//
// Design. The stages run in this order, each followed by the IR verifier:
//
//   lowering -> [stop] -> pre-opt -> print-before -> differentiation
//            -> print-after -> post-opt
//
// rustc optimizes the module first and lowers its items afterwards, so it
// must protect the sources from the optimizer by other means. We lower
// first instead: once the target's body calls
// `__enzyme_*(ptr @f, ...)`, the source `f` is address-taken by a call to an
// unknown external (and noinline) declaration, so pre-opt can neither delete
// it, nor change its signature (argument promotion, dead argument
// elimination and IPSCCP leave address-taken functions alone), nor fold the
// call away; `f` may still be inlined into its ordinary callers, which does
// not matter. The source itself is optimized as rustc's would be, which is
// the point of optimizing before AD. Pre-opt turns off loop unrolling,
// vectorization (loop and SLP) and function merging, as rustc does: those
// make the IR larger and harder to differentiate, and merging could replace
// a source by a thunk. Post-opt is the full default pipeline.
//
// A TargetMachine for the module's triple is used when one can be created so
// that the cost models match the target; otherwise the passes run with the
// default TargetTransformInfo.
//
// The optimization stages run with LLVM's StandardInstrumentations, as `opt`
// does: `debug_pass_manager` prints the passes, and LLVM's global switches
// (-time-passes, -print-after-all, -verify-each, ...) apply. Each stage is
// also a named timer region (shown with -time-passes) and is announced with
// `debug_pass_manager`. The counters below are always enabled (Debian's
// release LLVM compiles ordinary STATISTICs out) and printed with -stats.
//
//===----------------------------------------------------------------------===//
#include "codegen/Pipeline.h"
#include "codegen/SetAside.h"

#include "support/StatusMacros.h"
#include "support/Text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <memory>
#include <mutex>

#define DEBUG_TYPE "autodiff"

ALWAYS_ENABLED_STATISTIC(NumItemsLowered,
                         "Number of items lowered into __enzyme_* calls");
ALWAYS_ENABLED_STATISTIC(NumRequestsDifferentiated,
                         "Number of __enzyme_* requests differentiated");
ALWAYS_ENABLED_STATISTIC(NumFunctionsGenerated,
                         "Number of function bodies differentiation added");

namespace autodiff {
namespace {

/// One stage of the pipeline while it lives: a timer region shown by
/// -time-passes, announced on stderr with `debug_pass_manager`.
class StageScope {
public:
  StageScope(const char *name, const char *description,
             const PipelineOptions &opts)
      : timer_(name, description, "autodiff", "autodiff pipeline stages",
               llvm::TimePassesIsEnabled) {
    if (opts.debug_pass_manager)
      llvm::errs() << "Running autodiff stage: " << description << "\n";
  }

private:
  llvm::NamedRegionTimer timer_;
};

/// The number of functions with a body in `m`.
size_t CountDefinitions(const llvm::Module &m) {
  size_t n = 0;
  for (const llvm::Function &f : m)
    n += !f.isDeclaration();
  return n;
}

/// One problem however much the verifier prints: its first line names the
/// stage, the verifier's own lines follow as continuation lines.
absl::Status Verify(const llvm::Module &m, const char *stage) {
  std::string msg;
  llvm::raw_string_ostream os(msg);
  if (llvm::verifyModule(m, &os))
    return absl::InternalError(absl::StrCat(
        stage, ": the module is not valid IR (LLVM's verifier says):",
        AsContinuationLines(msg)));
  return absl::OkStatus();
}

llvm::OptimizationLevel ToLlvm(OptLevel level) {
  switch (level) {
  case OptLevel::O0:
    return llvm::OptimizationLevel::O0;
  case OptLevel::O1:
    return llvm::OptimizationLevel::O1;
  case OptLevel::O2:
    return llvm::OptimizationLevel::O2;
  case OptLevel::O3:
    return llvm::OptimizationLevel::O3;
  case OptLevel::Os:
    return llvm::OptimizationLevel::Os;
  case OptLevel::Oz:
    return llvm::OptimizationLevel::Oz;
  }
  return llvm::OptimizationLevel::O2;
}

/// A TargetMachine for `m`'s triple, or null (the passes then use default
/// cost models).
std::unique_ptr<llvm::TargetMachine> MakeTargetMachine(const llvm::Module &m) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
  });
  const llvm::Triple &triple = m.getTargetTriple();
  if (triple.str().empty())
    return nullptr;
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, "", "", llvm::TargetOptions(), llvm::Reloc::PIC_));
}

/// Runs LLVM's default per-module pipeline at `level` (not O0), with LLVM's
/// standard instrumentation.
void Optimize(llvm::Module &m, OptLevel level, bool before_ad,
              bool debug_pass_manager) {
  llvm::PipelineTuningOptions tuning;
  if (before_ad) {
    tuning.LoopUnrolling = false;
    tuning.LoopInterleaving = false;
    tuning.LoopVectorization = false;
    tuning.SLPVectorization = false;
    tuning.MergeFunctions = false;
  } else {
    bool speed = level == OptLevel::O2 || level == OptLevel::O3;
    tuning.LoopInterleaving = speed;
    tuning.LoopVectorization = speed;
    tuning.SLPVectorization = speed;
  }
  std::unique_ptr<llvm::TargetMachine> tm = MakeTargetMachine(m);
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassInstrumentationCallbacks callbacks;
  llvm::StandardInstrumentations instrumentation(m.getContext(),
                                                 debug_pass_manager);
  instrumentation.registerCallbacks(callbacks, &mam);
  llvm::PassBuilder pb(tm.get(), tuning, std::nullopt, &callbacks);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(ToLlvm(level));
  mpm.run(m, mam);
}

/// Two requests for one target would silently overwrite each other.
absl::Status CheckDistinctTargets(const std::vector<LoweringRequest> &reqs) {
  llvm::StringMap<std::string> seen;
  for (const LoweringRequest &r : reqs) {
    auto [it, fresh] = seen.try_emplace(r.attr.target, r.source);
    if (!fresh)
      return absl::InvalidArgumentError(absl::StrCat(
          "target `", r.attr.target, "` is requested twice (from `", it->second,
          "` and from `", r.source, "`)"));
  }
  return absl::OkStatus();
}

/// Lowers `requests` and, unless told not to, the module's annotated ones;
/// every failed request is reported, one problem each.
absl::Status LowerAll(llvm::Module &m,
                      const std::vector<LoweringRequest> &requests,
                      const PipelineOptions &opts) {
  std::vector<LoweringRequest> all = requests;
  if (opts.use_annotations) {
    AD_ASSIGN_OR_RETURN(std::vector<LoweringRequest> annotated,
                        CollectAnnotatedRequests(m));
    all.insert(all.end(), annotated.begin(), annotated.end());
  }
  AD_RETURN_IF_ERROR(CheckDistinctTargets(all));
  for (const LoweringRequest &r : all)
    SeparateAliasedTarget(m, r);
  std::vector<std::string> errors;
  absl::StatusCode code = absl::StatusCode::kOk;
  for (LoweringRequest &r : all) {
    r.replace_defined_target |= opts.replace_defined_targets;
    absl::Status s = LowerAutoDiff(m, r);
    if (s.ok()) {
      ++NumItemsLowered;
      continue;
    }
    if (code == absl::StatusCode::kOk)
      code = s.code();
    errors.emplace_back(s.message());
  }
  if (!errors.empty())
    return absl::Status(code, absl::StrJoin(errors, "\n"));
  return absl::OkStatus();
}

} // namespace

void OptimizeModule(llvm::Module &m, OptLevel level) {
  if (level != OptLevel::O0)
    Optimize(m, level, /*before_ad=*/false, /*debug_pass_manager=*/false);
}

std::optional<OptLevel> ParseOptLevel(std::string_view s) {
  if (s.size() == 2 && (s[0] == 'O' || s[0] == 'o'))
    s.remove_prefix(1);
  if (s == "0")
    return OptLevel::O0;
  if (s == "1")
    return OptLevel::O1;
  if (s == "2")
    return OptLevel::O2;
  if (s == "3")
    return OptLevel::O3;
  if (s == "s")
    return OptLevel::Os;
  if (s == "z")
    return OptLevel::Oz;
  return std::nullopt;
}

absl::Status RunAutodiffPipeline(llvm::Module &m,
                                 const std::vector<LoweringRequest> &requests,
                                 const PipelineOptions &opts) {
  {
    StageScope stage("verify-input", "verify the input", opts);
    AD_RETURN_IF_ERROR(Verify(m, "in the input module"));
  }
  {
    StageScope stage("lower", "lower items into __enzyme_* calls", opts);
    AD_RETURN_IF_ERROR(LowerAll(m, requests, opts));
    AD_RETURN_IF_ERROR(Verify(m, "after lowering"));
  }
  if (opts.stop_after_lowering)
    return absl::OkStatus();

  if (opts.pre_opt && *opts.pre_opt != OptLevel::O0) {
    StageScope stage("pre-opt", "optimize before differentiation", opts);
    Optimize(m, *opts.pre_opt, /*before_ad=*/true, opts.debug_pass_manager);
    AD_RETURN_IF_ERROR(Verify(m, "after pre-optimization"));
  }
  llvm::raw_ostream &out =
      opts.print_stream ? *opts.print_stream : llvm::errs();
  if (opts.print_module_before)
    m.print(out, nullptr);
  BeforeDifferentiation before;
  {
    StageScope stage("differentiate", "differentiate __enzyme_* calls", opts);
    before = SnapshotBeforeDifferentiation(m);
    AD_RETURN_IF_ERROR(DifferentiateModule(m, opts.bridge));
    NumRequestsDifferentiated += before.requests;
    size_t definitions_after = CountDefinitions(m);
    if (definitions_after > before.defined.size())
      NumFunctionsGenerated += definitions_after - before.defined.size();
    AD_RETURN_IF_ERROR(Verify(m, "after differentiation"));
  }
  if (opts.print_module_after)
    m.print(out, nullptr);
  if (!opts.no_postopt && opts.post_opt != OptLevel::O0) {
    StageScope stage("post-opt", "optimize after differentiation", opts);
    std::unique_ptr<SetAsideFunctions> aside;
    if (!opts.postopt_whole_module) {
      AD_ASSIGN_OR_RETURN(aside, SetAsideUnchangedFunctions(m, before));
    }
    Optimize(m, opts.post_opt, /*before_ad=*/false, opts.debug_pass_manager);
    AD_RETURN_IF_ERROR(RestoreSetAside(m, std::move(aside)));
    AD_RETURN_IF_ERROR(Verify(m, "after post-optimization"));
  }
  return absl::OkStatus();
}

} // namespace autodiff
