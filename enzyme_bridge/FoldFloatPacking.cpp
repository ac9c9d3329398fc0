//===- enzyme_bridge/FoldFloatPacking.cpp - Unpack floats packed in integers -===//
#include "enzyme_bridge/FoldFloatPacking.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Transforms/Utils/Local.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace autodiff {
namespace {

constexpr unsigned kMaxDepth = 16;

unsigned Width(const Value *v) { return v->getType()->getIntegerBitWidth(); }

/// A shift by a constant amount less than the width, or nothing.
std::optional<unsigned> ShiftAmount(const Value *amount, unsigned width) {
  const auto *c = dyn_cast<ConstantInt>(amount);
  if (!c || c->getValue().uge(width))
    return std::nullopt;
  return unsigned(c->getZExtValue());
}

/// Where the bits of integers come from: known zero, or exactly the bits
/// of one float value.
class BitSources {
public:
  explicit BitSources(const DataLayout &dl) : dl_(dl) {}

  /// Whether bits [lo, lo + n) of integer `v` are zero.
  bool Zero(Value *v, unsigned lo, unsigned n, unsigned depth = 0) {
    if (n == 0)
      return true;
    if (!v->getType()->isIntegerTy() || lo + n > Width(v) ||
        depth > kMaxDepth)
      return false;
    if (auto *c = dyn_cast<ConstantInt>(v))
      return c->getValue().extractBits(n, lo).isZero();
    if (isa<UndefValue>(v))
      return false;
    Value *x = nullptr, *y = nullptr, *amt = nullptr;
    if (match(v, m_ZExt(m_Value(x)))) {
      unsigned xw = Width(x);
      return lo >= xw || Zero(x, lo, std::min(lo + n, xw) - lo, depth + 1);
    }
    if (match(v, m_Trunc(m_Value(x))))
      return Zero(x, lo, n, depth + 1);
    if (match(v, m_Shl(m_Value(x), m_Value(amt))))
      if (auto c = ShiftAmount(amt, Width(v)))
        return ZeroShl(x, *c, lo, n, depth);
    if (match(v, m_LShr(m_Value(x), m_Value(amt))))
      if (auto c = ShiftAmount(amt, Width(v)))
        return ZeroLShr(x, *c, lo, n, depth);
    if (match(v, m_Or(m_Value(x), m_Value(y))))
      return Zero(x, lo, n, depth + 1) && Zero(y, lo, n, depth + 1);
    const APInt *mask = nullptr;
    if (match(v, m_And(m_Value(x), m_APInt(mask))))
      return mask->extractBits(n, lo).isZero() || Zero(x, lo, n, depth + 1);
    if (auto *fsh = dyn_cast<IntrinsicInst>(v)) {
      if (auto parts = FunnelParts(*fsh))
        return ZeroShl(parts->a, parts->left, lo, n, depth) &&
               (parts->left == 0 ||
                ZeroLShr(parts->b, Width(v) - parts->left, lo, n, depth));
    }
    if (auto *phi = dyn_cast<PHINode>(v)) {
      // Optimistic around loops: a phi being decided is taken as zero,
      // which every step above keeps only when its other inputs are.
      if (!zero_phis_.insert(phi).second)
        return true;
      bool all = all_of(phi->incoming_values(), [&](Value *in) {
        return Zero(in, lo, n, depth + 1);
      });
      zero_phis_.erase(phi);
      return all;
    }
    if (auto *sel = dyn_cast<SelectInst>(v))
      return Zero(sel->getTrueValue(), lo, n, depth + 1) &&
             Zero(sel->getFalseValue(), lo, n, depth + 1);
    KnownBits known = computeKnownBits(v, dl_);
    return known.Zero.extractBits(n, lo).isAllOnes();
  }

  /// A value of type `fty` (a float, or an integer field) whose bits are
  /// exactly bits [lo, lo + width of fty) of integer `v`; null when there
  /// is none. May create phis and selects (where the packed word is chosen
  /// by one).
  Value *Float(Value *v, unsigned lo, Type *fty, unsigned depth = 0) {
    Value *found = Source(v, lo, fty, depth);
    // An integer field is at least itself.
    if (!found && fty->isIntegerTy() && lo == 0 && v->getType() == fty)
      return v;
    return found;
  }

