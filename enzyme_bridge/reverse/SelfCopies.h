//===- enzyme_bridge/reverse/SelfCopies.h - Stores of what was there -*- C++ -*-===//
//
// A record updated through a copy (`Body c = *p; c.x += ...; *p = c;`)
// writes every field back, the untouched ones (an `int id`, the padding
// after a `float`) as the very bits just loaded from the same place.
// clang keeps those stores when a call between them (`sin`, which may set
// errno) could in principle write there; they change nothing. Typed as
// integers over memory that holds floats elsewhere, they would stop
// reverse mode, which cannot tell padding from a float moved as bits; a
// store that puts back what a load just read from the same address, with
// nothing in between that may write there, is removed from the body
// reverse mode differentiates instead (exact: memory is the same either
// way).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_SELFCOPIES_H
#define AUTODIFF_ENZYME_BRIDGE_SELFCOPIES_H

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Removes from `f` each simple store of a simple load's value to the
/// load's own address (the same base and constant offset), in the load's
/// block, when nothing in between may write those bytes: only stores to
/// other bytes of the same base, math functions of the rule table (errno
/// at most) and instructions that write no memory. Returns the number of
/// stores removed.
unsigned RemoveSelfCopies(llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_SELFCOPIES_H
