//===- enzyme_bridge/analysis/FloatBytes.h - Where an integer's bytes come from -*- C++ -*-===//
//
// Optimized code and hand-written bit tricks move floats through integers,
// and the derivative moves the tangent's bytes the same way. That is right
// while each float's bytes stay together: a double copied as an i64, two
// floats packed into one word and unpacked again, a word split in halves
// and joined back. It is silently wrong when an integer read as a float
// holds only part of a float's bytes (the low half of one double beside
// the high half of another, a byte-swapped double, a mantissa with a new
// exponent byte), or a float's bytes at an offset that is no float's.
//
// The origin of each byte of an integer, through loads (memory at a known
// place is named by its object and byte offset), bitcasts of floats, byte
// moves (truncation, zero extension, shifts by whole bytes, byte masks,
// `or` of disjoint parts, funnel shifts by whole bytes, byte swaps) and
// sign-bit operations; and, for an integer about to be read as a float,
// whether every float some of its bytes come from is there whole, in order.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_ANALYSIS_FLOATBYTES_H
#define AUTODIFF_ENZYME_BRIDGE_ANALYSIS_FLOATBYTES_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace llvm {
class DataLayout;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace autodiff {

class TypeInfo;

/// Empty when each float (as the type analysis `types` and the bitcasts
/// know them) some byte of integer `bits` comes from is in `bits` whole,
/// its bytes in order (low bytes may be cleared), and, when `becomes`
/// (`bits` is reinterpreted as `as`), exactly at one of its elements;
/// otherwise what is not ("holds byte 4 of the double at byte 8 of `%x`
/// without the rest of it"). A word read whole from memory nothing is
/// known of is taken for a float when it is the size of `as`'s elements
/// (without `becomes`: `bits` is stored where an `as` may be read). A
/// float load as `bits` asks the same of the bytes it reads (a local -O0
/// code assembled with copies).

std::string SplicedFloatBytes(const llvm::Value *bits, llvm::Type *as,
                              bool becomes, const TypeInfo &types,
                              const llvm::DataLayout &dl);

/// Empty unless `access` (a load, store or memory copy) reads or writes
/// bytes at a place that is not a multiple of its size (at most 8) from
/// the start of its object and cuts through a float the type analysis
/// knows there, which starts inside it and runs past its end or starts
/// before it and ends inside (eight bytes read from byte 4 of a double
/// array); then what it cuts through. The moved tangent bytes would be
/// parts of two tangents.
/// (`types` is asked for only when the place is not such a multiple.)
std::string MisplacedFloatAccess(const llvm::Instruction &access,
                                 llvm::function_ref<const TypeInfo &()> types,
                                 const llvm::DataLayout &dl);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_ANALYSIS_FLOATBYTES_H
