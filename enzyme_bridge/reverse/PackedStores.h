//===- enzyme_bridge/reverse/PackedStores.h - Fields stored as one word -*- C++ -*-===//
//
// The x86-64 ABI passes and returns `struct {float; int}` (and any record
// whose first eight bytes mix a float with an integer) as one i64. Once the
// callee is inlined, storing such a record is a store of a word the code
// built from the float's bits: `or (zext (bitcast float %w to i32)),
// (shl (zext i32 %k), 32)`. Reverse mode refuses storing a computed
// integer over memory that holds an active float; here such a store
// becomes one store per field, the float stored as a float. The mirror of
// UnpackedLoads.h.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_PACKEDSTORES_H
#define AUTODIFF_ENZYME_BRIDGE_PACKEDSTORES_H

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Replaces each simple store of an integer word that is an `or` of
/// byte-aligned, disjoint fields (`zext F`, `shl (zext F), C`, `shl X, C`
/// or a constant), one of which holds a float's bits (`bitcast` from a
/// float or double), by one store per field; bytes no field covers are
/// stored as the zeros (or constant bits) the word held there.
/// Little-endian targets only. Returns the number of stores split.
unsigned SplitPackedStores(llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_PACKEDSTORES_H