  Value *Source(Value *v, unsigned lo, Type *fty, unsigned depth) {
    unsigned n = fty->getPrimitiveSizeInBits();
    if (!v->getType()->isIntegerTy() || lo + n > Width(v) ||
        depth > kMaxDepth)
      return nullptr;
    Value *x = nullptr, *y = nullptr, *amt = nullptr;
    // A constant word (an accumulator's start): the constant.
    if (auto *c = dyn_cast<ConstantInt>(v)) {
      APInt bits = c->getValue().extractBits(n, lo);
      if (fty->isIntegerTy())
        return ConstantInt::get(fty, bits);
      return ConstantFP::get(fty->getContext(),
                             APFloat(fty->getFltSemantics(), bits));
    }
    if (isa<UndefValue>(v))
      return PoisonValue::get(fty);
    if (auto *bc = dyn_cast<BitCastInst>(v))
      return lo == 0 && bc->getSrcTy() == fty ? bc->getOperand(0) : nullptr;
    // A phi of the field's own type is the field (no new phi for it).
    if (isa<PHINode>(v) && lo == 0 && v->getType() == fty)
      return v;
    if (match(v, m_ZExt(m_Value(x))) || match(v, m_Trunc(m_Value(x))))
      return Float(x, lo, fty, depth + 1);
    if (match(v, m_Shl(m_Value(x), m_Value(amt))))
      if (auto c = ShiftAmount(amt, Width(v)))
        return FloatShl(x, *c, lo, fty, depth);
    if (match(v, m_LShr(m_Value(x), m_Value(amt))))
      if (auto c = ShiftAmount(amt, Width(v)))
        return FloatLShr(x, *c, lo, fty, depth);
    if (match(v, m_Or(m_Value(x), m_Value(y)))) {
      if (Zero(y, lo, n, depth + 1))
        return Float(x, lo, fty, depth + 1);
      if (Zero(x, lo, n, depth + 1))
        return Float(y, lo, fty, depth + 1);
      return nullptr;
    }
    const APInt *mask = nullptr;
    if (match(v, m_And(m_Value(x), m_APInt(mask))))
      return mask->extractBits(n, lo).isAllOnes()
                 ? Float(x, lo, fty, depth + 1)
                 : nullptr;
    if (auto *fsh = dyn_cast<IntrinsicInst>(v)) {
      auto parts = FunnelParts(*fsh);
      if (!parts)
        return nullptr;
      unsigned w = Width(v);
      if (parts->left == 0)
        return Float(parts->a, lo, fty, depth + 1);
      if (ZeroLShr(parts->b, w - parts->left, lo, n, depth))
        return FloatShl(parts->a, parts->left, lo, fty, depth);
      if (ZeroShl(parts->a, parts->left, lo, n, depth))
        return FloatLShr(parts->b, w - parts->left, lo, fty, depth);
      return nullptr;
    }
    if (auto *phi = dyn_cast<PHINode>(v))
      return FloatPhi(phi, lo, fty, depth);
    if (auto *sel = dyn_cast<SelectInst>(v)) {
      Value *t = Float(sel->getTrueValue(), lo, fty, depth + 1);
      Value *f = t ? Float(sel->getFalseValue(), lo, fty, depth + 1) : nullptr;
      if (!t || !f)
        return nullptr;
      if (t == f)
        return t;
      IRBuilder<> b(sel);
      return b.CreateSelect(sel->getCondition(), t, f,
                            sel->getName() + ".unpacked");
    }
    return nullptr;
  }

  /// Phis and selects made by Float that were not used in the end.
  void DropUnused() {
    for (PHINode *phi : made_phis_)
      if (phi->use_empty())
        phi->eraseFromParent();
  }

private:
  struct Funnel {
    Value *a, *b;
    unsigned left; ///< fshl(a, b, c) = (a << left) | (b >> (w - left))
  };

  std::optional<Funnel> FunnelParts(IntrinsicInst &ii) {
    Intrinsic::ID id = ii.getIntrinsicID();
    if ((id != Intrinsic::fshl && id != Intrinsic::fshr) ||
        !ii.getType()->isIntegerTy())
      return std::nullopt;
    const auto *c = dyn_cast<ConstantInt>(ii.getArgOperand(2));
    if (!c)
      return std::nullopt;
    unsigned w = Width(&ii);
    unsigned amount = unsigned(c->getValue().urem(w));
    unsigned left = id == Intrinsic::fshl ? amount : (w - amount) % w;
    return Funnel{ii.getArgOperand(0), ii.getArgOperand(1), left};
  }

