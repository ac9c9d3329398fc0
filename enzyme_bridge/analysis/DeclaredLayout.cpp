//===- enzyme_bridge/analysis/DeclaredLayout.cpp - Types a struct declares ===//
//
// See DeclaredLayout.h.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/DeclaredLayout.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <optional>
#include <vector>

using namespace llvm;

namespace autodiff {
namespace {

/// A record type a pointer is computed on, and where in it the pointer
/// is; `repeats` when the record is an element of an array walked at run
/// time (the pointer's offset is then taken within one element).
struct Declaration {
  Type *record = nullptr;
  int64_t offset = 0;
  bool repeats = false;
};

/// One scalar field of a record: its offset and type.
struct Leaf {
  int64_t offset;
  Type *type;
};

/// More leaves than this (a large array inside a record) declare nothing.
constexpr size_t kMaxLeaves = 4096;

/// Whether `t` is a record or an array of records. A scalar type a GEP
/// steps over or a slot holds is only how the code accesses memory
/// (`(uint64_t *)x` over doubles), not a declaration of what it holds.
bool IsRecordType(Type *t) {
  while (auto *at = dyn_cast<ArrayType>(t))
    t = at->getElementType();
  return t->isStructTy();
}

std::optional<Declaration> FindDeclaration(const Value *ptr,
                                           const DataLayout &dl) {
  APInt off(dl.getIndexTypeSizeInBits(ptr->getType()), 0);
  const Value *base =
      ptr->stripAndAccumulateConstantOffsets(dl, off, /*AllowNonInbounds=*/true);
  if (off.getSignificantBits() > 48)
    return std::nullopt;
  int64_t extra = off.getSExtValue();
  if (const auto *phi = dyn_cast<PHINode>(base)) {
    // A pointer that walks records, stepping by `gep %S, ptr %phi, c`
    // (a C++ iterator's increment): it points at a record's start.
    Type *record = nullptr;
    for (const Value *in : phi->incoming_values()) {
      const auto *step = dyn_cast<GEPOperator>(in);
      if (!step || step->getPointerOperand() != phi)
        continue;
      if (step->getNumIndices() != 1 ||
          (record && record != step->getSourceElementType()))
        return std::nullopt;
      record = step->getSourceElementType();
    }
    if (!record || !record->isStructTy())
      return std::nullopt;
    int64_t size = dl.getTypeAllocSize(record);
    if (size <= 0)
      return std::nullopt;
    return Declaration{record, (extra % size + size) % size, true};
  }
  if (const auto *gep = dyn_cast<GEPOperator>(base)) {
    // `gep %S, ptr %p, i64 %i [, constant field indices]`: the variable
    // first index walks whole records.
    Type *record = gep->getSourceElementType();
    if (!IsRecordType(record))
      return std::nullopt;
    int64_t inside = 0;
    Type *t = record;
    for (unsigned k = 1; k < gep->getNumIndices(); ++k) {
      const auto *c = dyn_cast<ConstantInt>(gep->getOperand(k + 1));
      if (!c)
        return std::nullopt;
      if (auto *st = dyn_cast<StructType>(t)) {
        inside += dl.getStructLayout(st)->getElementOffset(c->getZExtValue());
        t = st->getElementType(c->getZExtValue());
      } else if (auto *at = dyn_cast<ArrayType>(t)) {
        inside += c->getSExtValue() *
                  int64_t(dl.getTypeAllocSize(at->getElementType()));
        t = at->getElementType();
      } else {
        return std::nullopt;
      }
    }
    int64_t size = dl.getTypeAllocSize(record);
    if (size <= 0)
      return std::nullopt;
    int64_t at = ((inside + extra) % size + size) % size;
    return Declaration{record, at, true};
  }
  Type *allocated = nullptr;
  if (const auto *ai = dyn_cast<AllocaInst>(base))
    allocated = ai->isArrayAllocation() ? nullptr : ai->getAllocatedType();
  else if (const auto *gv = dyn_cast<GlobalVariable>(base))
    allocated = gv->getValueType();
  if (!allocated || extra < 0 || !IsRecordType(allocated))
    return std::nullopt;
  return Declaration{allocated, extra, false};
}

/// The leaves of `t` at `base` on; false when a part declares nothing (a
/// union, a byte array, an opaque or scalable type) or there are too many.
bool Flatten(Type *t, int64_t base, const DataLayout &dl,
             std::vector<Leaf> &out) {
  if (out.size() > kMaxLeaves)
    return false;
  if (auto *st = dyn_cast<StructType>(t)) {
    if (st->isOpaque() ||
        (st->hasName() && st->getName().starts_with("union.")))
      return false;
    const StructLayout *sl = dl.getStructLayout(st);
    for (unsigned k = 0; k < st->getNumElements(); ++k)
      if (!Flatten(st->getElementType(k), base + sl->getElementOffset(k), dl,
                   out))
        return false;
    return true;
  }
  if (auto *at = dyn_cast<ArrayType>(t)) {
    Type *elem = at->getElementType();
    if (elem->isIntegerTy(8))
      return false; // Bytes: anything may live there (rustc's layouts).
    int64_t step = dl.getTypeAllocSize(elem);
    for (uint64_t k = 0; k < at->getNumElements(); ++k)
      if (!Flatten(elem, base + int64_t(k) * step, dl, out))
        return false;
    return true;
  }
  if (auto *vt = dyn_cast<FixedVectorType>(t)) {
    Type *elem = vt->getElementType();
    int64_t step = dl.getTypeAllocSize(elem);
    for (unsigned k = 0; k < vt->getNumElements(); ++k)
      out.push_back({base + k * step, elem});
    return true;
  }
  if (t->isIntegerTy() || t->isPointerTy() || t->isFloatingPointTy()) {
    out.push_back({base, t});
    return true;
  }
  return false;
}

/// The declared leaves overlapping the `bytes` bytes from `ptr` on, at
/// offsets relative to `ptr` (one that starts before it has a negative
/// offset); false when something in that range declares nothing.
bool DeclaredLeaves(const Value *ptr, uint64_t bytes, const DataLayout &dl,
                    std::vector<Leaf> &out) {
  if (bytes == 0 || bytes > (uint64_t(1) << 20))
    return false;
  std::optional<Declaration> d = FindDeclaration(ptr, dl);
  if (!d)
    return false;
  int64_t size = dl.getTypeAllocSize(d->record);
  int64_t from = d->offset, to = d->offset + int64_t(bytes);
  if (!d->repeats && to > size)
    return false;
  std::vector<Leaf> one;
  if (!Flatten(d->record, 0, dl, one))
    return false;
  for (int64_t elem = 0; elem * size < to; ++elem)
    for (const Leaf &l : one) {
      int64_t lo = elem * size + l.offset;
      int64_t hi = lo + int64_t(dl.getTypeStoreSize(l.type));
      if (hi > from && lo < to)
        out.push_back({lo - from, l.type});
    }
  return true;
}

BaseType KindOf(Type *t) {
  if (t->isFloatingPointTy())
    return BaseType{BaseType::Float, t};
  if (t->isPointerTy())
    return BaseType{BaseType::Pointer, nullptr};
  return BaseType{BaseType::Integer, nullptr};
}

} // namespace

MemoryTypes DeclaredTypes(const Value *ptr, uint64_t bytes,
                          const DataLayout &dl) {
  MemoryTypes mt;
  std::vector<Leaf> leaves;
  if (!DeclaredLeaves(ptr, bytes, dl, leaves))
    return mt;
  for (const Leaf &l : leaves)
    if (l.offset >= 0)
      mt.Add(l.offset, KindOf(l.type));
  return mt;
}

bool DeclaredIntegerBytes(const Value *ptr, uint64_t bytes,
                          const DataLayout &dl) {
  // (No leaf at all: the record's padding, which a copy of the record
  // moves too, `{double x, y; int cell}`'s last four bytes.)
  std::vector<Leaf> leaves;
  if (!DeclaredLeaves(ptr, bytes, dl, leaves))
    return false;
  for (const Leaf &l : leaves)
    if (!l.type->isIntegerTy())
      return false;
  return true;
}

MemoryTypes FillDeclaredGaps(const MemoryTypes &mt, const Value *ptr,
                             uint64_t bytes, const DataLayout &dl) {
  if (!mt.periodic.empty())
    return mt;
  // With an entry for every offset (a field array indexed at run time:
  // `h[k]` of `{double t; int n; double h[4]}`), only declared fields of
  // that very type are added: they agree with it.
  auto every = mt.at.find(-1);
  std::vector<Leaf> leaves;
  if (!DeclaredLeaves(ptr, bytes, dl, leaves))
    return mt;
  MemoryTypes out = mt;
  for (const Leaf &l : leaves) {
    if (l.offset < 0)
      continue;
    int64_t end = l.offset + int64_t(dl.getTypeStoreSize(l.type));
    // Only where nothing is known of any of the field's bytes.
    auto it = mt.at.lower_bound(l.offset);
    bool covered = it != mt.at.end() && it->first < end;
    if (it != mt.at.begin()) {
      // A known field before it that reaches into it.
      auto prev = std::prev(it);
      int64_t len = 1;
      if (prev->second.kind == BaseType::Float && prev->second.fp)
        len = dl.getTypeStoreSize(prev->second.fp);
      else if (prev->second.kind == BaseType::Pointer)
        len = dl.getPointerSize();
      covered |= prev->first + len > l.offset;
    }
    BaseType declared = KindOf(l.type);
    if (!covered && (every == mt.at.end() || every->second == declared))
      out.Add(l.offset, declared);
  }
  return out;
}

uint64_t DeclaredRecordSize(const Value *ptr, const DataLayout &dl) {
  std::optional<Declaration> d = FindDeclaration(ptr, dl);
  if (!d)
    return 0;
  Type *record = d->record;
  while (auto *at = dyn_cast<ArrayType>(record))
    record = at->getElementType();
  if (!record->isStructTy())
    return 0;
  uint64_t size = dl.getTypeAllocSize(record);
  return size > 0 && d->offset % int64_t(size) == 0 ? size : 0;
}

} // namespace autodiff
