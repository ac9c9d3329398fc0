//===- tools/plugin/Plugin.cpp - opt and clang pass plugin ----------------===//
//
// Design. Two thin module passes over the codegen library:
//  - `autodiff-lower`: lowers the annotated requests of the module
//    (`__attribute__((annotate("autodiff_reverse(...)")))`) into
//    `__enzyme_*` calls;
//  - `autodiff`: lowers them too (if not done yet), then differentiates
//    every `__enzyme_*` call with the bridge.
// With `opt -load-pass-plugin=AutodiffPlugin.so -passes=autodiff` the pass
// runs where it is placed. With `clang -fpass-plugin=AutodiffPlugin.so`
// lowering runs at the start of the pipeline (before the sources can be
// inlined away), and differentiation at the end of the optimizer, so that,
// as in rustc and Enzyme, the code is optimized before it is differentiated;
// at -O1 and above the derivatives are then inlined and simplified by one
// more round of LLVM's inliner pipeline. Errors go to the LLVMContext as
// diagnostics, which makes opt and clang fail. A problem whose place the
// core knows (the status's location payload) is reported as LLVM's
// "unsupported" diagnostic, the kind clang's backend consumer maps back to
// the source: `file.c:3:7: error: autodiff: ...` from the debug location,
// or, without debug info, at the function's declaration. Other problems
// are plain `error: autodiff: ...`. Every problem is its own diagnostic:
// clang shows them all, while opt's default handler exits at the first
// error, so opt shows only the first (autodiff-opt shows them all).
//
//===----------------------------------------------------------------------===//
#include "codegen/Pipeline.h"
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/Printers.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

namespace {

/// Whether `m` has anything for autodiff to do: a use of an `__enzyme_*`
/// function or an annotations global (which may hold requests).
bool HasAutodiffWork(const llvm::Module &m) {
  if (m.getNamedGlobal("llvm.global.annotations"))
    return true;
  for (const llvm::Function &f : m)
    if (!f.use_empty() && f.getName().contains("__enzyme_"))
      return true;
  return false;
}

/// An error at a place in the user's source. Clang reads only the message
/// and the location; other hosts (opt) print it: "file:line:col: message".
class AutodiffDiagnostic : public llvm::DiagnosticInfoUnsupported {
public:
  AutodiffDiagnostic(const llvm::Function &fn, const llvm::Twine &msg,
                     const llvm::DiagnosticLocation &loc)
      : DiagnosticInfoUnsupported(fn, msg, loc) {}

