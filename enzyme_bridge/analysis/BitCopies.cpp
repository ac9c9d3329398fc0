//===- enzyme_bridge/analysis/BitCopies.cpp - Integer copies of raw bits --===//
#include "enzyme_bridge/analysis/BitCopies.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Webs larger than this are left alone (a guard, not a limit real copies
/// reach).
constexpr unsigned kMaxWebValues = 64;

bool IsBitsType(Type *t, bool floats) {
  if (floats)
    return t->isDoubleTy() || t->isFloatTy();
  Type *s = t->getScalarType();
  return s->isIntegerTy() && s->getIntegerBitWidth() >= 8 &&
         s->getIntegerBitWidth() % 8 == 0;
}

/// A value that may belong to a web of type `t` (of floats: loads, phis
/// and selects only).
bool IsWebValue(const Value *v, Type *t, bool floats) {
  if (v->getType() != t)
    return false;
  if (const auto *l = dyn_cast<LoadInst>(v))
    return !l->isAtomic();
  if (floats)
    return isa<PHINode>(v) || isa<SelectInst>(v);
  if (const auto *bc = dyn_cast<BitCastInst>(v))
    return bc->getSrcTy()->isFPOrFPVectorTy();
  return isa<PHINode>(v) || isa<SelectInst>(v) || isa<ShuffleVectorInst>(v);
}

class WebBuilder {
public:
  WebBuilder(SmallPtrSetImpl<const Value *> &claimed, bool floats)
      : claimed_(claimed), floats_(floats) {}

  /// Grows the web of `seed`; false when a value is used as a number or
  /// comes from something that is not a copy.
  bool Grow(Instruction *seed) {
    web_.type = seed->getType();
    Add(seed);
    while (!work_.empty()) {
      Instruction *v = work_.pop_back_val();
      if (!Operands(*v) || !Users(*v) || seen_.size() > kMaxWebValues)
        return false;
    }
    return !web_.loads.empty() || !web_.stores.empty();
  }

  BitCopyWeb Take() { return std::move(web_); }

private:
  void Add(Instruction *v) {
    if (!seen_.insert(v).second)
      return;
    claimed_.insert(v);
    work_.push_back(v);
    if (auto *l = dyn_cast<LoadInst>(v))
      web_.loads.push_back(l);
    else if (auto *bc = dyn_cast<BitCastInst>(v))
      web_.from_float.push_back(bc);
    else
      web_.moves.push_back(v);
  }

  bool Operands(Instruction &v) {
    if (isa<LoadInst>(v) || isa<BitCastInst>(v))
      return true;
    unsigned first = isa<SelectInst>(v) ? 1 : 0; // not the condition
    for (unsigned k = first; k < v.getNumOperands(); ++k) {
      Value *op = v.getOperand(k);
      if (isa<ShuffleVectorInst>(v) && op->getType() != web_.type)
        return false;
      if (isa<Constant>(op))
        continue;
      if (!IsWebValue(op, web_.type, floats_))
        return false;
      Add(cast<Instruction>(op));
    }
    return true;
  }

  bool Users(Instruction &v) {
    for (User *u : v.users()) {
      if (auto *s = dyn_cast<StoreInst>(u)) {
        if (s->getValueOperand() != &v || s->isAtomic())
          return false;
        if (stores_.insert(s).second)
          web_.stores.push_back(s);
        continue;
      }
      if (auto *bc = dyn_cast<BitCastInst>(u)) {
        if (floats_ || !bc->getType()->isFPOrFPVectorTy())
          return false;
        if (to_float_.insert(bc).second)
          web_.to_float.push_back(bc);
        continue;
      }
      if (auto *sel = dyn_cast<SelectInst>(u))
        if (sel->getCondition() == &v)
          return false;
      if (!IsWebValue(u, web_.type, floats_) || isa<LoadInst>(u) ||
          isa<BitCastInst>(u))
        return false;
      Add(cast<Instruction>(u));
    }
    return true;
  }

  SmallPtrSetImpl<const Value *> &claimed_;
  bool floats_;
  BitCopyWeb web_;
  SmallPtrSet<const Value *, 16> seen_;
  SmallPtrSet<const StoreInst *, 8> stores_;
  SmallPtrSet<const BitCastInst *, 4> to_float_;
  SmallVector<Instruction *, 16> work_;
};

} // namespace

std::vector<BitCopyWeb> FindBitCopyWebs(const Function &f, bool floats) {
  std::vector<BitCopyWeb> webs;
  SmallPtrSet<const Value *, 32> claimed;
  for (const Instruction &ci : instructions(f)) {
    auto &i = const_cast<Instruction &>(ci);
    if (!IsBitsType(i.getType(), floats) ||
        !IsWebValue(&i, i.getType(), floats) || claimed.count(&i))
      continue;
    WebBuilder b(claimed, floats);
    if (b.Grow(&i))
      webs.push_back(b.Take());
  }
  return webs;
}

} // namespace autodiff
