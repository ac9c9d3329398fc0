//===- enzyme_bridge/forward/ForwardMode.h - Forward-mode emitter ------*- C++ -*-===//
#ifndef AUTODIFF_ENZYME_BRIDGE_FORWARDMODE_H
#define AUTODIFF_ENZYME_BRIDGE_FORWARDMODE_H

#include "enzyme_bridge/requests/Request.h"

#include "absl/status/status.h"

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

class DerivativeCache;

/// Fills `out` (declared with ForwardDerivativeType(r), empty body) with the
/// forward derivative of r.fn: a copy of the primal with tangent code after
/// each active instruction. Calls to other functions are differentiated
/// through `cache`.
absl::Status EmitForwardDerivative(const DiffRequest &r, llvm::Function &out,
                                   DerivativeCache &cache);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_FORWARDMODE_H
