//===- enzyme_bridge/analysis/LocalCopies.h - Bytes moved through locals -*- C++ -*-===//
//
// Unoptimized code moves values through stack slots: a call's result is
// stored into an alloca, copied with memcpy into another, and loaded back
// with a different type (the x86-64 ABI returns `struct {float; int}` as
// one i64, and -O0 code stores it, copies it into the struct's own slot,
// and reads the float field). Which stored values a load may read, and
// which loads may read what a store wrote, through allocas addressed at
// constant offsets and constant-length copies between them. Flow
// insensitive and bounded: an over-approximation of the byte flow between
// locals, for deciding whether integers carry a float's bits.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_LOCALCOPIES_H
#define AUTODIFF_ENZYME_BRIDGE_LOCALCOPIES_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace llvm {
class DataLayout;
class LoadInst;
class StoreInst;
class Type;
class Value;
} // namespace llvm

namespace autodiff {

/// A stored value and the bytes of it [lo, hi) that a load may read; or,
/// with `value` null, bytes [lo, hi) from `source`, memory other than a
/// local that a copy brought in.
struct StoredBytes {
  llvm::Value *value;
  int64_t lo, hi;
  const llvm::Value *source = nullptr;
  /// Where in what the load reads these bytes are.
  int64_t at = 0;
};

/// The values stored into a local whose bytes `ld` may read, directly or
/// through copies between locals; empty when `ld` does not read a local
/// at a constant offset. `*complete` is cleared when something else may
/// write those locals (a store or copy at an offset known only at run
/// time, a call given their address). With `hi` > 0, only bytes [lo, hi)
/// of what `ld` reads.
llvm::SmallVector<StoredBytes, 4>
StoredValuesReaching(const llvm::LoadInst &ld, const llvm::DataLayout &dl,
                     bool *complete = nullptr, int64_t lo = 0,
                     int64_t hi = 0);

/// Flow-sensitive, for straight-line code: the stores that last wrote
/// each byte `ld` reads from a local whose address is only loaded from
/// and stored to, walking back through single predecessors; nullopt when
/// that is not known (a store at an offset known only at run time, a
/// join of paths before every byte is found).
std::optional<llvm::SmallVector<StoredBytes, 4>>
LastStoresBefore(const llvm::LoadInst &ld, const llvm::DataLayout &dl);

/// Whether bytes [lo, hi) of a value of type `t` overlap a floating-point
/// leaf of it.
bool FloatLeafIn(llvm::Type *t, int64_t lo, int64_t hi,
                 const llvm::DataLayout &dl);

/// The loads that may read bytes `st` writes into a local, directly or
/// after copies between locals; empty when `st` does not write a local at
/// a constant offset. `*escapes` is set when such a local's address is
/// also passed to a call (other than a copy between locals), which may
/// read the bytes.
llvm::SmallVector<llvm::LoadInst *, 4>
LoadsReading(const llvm::StoreInst &st, const llvm::DataLayout &dl,
             bool *escapes = nullptr);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_LOCALCOPIES_H
