//===- enzyme_bridge/analysis/TypeAnalysis.h - What memory holds --------*- C++ -*-===//
//
// Deduces what the memory behind each pointer holds (floats, integers,
// pointers) at each byte offset, from LLVM types of loads and stores, GEP
// offsets, TBAA access tags, memory transfers, and rustc's "enzyme_type"
// attribute strings such as `{[-1]:Pointer, [-1,-1]:Float@double}`.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_TYPEANALYSIS_H
#define AUTODIFF_ENZYME_BRIDGE_TYPEANALYSIS_H

#include "absl/status/status.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class DataLayout;
class Function;
class Instruction;
class LLVMContext;
class LoadInst;
class Type;
class Value;
class raw_ostream;
} // namespace llvm

namespace autodiff {

/// The kind of data at one place in memory.
struct BaseType {
  enum Kind { Unknown, Integer, Pointer, Float, Anything } kind = Unknown;
  /// For Float: the LLVM type (double, float, half, ...).
  llvm::Type *fp = nullptr;

  bool operator==(const BaseType &o) const {
    return kind == o.kind && fp == o.fp;
  }
  bool operator!=(const BaseType &o) const { return !(*this == o); }
  /// "Float@double", "Integer", "Pointer", "Anything" (conflicting facts).
  std::string ToString() const;
  /// Combines two facts about the same bytes.
  BaseType Join(const BaseType &o) const;
};

/// What a pointer's memory holds: byte offset -> type; offset -1 stands for
/// every offset (an array of unknown length).
struct MemoryTypes {
  std::map<int64_t, BaseType> at;
  /// Facts of an array of aggregates indexed at run time (`p[i].field`):
  /// the type at every offset `phase + k * period`. Only the analysis
  /// keeps these; what TypesAt returns has them laid out at offsets
  /// relative to the pointer asked about (one element's worth).
  int64_t period = 0;
  std::map<int64_t, BaseType> periodic;
  bool Empty() const { return at.empty() && periodic.empty(); }
  /// The type at `offset` (falls back to the -1 entry).
  BaseType Lookup(int64_t offset) const;
  /// What byte `off` of an integer access at offset 0 holds: its own
  /// entry, else the entry "at every offset". An integer field where the
  /// access starts covers the bytes after it that no entry names; "a float
  /// somewhere" (-1, from stores at a variable index into an array beside
  /// it) does not overrule it within an integer's 8 bytes, and does beyond.
  BaseType::Kind KindOfAccessedByte(int64_t off) const;
  /// Whether an integer access of `size` bytes at offset 0 may touch a
  /// float (a Float or Anything byte, by KindOfAccessedByte).
  bool AccessMayHoldFloat(int64_t size) const;
  /// Adds a fact; returns whether anything changed.
  bool Add(int64_t offset, BaseType t);
  /// `{[-1]:Float@double}`, `{[0]:Integer, [8]:Pointer}`.
  std::string ToString() const;
};

/// One field of a fixed-size copy whose bytes are not all one type.
struct CopiedField {
  int64_t offset;
  BaseType type; ///< Float (with its LLVM type) or Pointer.
};

/// The float and pointer fields of `bytes` copied bytes described by `mt`
/// (a struct copy: a pointer, an integer and two doubles, say); nullopt when
/// the description has an array entry (offset -1), conflicting or unknown
/// facts, a float other than double/float, fields that overlap or run past
/// the end, or bytes it does not account for beyond alignment padding (an
/// integer entry accounts for the bytes up to the next entry). Integer
/// bytes need nothing and are left out; entries past the end are ignored.
std::optional<std::vector<CopiedField>>
FieldsOfFixedCopy(const MemoryTypes &mt, uint64_t bytes,
                  const llvm::DataLayout &dl);

/// Parses an "enzyme_type" string for a pointer: `{[-1]:Pointer,
/// [-1,-1]:Float@double}` gives the pointee `{[-1]:Float@double}`; for a
/// scalar string (`{[-1]:Float@double}`) the result describes the value.
MemoryTypes ParseEnzymeTypeString(llvm::StringRef s, llvm::LLVMContext &ctx,
                                  bool pointee);

/// Whether integer load or store `i` is to a field a struct declares
/// integer (struct-path TBAA with an aggregate base, or a field address
/// computed on the struct type).
bool DeclaresInteger(const llvm::Instruction &i);

class TypeInfo {
public:
  /// With `guess_copies` false, integer copies (BitCopies.h) that nothing
  /// else describes, not even a struct declaring the field integer, leave
  /// their memory unknown instead of typing it as their integer type.
  static TypeInfo Compute(const llvm::Function &f, bool guess_copies = true);
  /// Compute, with moves of doubles and floats that nothing computes with
  /// (BitCopies.h) taken for copies: what the rest of the code says of the
  /// memory such a move goes through.
  static TypeInfo ComputeBesideFloatMoves(const llvm::Function &f);

  /// The memory types of the object `ptr` points into, with offsets
  /// relative to `ptr` itself.
  /// Where nothing is known of the object itself and it is a pointer phi
  /// or select, what is known of the pointers it chooses from.
  MemoryTypes TypesAt(const llvm::Value *ptr) const;

  /// TypesAt, with the facts of an array of records repeated for every
  /// record in the `bytes` from `ptr` on (a copy of several records).
  MemoryTypes TypesOver(const llvm::Value *ptr, uint64_t bytes) const;

  /// The size of the records of an array of records indexed at run time
  /// that `ptr` points at the start of one of (the step of `p[i].field`
  /// accesses); 0 when unknown.
  int64_t RecordPeriodAt(const llvm::Value *ptr) const;

  /// For a memcpy/memmove: InvalidArgument naming the instruction when the
  /// type of the copied memory cannot be deduced from either side.
  absl::Status CheckTransfer(const llvm::Instruction &transfer) const;

  void Print(llvm::raw_ostream &os) const;

private:
  MemoryTypes TypesAt(const llvm::Value *ptr, unsigned depth) const;
  /// What is known of the pointers loaded from, or stored into, the field
  /// `load` reads its pointer from (FieldPointers).
  MemoryTypes SameFieldTypes(const llvm::LoadInst &load, int64_t off,
                             unsigned depth) const;
  /// What is known of `pointers`, joined, at offsets relative to a place
  /// `off` bytes into what they point at (-1: somewhere); nothing where
  /// they disagree.
  MemoryTypes JoinedTypes(llvm::ArrayRef<const llvm::Value *> pointers,
                          int64_t off, unsigned depth) const;
  struct FieldIndex;
  const llvm::Function *f_ = nullptr;
  /// Facts per underlying object, offsets relative to the object.
  llvm::MapVector<const llvm::Value *, MemoryTypes> objects_;
  /// Pointer loads and stored pointers by the field they go through, made
  /// on first need.
  mutable std::shared_ptr<FieldIndex> fields_;
};

/// The type analyses of several functions, each computed on first need.
class TypeInfoCache {
public:
  const TypeInfo &Of(const llvm::Function &f);

private:
  llvm::DenseMap<const llvm::Function *, std::unique_ptr<TypeInfo>> infos_;
};

/// `opt -passes=print<autodiff-types>`.
class TypePrinterPass : public llvm::PassInfoMixin<TypePrinterPass> {
public:
  explicit TypePrinterPass(llvm::raw_ostream &os) : os_(os) {}
  llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &os_;
};

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_TYPEANALYSIS_H
