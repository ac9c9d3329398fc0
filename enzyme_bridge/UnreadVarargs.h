//===- enzyme_bridge/UnreadVarargs.h - Calls to variadics that never read them -*- C++ -*-===//
//
// A variadic function of the module that never calls `llvm.va_start`
// cannot read its variadic arguments: they are dead. libstdc++'s
// std::visit at -O0 calls such a function (a lambda whose parameter list
// ends in `...`) with active values there, and both modes refused a call
// with active arguments to a variadic function. Before differentiation,
// each direct call to such a function from code a request reaches calls a
// fixed-arity copy instead, without the variadic operands.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_UNREADVARARGS_H
#define AUTODIFF_ENZYME_BRIDGE_UNREADVARARGS_H

#include "llvm/ADT/SetVector.h"

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Rewrites the direct calls in `functions` to variadic functions that
/// never read their variadic arguments into calls to fixed-arity copies,
/// which are added to `functions` (their own calls are rewritten too).
void DropUnreadVarargs(llvm::SetVector<llvm::Function *> &functions);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_UNREADVARARGS_H
