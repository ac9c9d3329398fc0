//===- enzyme_bridge/ClonePrimal.h - The primal copied into a derivative -*- C++ -*-===//
//
// Both modes start a derivative the same way: the primal's body is copied
// into the derivative function, whose parameters are the primal's, each
// active (dup) one followed by its shadows; attributes that would lie about
// the derivative are dropped.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_CLONEPRIMAL_H
#define AUTODIFF_ENZYME_BRIDGE_CLONEPRIMAL_H

#include "enzyme_bridge/requests/Request.h"

#include "llvm/ADT/SmallVector.h"

#include <utility>
#include <vector>

namespace llvm {
class Argument;
class Function;
class Value;
} // namespace llvm

namespace autodiff {

/// Per-lane tangents (or shadows, for pointers) of one primal value; a null
/// lane is a zero tangent / no shadow.
using Lanes = llvm::SmallVector<llvm::Value *, 4>;

struct ClonedPrimal {
  /// Each dup / dupnoneed parameter of the copy with its shadows (a by-value
  /// aggregate's shadow is a local copy, as the primal's is).
  std::vector<std::pair<llvm::Argument *, Lanes>> shadows;
  /// Every parameter that carries a derivative: dup, dupnoneed and out.
  llvm::SmallVector<const llvm::Argument *, 8> active;
};

/// Copies r.fn's body into `out` (declared with the derivative's type: the
/// primal parameters in order, `r.width` shadows after each dup or
/// dupnoneed one, possibly more parameters after them) and gives `out` the
/// derivative's linkage and attributes.
ClonedPrimal ClonePrimalBody(const DiffRequest &r, llvm::Function &out);

/// Erases `f`'s blocks, keeping its linkage, attributes and personality,
/// so that its body can be made again (or replaced by another).
void EraseBody(llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_CLONEPRIMAL_H
