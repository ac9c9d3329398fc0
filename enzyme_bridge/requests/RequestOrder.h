//===- enzyme_bridge/requests/RequestOrder.h - Which requests go first ----===//
//
// A request whose function reaches another request (a derivative of code
// that itself asks for a derivative) is differentiated after that one, so
// that it differentiates a plain call to the inner derivative. Requests
// that reach each other in a cycle are an error naming the chain of calls.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REQUESTS_REQUESTORDER_H
#define AUTODIFF_ENZYME_BRIDGE_REQUESTS_REQUESTORDER_H

#include "absl/status/statusor.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstrTypes.h"

namespace autodiff {

/// The requests to replace in one round: those whose code reaches no other
/// request, split into the ones inside code that a later request
/// differentiates (`nested`: their derivatives are differentiated in turn,
/// higher order) and the rest (`outer`).
struct RequestRound {
  llvm::SmallVector<llvm::CallBase *, 16> nested, outer;
};

/// The function a request call differentiates, if it is visible.
llvm::Function *RequestTarget(llvm::CallBase &cb);

/// Functions reachable from `f` through direct calls (f included), each
/// mapped to the function whose call first reached it (f to null).
llvm::DenseMap<llvm::Function *, llvm::Function *> Reachable(llvm::Function *f);

/// The next round of `calls` (every request call left in the module, in
/// module order), or the error for requests that reach each other.
absl::StatusOr<RequestRound> NextRequestRound(llvm::ArrayRef<llvm::CallBase *> calls);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REQUESTS_REQUESTORDER_H
