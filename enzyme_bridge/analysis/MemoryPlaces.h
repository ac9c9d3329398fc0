//===- enzyme_bridge/analysis/MemoryPlaces.h - Where pointers point -*- C++ -*-===//
//
// The type analysis's arithmetic of places: which object a pointer points
// into and where (a constant offset, or a field of an element of an array
// of records reached at run time), and the facts of an object seen from
// such a place.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_MEMORYPLACES_H
#define AUTODIFF_ENZYME_BRIDGE_MEMORYPLACES_H

#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace llvm {
class DataLayout;
class GEPOperator;
class Value;
} // namespace llvm

namespace autodiff {

/// Where a pointer points: its object and constant offset, or -1 when an
/// index known only at run time moves it. When that index walks an array
/// of aggregates (`p[i].field`, or a byte offset that is a known multiple
/// of the element's size), the offset within the element is kept: `period`
/// is the step, `phase` the offset.
struct Place {
  const llvm::Value *obj = nullptr;
  int64_t off = 0;
  int64_t period = 0;
  int64_t phase = 0;

  /// No object has offsets beyond this; a place further on (fuzzed or
  /// wrapping IR) is "somewhere in the object", never an overflow.
  static constexpr int64_t kMaxOffset = int64_t(1) << 48;

  /// `bytes` further on.
  Place Shift(int64_t bytes) const {
    Place p = *this;
    if (off >= 0) {
      if (bytes < 0 || bytes > kMaxOffset || off > kMaxOffset - bytes)
        return Place{obj, -1};
      p.off = off + bytes;
    } else if (period > 0) {
      p.phase = (phase + bytes % period + period) % period;
    }
    return p;
  }
};

/// A GEP's variable index walking an array of aggregates: the element's
/// size, and the GEP's constant bytes; nullopt for any other GEP.
std::optional<std::pair<int64_t, int64_t>>
AggregateStride(const llvm::GEPOperator &gep, const llvm::DataLayout &dl);

/// A constant that integer `v` is a multiple of (see MemoryPlaces.cpp).
int64_t KnownMultiple(const llvm::Value *v, unsigned depth = 0);

Place LocatePlace(const llvm::Value *ptr, const llvm::DataLayout &dl);

/// Whether `obj` (an underlying object) is no memory at all: null,
/// undefined, or an integer constant made a pointer (Rust's dangling
/// `NonNull` of an empty Vec is the address 8, C++'s empty ranges null).
/// It is never read through; facts recorded on it would be shared by every
/// unrelated pointer that may hold it.
bool IsNoObject(const llvm::Value *obj);

/// The pointers whose addresses integer `v` may carry: through `ptrtoint`,
/// offsets added, subtracted or or-ed (which clear `exact`), phis and
/// selects, and the integers stored into a local it was loaded from
/// (Rust's `Result` of a Vec's growth keeps the new buffer's address in an
/// integer field of a stack slot that SROA could not split).
void AddressSources(const llvm::Value *v,
                    llvm::SmallVectorImpl<const llvm::Value *> &out,
                    bool &exact);

/// The facts of `mt` (an object's) relative to a pointer at `p` into it:
/// periodic facts laid out from the pointer on when the pointer's place in
/// an element is known (for one element, or repeated for every element in
/// `span` bytes), else as facts at every offset.
MemoryTypes Materialize(const MemoryTypes &mt, const Place &p,
                        uint64_t span = 0);

/// Whether `ptr` is null, or null or a constant address plus a constant
/// offset, within the first page, in the default address space: nothing is
/// mapped there, so an access through it faults (a path left by inlining
/// that the program never takes) and needs no derivative.
/// (Only constant offsets: `gep i8, null, %x` is an integer made a
/// pointer.)
bool NeverMapped(const llvm::Value *ptr, const llvm::DataLayout &dl);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_MEMORYPLACES_H
