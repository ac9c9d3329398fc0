//===- enzyme_bridge/analysis/TypeQueries.cpp - Asking the type analysis ===//
//
// TypeInfo's queries: what the facts the Builder gathered (TypeAnalysis.cpp)
// say of the memory a pointer points into, with the fallbacks for
// pointers whose own object says nothing (a pointer made of an integer, a
// pointer loaded from a field, a phi or select of pointers), and the
// memory-transfer check.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/TypeAnalysis.h"
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/ValueHandle.h"
#include <map>
#include <optional>
#include <tuple>

using namespace llvm;

namespace autodiff {

MemoryTypes TypeInfo::TypesAt(const Value *ptr) const {
  return TypesAt(ptr, 0);
}

MemoryTypes TypeInfo::TypesOver(const Value *ptr, uint64_t bytes) const {
  Place p = LocatePlace(ptr, f_->getDataLayout());
  auto it = objects_.find(p.obj);
  if (it == objects_.end() || it->second.Empty())
    return TypesAt(ptr);
  return Materialize(it->second, p, bytes);
}

int64_t TypeInfo::RecordPeriodAt(const Value *ptr) const {
  Place p = LocatePlace(ptr, f_->getDataLayout());
  auto it = objects_.find(p.obj);
  if (it == objects_.end() || it->second.period <= 0)
    return 0;
  int64_t period = it->second.period;
  bool at_start = p.off >= 0 ? p.off % period == 0
                             : p.period == period && p.phase == 0;
  return at_start ? period : 0;
}

/// Pointer loads and stored pointers by the field of memory they go
/// through: (object, offset) for a field at a known offset, (object,
/// period, phase) for a field of records indexed at run time.
struct TypeInfo::FieldIndex {
  using Key = std::tuple<const Value *, int64_t, int64_t, int64_t>;
  /// Weak handles: the index outlives instructions that reverse mode
  /// erases while it still asks the analysis.
  std::map<Key, SmallVector<WeakVH, 4>> pointers;

  /// The key of field `p`, or nullopt where it is not one field.
  static std::optional<Key> KeyOf(Place p, const DataLayout &dl) {
    p = Unwalked(p, dl);
    if (p.off >= 0)
      return Key{p.obj, p.off, 0, 0};
    if (p.period > 0)
      return Key{p.obj, -1, p.period, p.phase};
    return std::nullopt;
  }

  /// A place relative to a pointer that walks an array with a constant
  /// step (`p = phi [base, pre], [p + step, loop]`: a loop over the
  /// elements of a std::vector of vectors) is a place in each element of
  /// the array at `base`; other places are themselves.
  static Place Unwalked(const Place &p, const DataLayout &dl) {
    const auto *phi = dyn_cast<PHINode>(p.obj);
    if (!phi || p.off < 0)
      return p;
    const Value *base = nullptr;
    int64_t start = 0, step = 0;
    for (const Value *in : phi->incoming_values()) {
      Place from = LocatePlace(in, dl);
      if (from.obj == phi) {
        if (from.off <= 0 || (step && from.off != step))
          return p;
        step = from.off;
      } else {
        if (from.off < 0 || (base && (from.obj != base || from.off != start)))
          return p;
        base = from.obj;
        start = from.off;
      }
    }
    // (A walk from null or a constant address is no object's.)
    if (!base || step <= 1 || isa<Constant>(base))
      return p;
    return Place{base, -1, step, (start + p.off) % step};
  }