  void print(llvm::DiagnosticPrinter &dp) const override {
    if (isLocationAvailable())
      dp << getLocationStr() << ": ";
    dp << getMessage();
  }
};

/// The debug location `loc` names, scoped in `fn` (the file may differ from
/// fn's own when the code was inlined from a header).
llvm::DiagnosticLocation SourceLocation(llvm::Function &fn,
                                        const autodiff::ProblemLocation &loc) {
  llvm::DISubprogram *sp = fn.getSubprogram();
  if (!sp || !loc.HasSource())
    return {};
  llvm::LLVMContext &ctx = fn.getContext();
  auto *file = llvm::DIFile::get(ctx, loc.file, loc.directory);
  auto *scope = llvm::DILexicalBlockFile::get(ctx, sp, file, 0);
  return llvm::DebugLoc(
      llvm::DILocation::get(ctx, loc.line, loc.column, scope));
}

/// Reports `s`, one diagnostic per problem; at its source place when the
/// core says where it is.
void Report(llvm::Module &m, const absl::Status &s) {
  std::vector<std::string> problems = autodiff::SplitProblems(s.message());
  std::optional<std::vector<autodiff::ProblemLocation>> places =
      autodiff::ProblemLocations(s);
  for (size_t i = 0; i < problems.size(); ++i) {
    std::string msg = "autodiff: " + problems[i];
    llvm::Function *fn =
        places ? m.getFunction((*places)[i].function) : nullptr;
    if (!fn) {
      m.getContext().emitError(msg);
      continue;
    }
    m.getContext().diagnose(
        AutodiffDiagnostic(*fn, msg, SourceLocation(*fn, (*places)[i])));
  }
}

/// The plugin's options (opt: `-autodiff-derivative-fast-math=none`;
/// clang: `-Xclang -load -Xclang AutodiffPlugin.so -mllvm ...`, so that the
/// option exists when clang reads its -mllvm arguments).
static llvm::cl::opt<std::string> DerivativeFastMath(
    "autodiff-derivative-fast-math",
    llvm::cl::desc("Fast-math flags for derivative arithmetic, as "
                   "autodiff-opt's --derivative-fast-math (default "
                   "reassoc,nsz,arcp,contract)"),
    llvm::cl::init(""));

/// Reverse mode caches the loads later stores in loops overwrite instead of
/// logging the stores (autodiff-opt's --no-undo-log).
static llvm::cl::opt<bool> NoUndoLog(
    "autodiff-no-undo-log",
    llvm::cl::desc("Reverse mode: cache the loads that later stores in "
                   "loops overwrite instead of logging and undoing the "
                   "stores, as autodiff-opt's --no-undo-log"),
    llvm::cl::init(false));

/// What one instance of the pass does.
enum class Stage {
  Lower,         ///< Annotated requests -> __enzyme_* calls.
  Differentiate, ///< __enzyme_* calls -> derivatives.
  Both,
};

class AutodiffPass : public llvm::PassInfoMixin<AutodiffPass> {
public:
  explicit AutodiffPass(Stage stage) : stage_(stage) {}

  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
    if (!HasAutodiffWork(m))
      return llvm::PreservedAnalyses::all();
    autodiff::PipelineOptions opts;
    opts.no_postopt = true; // The host's own pipeline optimizes.
    opts.stop_after_lowering = stage_ == Stage::Lower;
    opts.use_annotations = stage_ != Stage::Differentiate;
    if (!DerivativeFastMath.empty()) {
      absl::StatusOr<llvm::FastMathFlags> fmf =
          autodiff::ParseFastMathFlags(DerivativeFastMath);
      if (!fmf.ok()) {
        Report(m, absl::InvalidArgumentError(
                      "-autodiff-derivative-fast-math: " +
                      std::string(fmf.status().message())));
        return llvm::PreservedAnalyses::all();
      }
      opts.bridge.derivative_fmf = *fmf;
    }
    opts.bridge.undo_log = !NoUndoLog;
    absl::Status s = autodiff::RunAutodiffPipeline(m, {}, opts);
    if (!s.ok())
      Report(m, s);
    return llvm::PreservedAnalyses::none();
  }

  /// Must run at -O0 and on optnone functions too.
  static bool isRequired() { return true; }

private:
  Stage stage_;
};

void RegisterCallbacks(llvm::PassBuilder &pb) {
  autodiff::RegisterAnalysisPrinters(pb);
  pb.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::ModulePassManager &mpm,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (name == "autodiff")
          mpm.addPass(AutodiffPass(Stage::Both));
        else if (name == "autodiff-lower")
          mpm.addPass(AutodiffPass(Stage::Lower));
        else
          return false;
        return true;
      });
  pb.registerPipelineStartEPCallback(
      [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
        mpm.addPass(AutodiffPass(Stage::Lower));
      });
  pb.registerOptimizerLastEPCallback([&pb](llvm::ModulePassManager &mpm,
                                           llvm::OptimizationLevel level,
                                           llvm::ThinOrFullLTOPhase) {
    mpm.addPass(AutodiffPass(Stage::Differentiate));
    if (level != llvm::OptimizationLevel::O0) {
      mpm.addPass(
          pb.buildInlinerPipeline(level, llvm::ThinOrFullLTOPhase::None));
      mpm.addPass(llvm::GlobalDCEPass());
    }
  });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AutodiffPlugin", "0.1", RegisterCallbacks};
}
