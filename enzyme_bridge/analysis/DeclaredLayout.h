//===- enzyme_bridge/analysis/DeclaredLayout.h - Types a struct declares -*- C++ -*-===//
//
// What the IR's struct types say a pointer's bytes hold, where the pointer
// is computed on a struct type (`getelementptr %struct.Body, ptr %p, i64
// %i`, plus constant byte offsets) or points into a stack slot of one.
// clang at -O0 copies records with memcpy and reads only the fields a
// function uses; a field nobody reads here (an `int id` beside the
// doubles) is then unknown to the type analysis, though the record type
// declares it. These facts fill such gaps only: they never overrule what
// the accesses show. Unions (clang names them `union.*` and declares them
// by one member, `{ i64 }` for `union { long l; double d; }`) and byte
// arrays (rustc's layouts) declare nothing.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_ANALYSIS_DECLAREDLAYOUT_H
#define AUTODIFF_ENZYME_BRIDGE_ANALYSIS_DECLAREDLAYOUT_H

#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include <cstdint>

namespace llvm {
class DataLayout;
class Value;
} // namespace llvm

namespace autodiff {

/// The fields a struct type declares in the `bytes` bytes from `ptr` on,
/// at offsets relative to `ptr` (empty when `ptr` is not computed on a
/// struct type, or a union or an opaque part covers those bytes). Padding
/// has no entry.
MemoryTypes DeclaredTypes(const llvm::Value *ptr, uint64_t bytes,
                          const llvm::DataLayout &dl);

/// Whether the `bytes` bytes from `ptr` on are declared integer fields and
/// padding only (or padding alone).
bool DeclaredIntegerBytes(const llvm::Value *ptr, uint64_t bytes,
                          const llvm::DataLayout &dl);

/// `mt` with the declared facts of the `bytes` bytes from `ptr` on added
/// at offsets `mt` has no entry for (where `mt` has an entry for every
/// offset, -1, only declared fields of that type).
MemoryTypes FillDeclaredGaps(const MemoryTypes &mt, const llvm::Value *ptr,
                             uint64_t bytes, const llvm::DataLayout &dl);

/// The size of the records `ptr` points at the start of, where it is
/// computed on a struct type walked at run time or points at the start of
/// a stack slot or global holding an array of records; 0 otherwise.
uint64_t DeclaredRecordSize(const llvm::Value *ptr, const llvm::DataLayout &dl);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_ANALYSIS_DECLAREDLAYOUT_H
