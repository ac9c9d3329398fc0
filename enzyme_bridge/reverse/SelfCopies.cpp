//===- enzyme_bridge/reverse/SelfCopies.cpp - Stores of what was there ----===//
#include "enzyme_bridge/reverse/SelfCopies.h"

#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Where an access is: its base and constant byte offset.
struct Place {
  const Value *base;
  int64_t offset;
};

Place PlaceOf(const Value *ptr, const DataLayout &dl) {
  APInt off(dl.getIndexTypeSizeInBits(ptr->getType()), 0);
  const Value *base =
      ptr->stripAndAccumulateConstantOffsets(dl, off, /*AllowNonInbounds=*/true);
  return {base, off.getSExtValue()};
}

/// Whether `i`, between the load and the store, may write the `bytes`
/// bytes at `at`.
bool MayWrite(const Instruction &i, Place at, int64_t bytes,
              const DataLayout &dl) {
  if (!i.mayWriteToMemory())
    return false;
  if (auto *s = dyn_cast<StoreInst>(&i)) {
    Place p = PlaceOf(s->getPointerOperand(), dl);
    int64_t size = dl.getTypeStoreSize(s->getValueOperand()->getType());
    return s->isVolatile() || p.base != at.base ||
           (p.offset < at.offset + bytes && at.offset < p.offset + size);
  }
  if (auto *call = dyn_cast<CallBase>(&i))
    return isa<IntrinsicInst>(call) || !FindRule(*call);
  return true;
}

/// The load whose bits `s` puts back where they came from, or null.
LoadInst *PutBack(StoreInst &s, const DataLayout &dl) {
  auto *l = dyn_cast<LoadInst>(s.getValueOperand());
  if (!s.isSimple() || !l || !l->isSimple() || l->getParent() != s.getParent())
    return nullptr;
  Place at = PlaceOf(s.getPointerOperand(), dl);
  Place from = PlaceOf(l->getPointerOperand(), dl);
  if (at.base != from.base || at.offset != from.offset)
    return nullptr;
  int64_t bytes = dl.getTypeStoreSize(l->getType());
  for (Instruction *i = l->getNextNode(); i && i != &s; i = i->getNextNode())
    if (MayWrite(*i, at, bytes, dl))
      return nullptr;
  // The load comes first (a value is defined before its use in one block).
  return l;
}

} // namespace

unsigned RemoveSelfCopies(Function &f) {
  const DataLayout &dl = f.getDataLayout();
  SmallVector<StoreInst *, 8> stores;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (auto *s = dyn_cast<StoreInst>(&i))
        if (PutBack(*s, dl))
          stores.push_back(s);
  for (StoreInst *s : stores) {
    auto *l = cast<LoadInst>(s->getValueOperand());
    s->eraseFromParent();
    if (l->use_empty())
      l->eraseFromParent();
  }
  return stores.size();
}

} // namespace autodiff
