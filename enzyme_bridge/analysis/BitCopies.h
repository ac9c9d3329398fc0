//===- enzyme_bridge/analysis/BitCopies.h - Integer copies of raw bits -*- C++ -*-===//
//
// Optimized code moves floating-point data as integers: InstCombine turns
// an 8-byte memmove (std::sort's insertion step, a struct assignment) into
// `load i64` + `store i64`, and a swap of two doubles at -O3 into a
// `<2 x i64>` load, shuffle and store. Such a value is never used as a
// number: it only travels from loads to stores. A *bit-copy web* is such a
// closed set of integer values, found here once for the type analysis (the
// copy says nothing about what the memory holds, only that both sides hold
// the same) and for the reverse mode (which gives the web the
// floating-point type the memory holds, so the copy carries adjoints).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_BITCOPIES_H
#define AUTODIFF_ENZYME_BRIDGE_BITCOPIES_H

#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace llvm {
class BitCastInst;
class Function;
class Instruction;
class LoadInst;
class StoreInst;
class Type;
} // namespace llvm

namespace autodiff {

/// Integer values (scalars or vectors of one type) that only move bits:
/// loaded, passed through phis, selects and lane shuffles, stored, and
/// reinterpreted from or as floating point; never computed with.
struct BitCopyWeb {
  llvm::Type *type = nullptr; ///< The integer (vector) type of every value.
  llvm::SmallVector<llvm::LoadInst *, 4> loads;
  llvm::SmallVector<llvm::StoreInst *, 4> stores;
  /// Phis, selects and shuffles carrying the bits between them.
  llvm::SmallVector<llvm::Instruction *, 4> moves;
  /// Bitcasts from floating point into the web, and from the web to
  /// floating point.
  llvm::SmallVector<llvm::BitCastInst *, 2> from_float, to_float;
};

/// The bit-copy webs of `f` that touch memory (have a load or a store).
/// With `floats`: webs of double or float values instead (loads, phis,
/// selects and stores only), which move bits just as well: a record
/// copied through a `double` temporary.
std::vector<BitCopyWeb> FindBitCopyWebs(const llvm::Function &f,
                                        bool floats = false);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_BITCOPIES_H