  explicit FieldIndex(const Function &f) {
    const DataLayout &dl = f.getDataLayout();
    for (const Instruction &i : instructions(f)) {
      const Value *addr = nullptr, *pointer = nullptr;
      if (const auto *l = dyn_cast<LoadInst>(&i)) {
        addr = l->getPointerOperand();
        pointer = l;
      } else if (const auto *st = dyn_cast<StoreInst>(&i)) {
        addr = st->getPointerOperand();
        pointer = st->getValueOperand();
      }
      if (!pointer || !pointer->getType()->isPointerTy())
        continue;
      if (std::optional<Key> k = KeyOf(LocatePlace(addr, dl), dl))
        pointers[*k].push_back(WeakVH(const_cast<Value *>(pointer)));
    }
  }
};

MemoryTypes TypeInfo::SameFieldTypes(const LoadInst &load, int64_t off,
                                     unsigned depth) const {
  MemoryTypes out;
  const DataLayout &dl = f_->getDataLayout();
  std::optional<FieldIndex::Key> key =
      FieldIndex::KeyOf(LocatePlace(load.getPointerOperand(), dl), dl);
  if (!key)
    return out;
  if (!fields_)
    fields_ = std::make_shared<FieldIndex>(*f_);
  auto it = fields_->pointers.find(*key);
  if (it == fields_->pointers.end())
    return out;
  SmallVector<const Value *, 8> others;
  for (const WeakVH &handle : it->second) {
    const Value *other = handle;
    if (other && other != &load &&
        !isa<Constant>(LocatePlace(other, dl).obj))
      others.push_back(other);
  }
  return JoinedTypes(others, off, depth);
}

MemoryTypes TypeInfo::JoinedTypes(ArrayRef<const Value *> pointers,
                                  int64_t off, unsigned depth) const {
  MemoryTypes out;
  for (const Value *p : pointers)
    for (const auto &[o, b] : TypesAt(p, depth + 1).at)
      out.Add(o < 0 || off < 0 ? -1 : o - off, b);
  // Pointers that disagree tell nothing reliable.
  if (any_of(out.at, [](auto &e) { return e.second.kind == BaseType::Anything; }))
    return MemoryTypes();
  return out;
}

MemoryTypes TypeInfo::TypesAt(const Value *ptr, unsigned depth) const {
  Place p = LocatePlace(ptr, f_->getDataLayout());
  const Value *obj = p.obj;
  int64_t off = p.off;
  auto it = objects_.find(obj);
  MemoryTypes out;
  if (it != objects_.end() && !it->second.Empty())
    return Materialize(it->second, p);
  // A pointer made of an integer (a Vec's buffer whose address went
  // through an integer slot): what is known of the pointers whose
  // addresses it may carry, joined; at unknown offsets when offsets were
  // added on the way.
  if (const auto *op = dyn_cast<Operator>(obj);
      depth < 4 && op && op->getOpcode() == Instruction::IntToPtr) {
    SmallVector<const Value *, 4> sources;
    bool exact = true;
    AddressSources(op->getOperand(0), sources, exact);
    for (const Value *in : sources) {
      if (isa<Constant>(LocatePlace(in, f_->getDataLayout()).obj))
        continue; // A dangling address (Rust's empty Vec) holds nothing.
      for (const auto &[o, b] : TypesAt(in, depth + 1).at)
        out.Add(o < 0 || off < 0 || !exact ? -1 : o - off, b);
    }
    if (any_of(out.at,
               [](auto &e) { return e.second.kind == BaseType::Anything; }))
      return MemoryTypes();
    return out;
  }
  // A pointer loaded from memory, of which nothing is known (a
  // std::vector's buffer read from a vector that itself lives in memory,
  // to be moved by its growth): what is known of the pointers loaded from
  // or stored into the same field (the loop that reads the elements).
  if (const auto *load = dyn_cast<LoadInst>(obj); depth == 0 && load)
    return SameFieldTypes(*load, off, depth);
  // Nothing is known of a pointer phi or select itself (an lcssa phi of a
  // pointer that walked an array, read through only inside the loop):
  // what is known of the pointers it chooses from, joined.
  const auto *choice = dyn_cast<Instruction>(obj);
  if (depth >= 4 || !choice ||
      !(isa<PHINode>(choice) || isa<SelectInst>(choice)))
    return out;
  SmallVector<const Value *, 4> choices;
  for (unsigned k = isa<SelectInst>(choice) ? 1 : 0;
       k < choice->getNumOperands(); ++k) {
    const Value *in = choice->getOperand(k);
    const Value *from = LocatePlace(in, f_->getDataLayout()).obj;
    // Null and undefined pointers (an empty vector's) hold nothing.
    if (from != obj && !isa<Constant>(from))
      choices.push_back(in);
  }
  return JoinedTypes(choices, off, depth);
}

absl::Status TypeInfo::CheckTransfer(const Instruction &transfer) const {
  const auto *mt = dyn_cast<MemTransferInst>(&transfer);
  if (!mt)
    return absl::OkStatus();
  if (!TypesAt(mt->getRawDest()).Empty() ||
      !TypesAt(mt->getRawSource()).Empty())
    return absl::OkStatus();
  return ErrorAt(absl::StatusCode::kInvalidArgument, transfer,
                 "cannot deduce the type of the memory this copies (no load, "
                 "store, TBAA tag or enzyme_type attribute describes either "
                 "side); its derivative would be a guess");
}

} // namespace autodiff
