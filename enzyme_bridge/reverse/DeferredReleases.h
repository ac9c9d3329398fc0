//===- enzyme_bridge/reverse/DeferredReleases.h - Outermost releases ------===//
//
// Shadows of memory a split derivative (a callee) frees but its caller
// allocated: the caller's reverse sweep may still use them after the
// callee's reverse sweep is done, so the callee puts them on a list that
// the outermost derivative releases once its own reverse sweep is done
// (DeferredReleases.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REVERSE_DEFERREDRELEASES_H
#define AUTODIFF_ENZYME_BRIDGE_REVERSE_DEFERREDRELEASES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class CallBase;
class Function;
class Module;
class Value;
} // namespace llvm

namespace autodiff {

/// `__autodiff_record_release(list, words, n)`: appends n i64 words to
/// the growable list {ptr data, i64 len, i64 cap} (ShadowLifetimes.cpp).
llvm::Function *RecordReleaseHelper(llvm::Module &m);

/// Puts `words` (the shadow as an integer, then the release's other
/// arguments, as RecordRelease makes them) on the list the outermost
/// derivative releases, with a function that releases them as `site`
/// released the primal (`release`, called with the `kept` arguments of
/// `site`). With `release_at_end`, the outermost derivative releases it
/// when no allocation claimed it (memory the caller gave through its
/// memory); without, only a claim does (memory given as an argument, which
/// may be the user's). Returns false, doing nothing, for a release with
/// more than two other arguments and in GPU code.
bool DeferRelease(llvm::IRBuilder<> &b, llvm::Function &out,
                  llvm::CallBase &site, llvm::FunctionCallee release,
                  llvm::ArrayRef<unsigned> kept,
                  llvm::ArrayRef<llvm::Value *> words, bool release_at_end);

/// Where the reverse sweep reaches a heap allocation: the deferred entries
/// of its `shadow` leave the list, released there when `release` (the
/// allocation's shadow is not released there otherwise).
void EmitClaimDeferred(llvm::IRBuilder<> &b, llvm::Value *shadow,
                       bool release);

/// Calls `release(args)` unless args[0], a shadow, lies in one of the
/// shadow arenas (the sink a pointer to constant memory gets as its shadow:
/// ShadowArenas.h), which are not heap memory. `b` ends in the block after.
void ReleaseUnlessArena(llvm::IRBuilder<> &b, llvm::FunctionCallee release,
                        llvm::ArrayRef<llvm::Value *> args);

/// Calls marking where a derivative starts and ends. They count the
/// derivatives running in this thread; the last one to end releases the
/// deferred shadows.
void EmitEnterDerivative(llvm::IRBuilder<> &b);
void EmitLeaveDerivative(llvm::IRBuilder<> &b);

/// After every derivative of `m` is made: where none deferred a release,
/// the enter and leave calls are removed; else they get their bodies.
void FinishDeferredReleases(llvm::Module &m);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REVERSE_DEFERREDRELEASES_H
