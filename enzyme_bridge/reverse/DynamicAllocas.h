//===- enzyme_bridge/reverse/DynamicAllocas.h - Stack arrays to the heap -*- C++ -*-===//
//
// Reverse mode needs a function's temporaries after the forward sweep is
// done with them, which a stack array sized at run time (a C99
// variable-length array, `alloca(n)`) does not outlive: its scope ends
// (`llvm.stackrestore`) or the loop that made it goes round again. Such
// arrays become heap allocations, which the reverse sweep keeps until it
// is done (ReverseTapeArrays.cpp), as any malloc'd temporary.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REVERSE_DYNAMICALLOCAS_H
#define AUTODIFF_ENZYME_BRIDGE_REVERSE_DYNAMICALLOCAS_H

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Turns each stack array of `f` sized at run time that may hold floats,
/// pointers or bytes into a malloc, freed where its scope ends (before
/// each `llvm.stackrestore` of the stack position saved just before it)
/// and at the returns reached before that; outside loops, at the returns.
/// An array in a loop with no such scope (`alloca(n)` in a loop, which
/// grows the stack each time round) stays, and reverse mode refuses it.
void MoveDynamicAllocasToHeap(llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REVERSE_DYNAMICALLOCAS_H
