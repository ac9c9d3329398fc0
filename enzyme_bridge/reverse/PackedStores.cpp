//===- enzyme_bridge/reverse/PackedStores.cpp - Fields stored as one word -===//
#include "enzyme_bridge/reverse/PackedStores.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Local.h"

#include <algorithm>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace autodiff {
namespace {

constexpr unsigned kMaxParts = 16;

/// One field of a stored word: its bit offset and width, and the value
/// whose bits it holds (a float seen through its `bitcast`, an integer of
/// the field's width, or a wider integer whose low bits it holds).
struct Part {
  unsigned lo;
  unsigned bits;
  Value *value;
};

/// The value a field of `bits` bits holds: a float when `v` reinterprets
/// one.
Value *Peel(Value *v) {
  if (auto *bc = dyn_cast<BitCastInst>(v))
    if (bc->getSrcTy()->isFloatingPointTy())
      return bc->getOperand(0);
  return v;
}

/// Gathers the fields of word `v` (an `or` tree of fields); false when a
/// leaf is anything else.
bool CollectParts(Value *v, unsigned width, SmallVectorImpl<Part> &parts,
                  APInt &constant) {
  if (parts.size() > kMaxParts)
    return false;
  Value *x = nullptr, *y = nullptr;
  const APInt *c = nullptr;
  if (match(v, m_Or(m_Value(x), m_Value(y))))
    return CollectParts(x, width, parts, constant) &&
           CollectParts(y, width, parts, constant);
  if (match(v, m_APInt(c))) {
    constant |= *c;
    return true;
  }
  if (match(v, m_ZExt(m_Value(x)))) {
    parts.push_back({0, x->getType()->getIntegerBitWidth(), Peel(x)});
    return true;
  }
  if (match(v, m_Shl(m_Value(x), m_APInt(c))) && c->ult(width)) {
    auto shift = unsigned(c->getZExtValue());
    if (match(x, m_ZExt(m_Value(y)))) {
      unsigned bits = y->getType()->getIntegerBitWidth();
      if (shift + bits > width)
        return false;
      parts.push_back({shift, bits, Peel(y)});
      return true;
    }
    parts.push_back({shift, width - shift, x});
    return true;
  }
  return false;
}

/// Whether the fields are byte-aligned, disjoint, clear of the constant
/// bits, and one of them is a float.
bool Splittable(SmallVectorImpl<Part> &parts, const APInt &constant) {
  llvm::sort(parts, [](const Part &a, const Part &b) { return a.lo < b.lo; });
  bool has_float = false;
  unsigned end = 0;
  for (const Part &p : parts) {
    if (p.lo % 8 || p.bits % 8 || p.lo < end ||
        !constant.extractBits(p.bits, p.lo).isZero())
      return false;
    end = p.lo + p.bits;
    has_float |= p.value->getType()->isFloatingPointTy();
  }
  return has_float;
}

void StoreAt(IRBuilder<> &b, StoreInst &s, Value *v, unsigned byte) {
  Value *addr = s.getPointerOperand();
  if (byte)
    addr = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), addr, byte);
  StoreInst *n =
      b.CreateAlignedStore(v, addr, commonAlignment(s.getAlign(), byte));
  AAMDNodes aa = s.getAAMetadata();
  aa.TBAA = aa.TBAAStruct = nullptr;
  n->setAAMetadata(aa);
}

void Split(StoreInst &s, ArrayRef<Part> parts, const APInt &constant) {
  IRBuilder<> b(&s);
  unsigned width = constant.getBitWidth(), at = 0;
  auto gap = [&](unsigned upto) {
    // Bytes no field covers keep what the word held there.
    if (upto > at)
      StoreAt(b, s, b.getInt(constant.extractBits(upto - at, at)), at / 8);
  };
  for (const Part &p : parts) {
    gap(p.lo);
    Value *v = p.value;
    if (v->getType()->isIntegerTy() &&
        v->getType()->getIntegerBitWidth() != p.bits)
      v = b.CreateTrunc(v, b.getIntNTy(p.bits));
    StoreAt(b, s, v, p.lo / 8);
    at = p.lo + p.bits;
  }
  gap(width);
}

} // namespace

unsigned SplitPackedStores(Function &f) {
  const DataLayout &dl = f.getDataLayout();
  if (!dl.isLittleEndian())
    return 0;
  SmallVector<StoreInst *, 8> stores;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (auto *s = dyn_cast<StoreInst>(&i)) {
        Type *t = s->getValueOperand()->getType();
        if (s->isSimple() && t->isIntegerTy() &&
            t->getIntegerBitWidth() % 8 == 0 &&
            dl.getTypeStoreSizeInBits(t) == t->getIntegerBitWidth() &&
            isa<BinaryOperator>(s->getValueOperand()))
          stores.push_back(s);
      }
  unsigned split = 0;
  for (StoreInst *s : stores) {
    Value *word = s->getValueOperand();
    unsigned width = word->getType()->getIntegerBitWidth();
    SmallVector<Part, 4> parts;
    APInt constant(width, 0);
    if (!CollectParts(word, width, parts, constant) ||
        !Splittable(parts, constant))
      continue;
    Split(*s, parts, constant);
    s->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(word);
    ++split;
  }
  return split;
}

} // namespace autodiff
