//===- enzyme_bridge/reverse/FloatBitCopies.h - Typed bit copies -*- C++ -*-===//
//
// Gives integer copies of floating-point data (BitCopies.h: an 8-byte
// memmove that InstCombine turned into `load i64` + `store i64`, a
// `<2 x i64>` swap) the floating-point type of the memory they move, in the
// body the reverse mode differentiates, so the copy carries adjoints like a
// copy of doubles. Exact for the primal: loads, stores, phis, selects and
// shuffles of floating-point values move their bits unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_FLOATBITCOPIES_H
#define AUTODIFF_ENZYME_BRIDGE_FLOATBITCOPIES_H

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Retypes each bit-copy web of `f` whose memory the type analysis finds to
/// hold one floating-point type at every lane (and nothing else on any of
/// its sides), and cuts those over records mixing float fields with
/// integer fields or padding into one copy per field (MixedBitCopies.h);
/// webs over integers, pointers or unknown memory stay. Returns the number
/// of webs retyped or cut.
unsigned RetypeFloatBitCopies(llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_FLOATBITCOPIES_H
