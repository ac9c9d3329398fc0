//===- enzyme_bridge/analysis/ReturnedBits.h - Float bits in results -*- C++ -*-===//
//
// The C ABI returns small structs in integer registers: `struct {float;
// int}` as one i64, `struct {float; int; float}` as {i64, float}. Forward
// mode asks a callee for the tangent of such integers only when they may
// hold a float's bits, and tells which bytes do.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_RETURNEDBITS_H
#define AUTODIFF_ENZYME_BRIDGE_RETURNEDBITS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace llvm {
class DataLayout;
class Function;
class Type;
} // namespace llvm

namespace autodiff {

/// Whether bytes [lo, hi) of what `f` returns may hold a float's bits:
/// they come, through integer steps, from a float reinterpreted, from a
/// call, from an integer parameter (a caller's bits) or from memory not
/// known to hold integers there (a local whose declared type has an
/// integer field there and into which no float is copied does). A count,
/// or a distance of two addresses (`ptrtoint` steps, constants), does not.
bool MayReturnFloatBits(const llvm::Function &f, int64_t lo, int64_t hi);

/// The bytes [offset, offset + size) of the field `indices` selects in an
/// aggregate of type `t` (as extractvalue and insertvalue index it);
/// nullopt for an index out of range.
std::optional<std::pair<int64_t, int64_t>>
FieldBytes(llvm::Type *t, llvm::ArrayRef<unsigned> indices,
           const llvm::DataLayout &dl);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_RETURNEDBITS_H
