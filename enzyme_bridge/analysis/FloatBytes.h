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

#include <optional>
#include <string>

namespace llvm {
class CallBase;
class DataLayout;
class Function;
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

/// `called` gives, for a value a derivative call stands in for (the
/// primal result of a call of the module, once the call is replaced), the
/// call it replaced. The bytes a function of the module returns are
/// followed into its body, its parameters standing for the call's
/// operands.
std::string SplicedFloatBytes(
    const llvm::Value *bits, llvm::Type *as, bool becomes,
    const TypeInfo &types, const llvm::DataLayout &dl,
    llvm::function_ref<const llvm::CallBase *(const llvm::Value *)> called,
    const llvm::CallBase *site = nullptr);

/// When `f` turns its integer parameters into its floating-point result
/// and into nothing else (`join(hi, lo)` making a double of two words),
/// the integer it reinterprets as that result; null otherwise. Its bytes,
/// followed with a call's operands for the parameters (`site` of
/// SplicedFloatBytes), say whether the call makes whole floats.
const llvm::Value *BitsTurnedIntoResult(const llvm::Function &f);

/// Empty unless `access` cuts through a float the type analysis knows in
/// its object, starting or ending inside it at an offset that is no
/// multiple of its size: a float load or store (eight bytes read as a
/// double from byte 4 of a double array, a float from the upper half of a
/// double), or a copy of at least that float's bytes that does so on
/// either side; then what it cuts through. The moved tangent bytes would be
/// parts of tangents.
/// (`types` is asked for only when an end is not at a multiple of 8 bytes,
/// or the memory is a parameter a caller described.)
std::string MisplacedFloatAccess(const llvm::Instruction &access,
                                 llvm::function_ref<const TypeInfo &()> types,
                                 const llvm::DataLayout &dl);

/// Empty unless `ptr` points strictly inside a float the type analysis
/// knows in its object (byte 4 of a double, the `uint32_t *` to its high
/// word); then that float ("double at byte 0 of `%y`, at its byte 4").
std::string PointerIntoFloat(const llvm::Value *ptr,
                             llvm::function_ref<const TypeInfo &()> types,
                             const llvm::DataLayout &dl);

/// The diagnostic for `access` in `f` (both modes' emitters): empty when
/// MisplacedFloatAccess finds nothing; `types` is `f`'s analysis, computed
/// here when first needed.
std::string MisplacedFloatProblem(const llvm::Instruction &access,
                                  std::optional<TypeInfo> &types,
                                  const llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_ANALYSIS_FLOATBYTES_H
