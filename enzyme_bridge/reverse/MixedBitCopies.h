//===- enzyme_bridge/reverse/MixedBitCopies.h - Field-wise record copies -*- C++ -*-===//
//
// Optimized code copies small records as integers: swapping two `{int k;
// float w;}` becomes `load i64` + `store i64`, two adjacent ones a
// `<2 x i64>` load, lane shuffle and store. FloatBitCopies.h retypes such a
// copy when every lane holds one floating-point type; here the records mix
// float fields with integer fields or padding, so each copied value is cut
// into its fields: a float load and store per float field (which carry
// adjoints), an integer one per run of other bytes (which carry none).
// Exact for the primal: every byte moves as before.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_MIXEDBITCOPIES_H
#define AUTODIFF_ENZYME_BRIDGE_MIXEDBITCOPIES_H

#include <cstdint>
#include <optional>
#include <vector>

namespace llvm {
class Instruction;
class Type;
} // namespace llvm

namespace autodiff {

struct BitCopyWeb;
class TypeInfo;

/// Metadata on the integer loads and stores a split leaves: they move the
/// bytes of a record that are not float fields (integer fields, padding),
/// as the type analysis and the record's declared layout found them.
inline constexpr const char *kRecordIntegerBytesMetadata =
    "autodiff.record_integer_bytes";

/// One field of a copied value: its byte offset in the whole value (vector
/// lanes laid end to end) and the type it moves as (a float type, or an
/// integer of the run's width).
struct MixedCopyField {
  uint64_t offset;
  llvm::Type *type;
};

/// How a web is cut.
struct MixedCopySplit {
  const BitCopyWeb *web;
  std::vector<MixedCopyField> fields;
};

/// How to cut `web` field by field when the memory on every side of it that
/// the analysis knows holds records with float fields (double or float),
/// by `types` and the struct types the addresses are computed on; `types`
/// must not count integer copies as evidence of integers
/// (`TypeInfo::Compute(f, /*guess_copies=*/false)`): every byte cut as an
/// integer is one the code uses as an integer, or one the record's type or
/// alignment leaves as padding. nullopt
/// when its memory holds pointers, unknown or conflicting types or no
/// float, a field would straddle two lanes, or shuffled lanes are cut
/// differently. Changes nothing.
std::optional<MixedCopySplit> PlanMixedCopySplit(const BitCopyWeb &web,
                                                 const TypeInfo &types);

/// Cuts the web: every load, phi, select, shuffle and store of it becomes
/// one per field.
void SplitMixedCopy(const MixedCopySplit &split);

/// Whether `i` is an integer access a split left (it moves no float bits).
bool IsRecordIntegerBytes(const llvm::Instruction &i);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_MIXEDBITCOPIES_H
