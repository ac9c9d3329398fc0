//===- enzyme_bridge/Bridge.h - Differentiate __enzyme_* calls -*- C++ -*-===//
//
// The Enzyme-compatible entry point: finds every `__enzyme_fwddiff*` /
// `__enzyme_autodiff*` call in a module, generates the derivative it asks
// for (cached per request), and replaces the call by a call to it.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_BRIDGE_H
#define AUTODIFF_ENZYME_BRIDGE_BRIDGE_H

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#include <string_view>
#include "llvm/IR/FMF.h"

namespace llvm {
class Module;
class raw_ostream;
} // namespace llvm

namespace autodiff {

/// reassoc, nsz, arcp and contract: what derivatives get by default.
inline llvm::FastMathFlags DefaultDerivativeFastMath() {
  llvm::FastMathFlags fmf;
  fmf.setAllowReassoc();
  fmf.setNoSignedZeros();
  fmf.setAllowReciprocal();
  fmf.setAllowContract();
  return fmf;
}

struct BridgeOptions {
  /// Remove `__enzyme_*` declarations that have no uses left.
  bool erase_dead_declarations = true;
  /// If set, one line per generated derivative ("request -> function") is
  /// written here after differentiation: what the cache holds.
  llvm::raw_ostream *cache_log = nullptr;
  /// If set, each reverse-mode derivative reports here what its tape holds
  /// and why, as it is generated.
  llvm::raw_ostream *tape_log = nullptr;
  /// Fast-math flags given to the derivative arithmetic the core adds
  /// (tangents in forward mode, adjoints in reverse mode), on top of any
  /// the primal instruction has; the primal computation keeps its own.
  /// By default reassoc, nsz, arcp and contract, never nnan or ninf
  /// (docs/user-guide.md, "Fast math in derivatives").
  llvm::FastMathFlags derivative_fmf = DefaultDerivativeFastMath();
  /// Whether reverse mode may log stores in loops and undo them, reading
  /// again the loads they overwrite, where that takes less tape than
  /// caching those loads (docs/architecture.md, "The undo log"). Off: the
  /// loads are cached (more tape, often less time).
  bool undo_log = true;
};

/// Parses a list of fast-math flags for BridgeOptions::derivative_fmf:
/// "none", "fast" (all of them), or names separated by commas among
/// reassoc, nnan, ninf, nsz, arcp, contract and afn (LLVM's names).
absl::StatusOr<llvm::FastMathFlags>
ParseFastMathFlags(std::string_view spec);

/// Differentiates every request in `m`. On failure the status (InvalidArgument
/// for a malformed request, Unimplemented for an instruction without a
/// derivative rule) has one line per problem, each naming the function and
/// the instruction or call site; `m` may then be partly rewritten, but it
/// stays valid IR.
absl::Status DifferentiateModule(llvm::Module &m, const BridgeOptions &opts);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_BRIDGE_H
