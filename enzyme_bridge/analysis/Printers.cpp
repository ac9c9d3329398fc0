//===- enzyme_bridge/analysis/Printers.cpp - Analysis printer passes ---------------===//
#include "enzyme_bridge/analysis/Printers.h"

#include "enzyme_bridge/analysis/ActivityAnalysis.h"
#include "enzyme_bridge/Bridge.h"
#include "enzyme_bridge/requests/CallSite.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Prints each request call as parsed, then differentiates the module and
/// prints the cache: one line per generated derivative.
class RequestPrinterPass : public PassInfoMixin<RequestPrinterPass> {
public:
  PreservedAnalyses run(Module &m, ModuleAnalysisManager &) {
    raw_ostream &os = outs();
    for (Function &f : m)
      for (BasicBlock &bb : f)
        for (Instruction &i : bb)
          if (auto *cb = dyn_cast<CallBase>(&i))
            if (RequestModeOf(*cb)) {
              absl::StatusOr<RequestCall> rc = ParseRequestCall(*cb);
              os << "request in " << f.getName() << ": ";
              if (rc.ok())
                os << rc->request.ToString() << "\n";
              else
                os << "error: " << std::string(rc.status().message())
                   << "\n";
            }
    BridgeOptions opts;
    opts.cache_log = &os;
    absl::Status s = DifferentiateModule(m, opts);
    if (!s.ok())
      os << "error: " << std::string(s.message()) << "\n";
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

/// Differentiates the module, each reverse-mode derivative reporting what
/// its tape holds and why.
class TapePrinterPass : public PassInfoMixin<TapePrinterPass> {
public:
  PreservedAnalyses run(Module &m, ModuleAnalysisManager &) {
    raw_ostream &os = outs();
    BridgeOptions opts;
    opts.tape_log = &os;
    absl::Status s = DifferentiateModule(m, opts);
    if (!s.ok())
      os << "error: " << std::string(s.message()) << "\n";
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

} // namespace

void RegisterAnalysisPrinters(PassBuilder &pb) {
  pb.registerPipelineParsingCallback(
      [](StringRef name, ModulePassManager &mpm,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (name == "print<autodiff-activity>") {
          mpm.addPass(ActivityPrinterPass(outs()));
          return true;
        }
        if (name == "print<autodiff-types>") {
          mpm.addPass(TypePrinterPass(outs()));
          return true;
        }
        if (name == "print<autodiff-tape>") {
          mpm.addPass(TapePrinterPass());
          return true;
        }
        if (name == "print<autodiff-requests>") {
          mpm.addPass(RequestPrinterPass());
          return true;
        }
        return false;
      });
}

} // namespace autodiff
