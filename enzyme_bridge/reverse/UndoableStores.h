//===- enzyme_bridge/reverse/UndoableStores.h - Stores undone in reverse --===//
//
// The stores the reverse sweep undoes instead of caching the loads they
// may change (ReverseReloads.cpp, UndoLog.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REVERSE_UNDOABLESTORES_H
#define AUTODIFF_ENZYME_BRIDGE_REVERSE_UNDOABLESTORES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class BatchAAResults;
class DominatorTree;
class Instruction;
class LoopInfo;
} // namespace llvm

namespace autodiff {

/// Stores among `writes` (every write of the function) that the reverse
/// sweep may undo: simple, outside loops, into an argument's or a global's
/// memory, and never followed by a write that may change that memory.
/// `queries` counts the alias queries spent.
llvm::SmallPtrSet<llvm::Instruction *, 4>
FindUndoableStores(llvm::ArrayRef<llvm::Instruction *> writes,
                   llvm::BatchAAResults &batch, llvm::DominatorTree &dt,
                   llvm::LoopInfo &li, unsigned &queries);

/// Stores among `writes` that the undo log may undo (UndoLog.cpp): simple,
/// not in `undoable`, of at most 64 bytes, into an argument's or a global's
/// memory that no later call may free.
llvm::SmallPtrSet<llvm::Instruction *, 8>
FindLoggableStores(llvm::ArrayRef<llvm::Instruction *> writes,
                   const llvm::SmallPtrSetImpl<llvm::Instruction *> &undoable,
                   llvm::BatchAAResults &batch, llvm::DominatorTree &dt,
                   llvm::LoopInfo &li);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REVERSE_UNDOABLESTORES_H
