//===- enzyme_bridge/requests/JoinedRequests.h - One call, several fns ---===//
//
// Requests whose function operand is one of several functions (clang's
// merge of requests in the arms of a branch).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REQUESTS_JOINEDREQUESTS_H
#define AUTODIFF_ENZYME_BRIDGE_REQUESTS_JOINEDREQUESTS_H

namespace llvm {
class Module;
} // namespace llvm

namespace autodiff {

/// Splits each request call whose function operand is a select, a phi or
/// a load from a constant table of functions into one request per
/// function, chosen at run time by comparing the operand with each.
void SplitJoinedRequests(llvm::Module &m);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REQUESTS_JOINEDREQUESTS_H
