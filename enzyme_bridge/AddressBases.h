//===- enzyme_bridge/AddressBases.h - Addresses back in the base -*- C++ -*-===//
//
// LLVM's address sinking (CodeGenPrepare, which Numba's pipeline runs)
// may build a byte address as `getelementptr i8, (inttoptr OFFSET), ADDR`:
// the base is an integer offset turned into a pointer and the index is
// the address (`ptrtoint` of an array's data plus a column offset). The
// arithmetic is the same either way, but both analyses follow pointers
// through their base: such a load looked like a read of no object, and
// the view's elements got no derivative (np.sum of `A[1:, 1:]` in Numba:
// a zero gradient, in both modes).
//
// PutAddressesInBase swaps base and index of every such GEP: the address
// integer becomes the base (`inttoptr ADDR`), the offset the index.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_ADDRESSBASES_H
#define AUTODIFF_ENZYME_BRIDGE_ADDRESSBASES_H

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Swaps base and index of byte GEPs whose base is a non-address integer
/// made a pointer and whose index is an address; true when something
/// changed.
bool PutAddressesInBase(llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_ADDRESSBASES_H