  /// Bits [lo, lo + n) of `x << c`.
  bool ZeroShl(Value *x, unsigned c, unsigned lo, unsigned n, unsigned depth) {
    unsigned from = std::max(lo, c);
    return from >= lo + n || Zero(x, from - c, lo + n - from, depth + 1);
  }
  /// Bits [lo, lo + n) of `x >> c` (logical).
  bool ZeroLShr(Value *x, unsigned c, unsigned lo, unsigned n,
                unsigned depth) {
    unsigned w = Width(x);
    if (lo + c >= w)
      return true;
    return Zero(x, lo + c, std::min(lo + n + c, w) - (lo + c), depth + 1);
  }
  Value *FloatShl(Value *x, unsigned c, unsigned lo, Type *fty,
                  unsigned depth) {
    return lo >= c ? Float(x, lo - c, fty, depth + 1) : nullptr;
  }
  Value *FloatLShr(Value *x, unsigned c, unsigned lo, Type *fty,
                   unsigned depth) {
    return Float(x, lo + c, fty, depth + 1);
  }

  Value *FloatPhi(PHINode *phi, unsigned lo, Type *fty, unsigned depth) {
    auto key = std::make_tuple(phi, lo, fty);
    auto it = float_phis_.find(key);
    if (it != float_phis_.end())
      return it->second; // Around a loop: the phi being built.
    PHINode *out = PHINode::Create(fty, phi->getNumIncomingValues(),
                                   phi->getName() + ".unpacked",
                                   phi->getParent()->getFirstNonPHIIt());
    out->moveBefore(phi->getParent()->begin());
    float_phis_[key] = out;
    made_phis_.push_back(out);
    for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
      Value *in = Float(phi->getIncomingValue(k), lo, fty, depth + 1);
      if (!in) {
        // Not a float on every path: nothing to fold here. (Uses made
        // of `out` meanwhile go with it: poison them first.)
        float_phis_[key] = nullptr;
        out->replaceAllUsesWith(PoisonValue::get(fty));
        return nullptr;
      }
      out->addIncoming(in, phi->getIncomingBlock(k));
    }
    return out;
  }

  const DataLayout &dl_;
  SmallPtrSet<PHINode *, 8> zero_phis_;
  std::map<std::tuple<PHINode *, unsigned, Type *>, Value *> float_phis_;
  SmallVector<PHINode *, 4> made_phis_;
};

} // namespace

bool FoldFloatPacking(Function &f) {
  // Floats read back (`bitcast iN to float`), and integer fields read
  // back (`trunc (lshr X, 32)`: the int beside the float, which otherwise
  // keeps the float's packed bits alive).
  SmallVector<Instruction *, 8> unpacks;
  bool reinterprets = false;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      if (auto *bc = dyn_cast<BitCastInst>(&i)) {
        if (bc->getSrcTy()->isIntegerTy() &&
            bc->getDestTy()->isFloatingPointTy())
          unpacks.push_back(bc);
        reinterprets |= bc->getSrcTy()->isFPOrFPVectorTy() !=
                        bc->getDestTy()->isFPOrFPVectorTy();
      } else if (isa<TruncInst>(&i) && i.getType()->isIntegerTy()) {
        unpacks.push_back(&i);
      }
    }
  if (!reinterprets)
    return false;
  BitSources sources(f.getDataLayout());
  bool changed = false;
  SmallVector<WeakTrackingVH, 8> dead;
  for (Instruction *unpack : unpacks) {
    Value *packed = unpack->getOperand(0);
    Value *fl = sources.Float(packed, 0, unpack->getType());
    if (!fl || fl == unpack || fl == packed)
      continue;
    unpack->replaceAllUsesWith(fl);
    unpack->eraseFromParent();
    dead.push_back(packed);
    changed = true;
  }
  sources.DropUnused();
  for (WeakTrackingVH &v : dead)
    if (auto *i = dyn_cast_or_null<Instruction>(v))
      RecursivelyDeleteTriviallyDeadInstructions(i);
  return changed;
}

} // namespace autodiff
