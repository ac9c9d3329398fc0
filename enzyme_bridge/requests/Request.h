//===- enzyme_bridge/requests/Request.h - Differentiation requests ------*- C++ -*-===//
//
// A request (function, mode, per-argument activity, return flags, width) is
// a hashable value: it keys the derivative cache, so the same derivative is
// generated once and reused by every call site and by recursive calls.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REQUEST_H
#define AUTODIFF_ENZYME_BRIDGE_REQUEST_H

#include "llvm/ADT/DenseMapInfo.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Forward: `__enzyme_fwddiff`. Reverse: `__enzyme_autodiff`, both sweeps in
/// one function. Augmented and SplitReverse: the two halves of a split
/// reverse derivative (ReverseSplit.cpp), generated together: the augmented
/// forward sweep returns a tape that the split reverse sweep consumes.
enum class Mode { Forward, Reverse, Augmented, SplitReverse };

/// How one parameter of the differentiated function takes part.
enum class ArgActivity {
  Const,     ///< `enzyme_const`: no derivative.
  Dup,       ///< `enzyme_dup`: followed by `width` shadows / tangents.
  DupNoNeed, ///< `enzyme_dupnoneed`: as Dup; the primal result is unneeded.
  Out,       ///< `enzyme_out` (reverse): gradient returned.
};

struct DiffRequest {
  llvm::Function *fn = nullptr;
  Mode mode = Mode::Forward;
  llvm::SmallVector<ArgActivity, 4> args;
  unsigned width = 1;
  /// The derivative also returns the primal result.
  bool return_primal = false;
  /// The derivative returns the tangent (forward) of the result; false for
  /// a void/integer result or with `enzyme_const_return`.
  bool return_tangent = false;
  /// Per parameter, an "enzyme_type" string the caller's code gives the
  /// memory it passes where the function alone says nothing of floats in
  /// it (requests/CallerTypes.h); empty: none. The derivative's copy of
  /// the body carries them as parameter attributes.
  llvm::SmallVector<std::string, 0> arg_types;
  /// Augmented and SplitReverse: the tape lives in a buffer the caller
  /// provides (`enzyme_allocated, SIZE, enzyme_tape, buf`), passed to the
  /// augmented half as its last parameter and to the reverse half as its
  /// tape; neither allocates nor frees it.
  bool tape_in_buffer = false;

  bool operator==(const DiffRequest &o) const {
    return fn == o.fn && mode == o.mode && args == o.args &&
           width == o.width && return_primal == o.return_primal &&
           return_tangent == o.return_tangent && arg_types == o.arg_types &&
           tape_in_buffer == o.tape_in_buffer;
  }
  bool operator!=(const DiffRequest &o) const { return !(*this == o); }

  bool IsActive(unsigned i) const { return args[i] != ArgActivity::Const; }

  /// Deterministic readable key, e.g. "fwd(f)[dup,const]w2+primal+tangent";
  /// also the basis of the derivative's name.
  std::string ToString() const;
  /// Name of the generated function, e.g. "fwddiffe_f" or "fwddiffe2_f.1".
  std::string DerivativeName() const;
};

llvm::hash_code hash_value(const DiffRequest &r);

} // namespace autodiff

namespace llvm {
template <> struct DenseMapInfo<autodiff::DiffRequest> {
  static autodiff::DiffRequest getEmptyKey() {
    autodiff::DiffRequest r;
    r.width = ~0u;
    return r;
  }
  static autodiff::DiffRequest getTombstoneKey() {
    autodiff::DiffRequest r;
    r.width = ~0u - 1;
    return r;
  }
  static unsigned getHashValue(const autodiff::DiffRequest &r) {
    return static_cast<unsigned>(autodiff::hash_value(r));
  }
  static bool isEqual(const autodiff::DiffRequest &a,
                      const autodiff::DiffRequest &b) {
    return a == b;
  }
};
} // namespace llvm

#endif // AUTODIFF_ENZYME_BRIDGE_REQUEST_H
