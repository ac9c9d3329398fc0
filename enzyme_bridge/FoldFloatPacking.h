//===- enzyme_bridge/FoldFloatPacking.h - Unpack floats packed in integers -*- C++ -*-===//
//
// The x86-64 ABI returns `struct {float; int}` in one i64: the callee packs
// the float's bits and the int with zext, shl and or (or a funnel shift),
// the caller unpacks them with lshr, trunc and a bitcast back to float.
// Once the callee is inlined (by clang, or by reverse mode), the float
// read back is the float that was packed, but InstCombine does not always
// see it: the packed word goes through phis (the struct's int field known
// only on some paths), or a funnel shift repacks it. Both modes refuse
// integer arithmetic on an active float's bits, so such code was refused.
//
// FoldFloatPacking replaces each `bitcast iN X to float` whose bits are, by
// the shifts, masks, truncations, extensions, ors, funnel shifts and phis
// that built X, exactly the bits of one float value F, by F; and each
// truncation that reads an integer field back out of such a word by that
// field (else the int beside the float keeps the float's bits alive). The
// integer packing left without uses is deleted. Only in functions that
// reinterpret between integers and floats.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_FOLDFLOATPACKING_H
#define AUTODIFF_ENZYME_BRIDGE_FOLDFLOATPACKING_H

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Folds floats read back from the integers they were packed into; true
/// when something changed.
bool FoldFloatPacking(llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_FOLDFLOATPACKING_H
