//===- enzyme_bridge/GpuSharedAccesses.h - Private shared accesses -*- C++ -*-===//
//
// Which accesses to a block's shared-memory arrays no other thread of the
// block touches between the same two barriers, so that the reverse sweep
// may add their adjoints with a plain load and store instead of an atomic
// add (the reverse sweep mirrors the barriers, so it has the same phases).
//
// An access's index is the thread's own `threadIdx.x` (T), `threadIdx.x +
// s` under a guard `threadIdx.x < s` with `s` the same in every thread of
// the phase (S: a tree reduction's `if (t < s) a[t] += a[t + s]`), a
// constant (C), perhaps under a guard `threadIdx.x == k`, or anything else
// (unknown, which conflicts with everything). Two accesses conflict when
// two different threads may reach them in the same phase (between the same
// two executions of an aligned `__syncthreads`: one reaches the other
// without crossing a barrier, or threads part at a branch that is not the
// same in all of them) and may touch the same element:
//  - T and T never; S(s) and S(s) never; T and S(s) only unless the T
//    access is guarded by `threadIdx.x < s` too (then t1 < s <= t2 + s);
//  - C(c) guarded by `threadIdx.x == k` is one thread's: it conflicts with
//    T unless c == k, with S unless c == 0 (t + s > 0), with another
//    guarded constant access to c only if its k differs;
//  - an unguarded C(c) is every thread's: it conflicts with itself and with
//    anything that may touch c.
// An access no access conflicts with (itself included) is private.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_GPUSHAREDACCESSES_H
#define AUTODIFF_ENZYME_BRIDGE_GPUSHAREDACCESSES_H

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace autodiff {

/// Adds to `out` the loads, stores and atomic updates of `f`'s
/// shared-memory arrays that are private to their thread in their phase
/// (when the block is one-dimensional).
void AddPrivateSharedAccesses(llvm::Function &f,
                              llvm::SmallPtrSetImpl<const llvm::Instruction *> &out);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_GPUSHAREDACCESSES_H
