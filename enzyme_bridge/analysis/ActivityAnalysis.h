//===- enzyme_bridge/analysis/ActivityAnalysis.h - What can carry a derivative -*- C++ -*-===//
//
// A value is active when it may depend on an active input ("varied") and
// may reach an active output or active memory ("useful"). Inactive code is
// copied, not differentiated. When in doubt a value is active: a silently
// dropped derivative is the worst bug this core can ship.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_ACTIVITYANALYSIS_H
#define AUTODIFF_ENZYME_BRIDGE_ACTIVITYANALYSIS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class CallBase;
class Argument;
class Function;
class Instruction;
class Type;
class Value;
class raw_ostream;
} // namespace llvm

namespace autodiff {

/// True for types that can hold a derivative or a shadow: floating-point
/// scalars and vectors, pointers, and aggregates containing either.
bool CarriesDerivative(const llvm::Type *t);
/// True for pointers and aggregates containing one.
bool ContainsPointer(const llvm::Type *t);
/// Whether the function `call` calls may write through its argument `i`
/// (its attributes, or its body: stores, copies and calls that may write
/// through what derives from it).
bool MayWriteThrough(const llvm::CallBase &call, unsigned i);
/// Whether integer `v` is computed from a pointer's address (ptrtoint, then
/// arithmetic, through phis): such an integer stays varied. With
/// `offsets_only`, only by adding offsets to it, or subtracting or or-ing
/// them into it: what reverse mode can mirror with a shadow address.
bool IsAddressInteger(const llvm::Value *v, bool offsets_only = false);

class ActivityInfo {
public:
  /// Analyzes `f` where `active_args` carry derivatives (a pointer argument:
  /// the memory it points to is active) and, if `active_return`, the return
  /// value is an active output.
  static ActivityInfo Compute(const llvm::Function &f,
                              llvm::ArrayRef<const llvm::Argument *> active_args,
                              bool active_return);

  /// May `v` depend on an active input?
  bool IsVaried(const llvm::Value *v) const { return varied_.count(v); }
  /// May `v` reach an active output or active memory?
  bool IsUseful(const llvm::Value *v) const { return useful_.count(v); }
  /// Varied and useful: the value gets a derivative. Constants other than
  /// globals are never active.
  bool IsActive(const llvm::Value *v) const {
    return IsVaried(v) && IsUseful(v);
  }

  /// One line per argument and instruction: "active", "inactive (constant
  /// input)", "inactive (unused)".
  void Print(llvm::raw_ostream &os) const;

private:
  const llvm::Function *f_ = nullptr;
  llvm::SmallPtrSet<const llvm::Value *, 32> varied_;
  llvm::SmallPtrSet<const llvm::Value *, 32> useful_;
};

/// `opt -passes=print<autodiff-activity>`: prints the activity of every
/// defined function, taking its floating-point and pointer arguments as
/// active and its return as an active output.
class ActivityPrinterPass : public llvm::PassInfoMixin<ActivityPrinterPass> {
public:
  explicit ActivityPrinterPass(llvm::raw_ostream &os) : os_(os) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &os_;
};

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_ACTIVITYANALYSIS_H
