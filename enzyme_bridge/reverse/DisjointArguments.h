//===- enzyme_bridge/reverse/DisjointArguments.h - Versioning on overlap --===//
//
// Run-time versioning of a function on whether the memory its pointer
// arguments reach overlaps (see DisjointArguments.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REVERSE_DISJOINTARGUMENTS_H
#define AUTODIFF_ENZYME_BRIDGE_REVERSE_DISJOINTARGUMENTS_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Argument;
class AssumptionCache;
class DominatorTree;
class Function;
class LoopInfo;
class ScalarEvolution;
class TargetLibraryInfo;
} // namespace llvm

namespace autodiff {

/// The analyses of the function to version, valid on entry.
struct VersioningAnalyses {
  llvm::TargetLibraryInfo &tli;
  llvm::AssumptionCache &ac;
  llvm::DominatorTree &dt;
  llvm::LoopInfo &li;
  llvm::ScalarEvolution &se;
};

/// When `f` reads memory through one pointer argument that a later write
/// through another argument may change (and so the reverse sweep would
/// cache what it read), and the byte ranges that every access through
/// those arguments reaches are computable at the entry: gives `f` a second
/// copy of its body, taken when the ranges do not overlap, whose accesses
/// carry scoped no-alias metadata saying so. Returns the arguments the
/// check compares, none when `f` is unchanged (otherwise its analyses are
/// stale).
llvm::SmallVector<llvm::Argument *, 4>
VersionOnDisjointArguments(llvm::Function &f, VersioningAnalyses a);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REVERSE_DISJOINTARGUMENTS_H
