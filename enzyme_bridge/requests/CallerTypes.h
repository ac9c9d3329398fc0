//===- enzyme_bridge/requests/CallerTypes.h - Types a caller knows -*- C++ -*-===//
//
// A function may read the memory it is given only as integers (a
// `uint64_t *` view of a `double` array) while its caller fills that
// memory with doubles. Alone, the type analysis of the function sees
// integers there, and integer moves of the bits would carry no derivative.
// The caller's view is added to the request: for each duplicated pointer
// parameter, where the caller's type analysis finds floats in the memory
// passed or in its shadows (which have the same layout) at offsets the
// function's own code does not type as floats, those floats.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REQUESTS_CALLERTYPES_H
#define AUTODIFF_ENZYME_BRIDGE_REQUESTS_CALLERTYPES_H

#include "enzyme_bridge/requests/CallSite.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace llvm {
class Argument;
class Value;
} // namespace llvm

namespace autodiff {

class TypeInfo;

/// The "enzyme_type" string for `param` when its caller passes `passed`
/// (the pointer, then its shadows) and `caller` (the caller's type
/// analysis) finds floats there at offsets where `callee` (the callee's)
/// does not; empty otherwise.
std::string CallerPointerType(const TypeInfo &caller,
                              llvm::ArrayRef<const llvm::Value *> passed,
                              const TypeInfo &callee,
                              const llvm::Argument &param);

/// Fills `request.arg_types` of the forward and combined reverse requests
/// in `calls` (split-mode halves are left alone: their two calls must
/// agree).
void AddCallerArgumentTypes(llvm::MutableArrayRef<RequestCall> calls);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REQUESTS_CALLERTYPES_H
