//===- enzyme_bridge/analysis/AliasStack.h - Alias analysis, no manager -*- C++ -*-===//
//
// Basic, type-based and scoped no-alias alias analysis over one function,
// built without a pass manager, asked across loop iterations (a write in a
// later iteration of the same loop counts as a later write). The reverse
// sweep's reload analysis and the versioning on disjoint arguments ask it
// the same questions.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_ANALYSIS_ALIASSTACK_H
#define AUTODIFF_ENZYME_BRIDGE_ANALYSIS_ALIASSTACK_H

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/TypeBasedAliasAnalysis.h"

#include <optional>

namespace autodiff {

class AliasStack {
public:
  AliasStack(llvm::Function &f, llvm::TargetLibraryInfo &tli,
             llvm::AssumptionCache &ac, llvm::DominatorTree *dt)
      : aa_(tli), basic_(f.getDataLayout(), f, tli, ac, dt),
        tbaa_(/*UsingTypeSanitizer=*/false) {
    aa_.addAAResult(basic_);
    aa_.addAAResult(tbaa_);
    aa_.addAAResult(scoped_);
    batch_.emplace(aa_);
    batch_->enableCrossIterationMode();
  }
  AliasStack(const AliasStack &) = delete;
  AliasStack &operator=(const AliasStack &) = delete;

  llvm::BatchAAResults &Batch() { return *batch_; }

private:
  llvm::AAResults aa_;
  llvm::BasicAAResult basic_;
  llvm::TypeBasedAAResult tbaa_;
  llvm::ScopedNoAliasAAResult scoped_;
  std::optional<llvm::BatchAAResults> batch_;
};

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_ANALYSIS_ALIASSTACK_H
