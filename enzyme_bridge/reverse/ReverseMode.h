//===- enzyme_bridge/reverse/ReverseMode.h - Reverse-mode emitter -*- C++ -*-===//
//
// Reverse mode (`__enzyme_autodiff`): the derivative runs an augmented
// forward sweep (the primal plus the shadows of pointers and whatever the
// reverse sweep needs, recorded on a tape) and then a reverse sweep that
// propagates adjoints backwards through the primal's control flow.
// docs/architecture.md describes the design.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REVERSE_REVERSEMODE_H
#define AUTODIFF_ENZYME_BRIDGE_REVERSE_REVERSEMODE_H

#include "enzyme_bridge/requests/Request.h"

#include "absl/status/status.h"

namespace llvm {
class Function;
class FunctionType;
} // namespace llvm

namespace autodiff {

class DerivativeCache;

/// The signature of a combined reverse derivative: per parameter its primal,
/// then its shadow for dup / dupnoneed; then `dret` (the seed of the
/// return, of the return's type) when the return is active. Returns nothing,
/// the one leaf, or a literal struct of [primal if return_primal] + [the
/// gradient of every `enzyme_out` parameter, in order]. With width N, each
/// shadow, the seed and each gradient come N times in a row (lane order).
llvm::FunctionType *ReverseDerivativeType(const DiffRequest &r);

/// The augmented forward sweep of a split derivative: per parameter its
/// primal, then its shadow for dup / dupnoneed; returns the tape (`ptr`),
/// or `{ptr tape, primal result}` when the function returns a value, and
/// `{ptr tape, result, result's shadow}` for an active pointer result
/// (`return_tangent` on a pointer result means this in split modes). This
/// is the calling convention of a custom rule's `augment` function too.
llvm::FunctionType *AugmentedType(const DiffRequest &r);

/// The reverse sweep of a split derivative: the augmented sweep's
/// parameters, then `dret` when the return is active, then the tape;
/// returns what ReverseDerivativeType returns, without the primal.
llvm::FunctionType *SplitReverseType(const DiffRequest &r);

/// The bytes the tape of augmented half `aug` needs in a caller-provided
/// buffer (`__enzyme_augmentsize`), once its body is made; 0 before, and
/// for a tape with nothing in it.
uint64_t TapeBytes(const llvm::Function &aug);

/// Whether reverse mode can take `r` at all (width 1, activities that fit);
/// the message says why not.
absl::Status CheckReverseRequest(const DiffRequest &r);

/// Fills `out` (declared with ReverseDerivativeType(r), empty body) with the
/// combined reverse derivative of r.fn.
absl::Status EmitReverseDerivative(const DiffRequest &r, llvm::Function &out,
                                   DerivativeCache &cache);

/// The same for `enzyme_width` N > 1: the derivative of width 1, widened
/// so that its reverse sweep runs once per lane (ReverseWidth.cpp).
absl::Status EmitWideReverseDerivative(const DiffRequest &r,
                                       llvm::Function &out,
                                       DerivativeCache &cache);

/// Fills `aug` (declared with AugmentedType) and `rev` (SplitReverseType)
/// for `r` (either mode): one combined derivative is emitted and cut in two
/// at the point where its forward sweep ends (ReverseSplit.cpp).
absl::Status EmitSplitDerivative(const DiffRequest &r, llvm::Function &aug,
                                 llvm::Function &rev, DerivativeCache &cache);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REVERSE_REVERSEMODE_H
