//===- enzyme_bridge/analysis/ReturnedBits.cpp - Float bits in results -----===//
#include "enzyme_bridge/analysis/ReturnedBits.h"

#include "enzyme_bridge/analysis/LocalCopies.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>

using namespace llvm;

namespace autodiff {

std::optional<std::pair<int64_t, int64_t>>
FieldBytes(Type *t, ArrayRef<unsigned> indices, const DataLayout &dl) {
  int64_t off = 0;
  for (unsigned idx : indices) {
    if (auto *st = dyn_cast<StructType>(t)) {
      if (idx >= st->getNumElements())
        return std::nullopt;
      off += int64_t(dl.getStructLayout(st)->getElementOffset(idx));
      t = st->getElementType(idx);
    } else if (auto *at = dyn_cast<ArrayType>(t)) {
      if (idx >= at->getNumElements())
        return std::nullopt;
      off += int64_t(idx * dl.getTypeAllocSize(at->getElementType()));
      t = at->getElementType();
    } else {
      return std::nullopt;
    }
  }
  return std::make_pair(off, int64_t(dl.getTypeStoreSize(t).getKnownMinValue()));
}

namespace {

/// A value and the bytes of it in question.
struct Bytes {
  const Value *v;
  int64_t lo, hi;
};

} // namespace

bool MayReturnFloatBits(const Function &f, int64_t lo, int64_t hi) {
  const DataLayout &dl = f.getDataLayout();
  SmallVector<Bytes, 16> work;
  for (const BasicBlock &bb : f)
    if (const auto *ret = dyn_cast<ReturnInst>(bb.getTerminator()))
      if (const Value *v = ret->getReturnValue())
        work.push_back({v, lo, hi});
  SmallPtrSet<const Value *, 32> seen;
  auto whole = [&](const Value *v) {
    return Bytes{v, 0, int64_t(dl.getTypeStoreSize(v->getType()).getKnownMinValue())};
  };
  while (!work.empty()) {
    Bytes b = work.pop_back_val();
    const Value *v = b.v;
    if (b.lo >= b.hi || isa<Constant>(v) || isa<PtrToIntInst>(v) ||
        v->getType()->isFPOrFPVectorTy())
      continue;
    // An aggregate built field by field: the fields over the bytes.
    if (const auto *iv = dyn_cast<InsertValueInst>(v)) {
      auto field = FieldBytes(iv->getType(), iv->getIndices(), dl);
      if (!field)
        return true;
      int64_t a = std::max(b.lo, field->first);
      int64_t z = std::min(b.hi, field->first + field->second);
      if (a < z)
        work.push_back({iv->getInsertedValueOperand(), a - field->first,
                        z - field->first});
      work.push_back({iv->getAggregateOperand(), b.lo, b.hi});
      continue;
    }
    if (!seen.insert(v).second)
      continue;
    if (seen.size() > 256)
      return true;
    if (const auto *ld = dyn_cast<LoadInst>(v)) {
      // A local (-O0 code returns a struct by loading its slot): what was
      // stored into those bytes of it, when nothing else writes it. A
      // float stored there is returned even through a field declared
      // integer (the word of a union of a double and two words).
      bool complete = false;
      SmallVector<StoredBytes, 4> stored =
          StoredValuesReaching(*ld, dl, &complete, b.lo, b.hi);
      bool declared =
          ld->getType()->isIntOrIntVectorTy() && DeclaresInteger(*ld);
      if (!complete && !declared)
        return true;
      for (const StoredBytes &s : stored) {
        if (!s.value && declared)
          continue;
        if (!s.value)
          return true;
        if (FloatLeafIn(s.value->getType(), s.lo, s.hi, dl))
          return true;
        // (A field declared integer holds what was stored in its bytes:
        // a helper's `uint64_t` of a double's bits, not the `int` half
        // of a `{float; int}` word, which the bytes tell apart.)
        work.push_back({s.value, s.lo, s.hi});
      }
      continue;
    }
    if (isa<Argument>(v) || isa<CallBase>(v) || isa<BitCastInst>(v) ||
        isa<AtomicRMWInst>(v) || isa<AtomicCmpXchgInst>(v))
      return true;
    const auto *i = dyn_cast<Instruction>(v);
    if (!i)
      return true;
    // Comparisons and float-to-integer conversions make new numbers.
    if (isa<CmpInst>(i) || isa<FPToSIInst>(i) || isa<FPToUIInst>(i))
      continue;
    if (const auto *ev = dyn_cast<ExtractValueInst>(i)) {
      auto field = FieldBytes(ev->getAggregateOperand()->getType(),
                              ev->getIndices(), dl);
      if (!field)
        return true;
      work.push_back({ev->getAggregateOperand(), field->first,
                      field->first + field->second});
      continue;
    }
    // Phis and selects keep the bytes; other steps mix them.
    bool keeps = isa<PHINode>(i) || isa<SelectInst>(i) || isa<FreezeInst>(i);
    for (const Value *op : i->operands())
      if (!isa<BasicBlock>(op) && op->getType()->isSized())
        work.push_back(keeps && op->getType() == v->getType()
                           ? Bytes{op, b.lo, b.hi}
                           : whole(op));
  }
  return false;
}

} // namespace autodiff
