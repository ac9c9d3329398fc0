//===- enzyme_bridge/requests/CallSite.h - Parsing __enzyme_* calls -----*- C++ -*-===//
//
// Recognizes request calls (`__enzyme_fwddiff*`, `__enzyme_autodiff*`, also
// through invoke and behind casts) and reads their markers in the three
// forms compilers emit: metadata strings, marker globals passed as values,
// and loads of marker globals.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_CALLSITE_H
#define AUTODIFF_ENZYME_BRIDGE_CALLSITE_H

#include "enzyme_bridge/requests/Request.h"

#include "absl/status/statusor.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/ValueHandle.h"

#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Type;
class Value;
} // namespace llvm

namespace autodiff {

/// The request mode of `call`'s callee, if it is a request.
std::optional<Mode> RequestModeOf(const llvm::CallBase &call);
/// The same from an entry point's name.
std::optional<Mode> RequestModeOfName(llvm::StringRef name);

/// Whether `call` is `__enzyme_augmentsize` (mode Augmented, no values).
bool IsTapeSizeQuery(const llvm::CallBase &call);

/// The marker a value spells ("enzyme_dup"), if it is one.
std::optional<std::string> MarkerName(const llvm::Value *v);

/// A parsed request call site.
struct RequestCall {
  llvm::CallBase *call = nullptr;
  DiffRequest request;
  /// Per parameter of request.fn: the primal operand (not yet coerced to
  /// the parameter type) and its shadows (one per lane for Dup/DupNoNeed).
  /// Operands are tracking handles: one may be the result of another
  /// request of the same batch, replaced before this one is.
  llvm::SmallVector<llvm::WeakTrackingVH, 8> primals;
  llvm::SmallVector<llvm::SmallVector<llvm::WeakTrackingVH, 4>, 8> shadows;
  /// Reverse mode: the `enzyme_seed` operands (our extension), if given:
  /// one per lane under `enzyme_width`; the differential return of
  /// `__enzyme_reverse`.
  llvm::SmallVector<llvm::WeakTrackingVH, 1> seeds;
  /// The result goes through this sret pointer instead of the return.
  llvm::Value *sret = nullptr;
  /// The differentiated function returns through an sret parameter (its
  /// parameter 0) that the call does not pass: the call's own result holds
  /// the tangent (after the primal, with enzyme_primal_return).
  bool implicit_sret = false;
  /// With implicit_sret: enzyme_primal_return was given.
  bool implicit_sret_primal = false;
  /// What the call site expects back (the sret type, or the call's type).
  llvm::Type *result_type = nullptr;
  /// Split mode: `__enzyme_augmentsize` (no values, replaced by the size);
  /// `enzyme_allocated`'s size and `enzyme_tape`'s buffer; the operand
  /// number of the reverse half's tape (anonymous tape: read when the call
  /// is replaced, since it is often the result of another request).
  bool size_query = false;
  llvm::WeakTrackingVH tape_size;
  llvm::WeakTrackingVH tape_buffer;
  unsigned tape_operand = 0;
};

/// Parses `call`. Diagnostics (InvalidArgument) name the calling function
/// and the call: an unknown `enzyme_*` marker, a marker operand missing, a
/// missing shadow, too few or too many arguments, a function that is not a
/// definition in this module, a value whose type does not fit.
absl::StatusOr<RequestCall> ParseRequestCall(llvm::CallBase &call);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_CALLSITE_H
