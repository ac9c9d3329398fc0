//===- enzyme_bridge/reverse/UnpackedLoads.cpp - Fields loaded as one word ===//
#include "enzyme_bridge/reverse/UnpackedLoads.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <optional>
#include <utility>

using namespace llvm;

namespace autodiff {
namespace {

/// A field read out of a loaded word: the instruction that yields it (a
/// truncation, or a mask keeping it in place) and its byte offset and
/// width in bits.
struct Field {
  Instruction *use;
  uint64_t offset;
  unsigned bits;
};

/// The bit range [lo, hi) of byte-aligned fields `mask` keeps, when its
/// set bits are one such range.
std::optional<std::pair<unsigned, unsigned>> KeptBits(const APInt &mask) {
  if (mask.isZero())
    return std::nullopt;
  unsigned lo = mask.countr_zero();
  unsigned hi = mask.getBitWidth() - mask.countl_zero();
  if (lo % 8 != 0 || hi % 8 != 0 || mask.popcount() != hi - lo)
    return std::nullopt;
  return std::make_pair(lo, hi);
}

/// The fields `l`'s uses read, or nothing when a use is anything else.
bool CollectFields(LoadInst &l, SmallVectorImpl<Field> &fields,
                   SmallVectorImpl<Instruction *> &shifts) {
  unsigned bits = l.getType()->getIntegerBitWidth();
  for (User *u : l.users()) {
    if (auto *t = dyn_cast<TruncInst>(u)) {
      fields.push_back({t, 0, t->getType()->getIntegerBitWidth()});
      continue;
    }
    // `and` keeping one field where it is (a by-value {float; int} whose
    // int a callee updates in place).
    if (auto *bo = dyn_cast<BinaryOperator>(u);
        bo && bo->getOpcode() == Instruction::And) {
      const auto *mask = dyn_cast<ConstantInt>(bo->getOperand(1));
      std::optional<std::pair<unsigned, unsigned>> kept =
          mask && bo->getOperand(0) == &l ? KeptBits(mask->getValue())
                                          : std::nullopt;
      if (!kept)
        return false;
      fields.push_back({bo, kept->first / 8, kept->second - kept->first});
      continue;
    }
    auto *sh = dyn_cast<BinaryOperator>(u);
    const auto *amount =
        sh && sh->getOpcode() == Instruction::LShr && sh->getOperand(0) == &l
            ? dyn_cast<ConstantInt>(sh->getOperand(1))
            : nullptr;
    if (!amount || amount->getZExtValue() % 8 != 0 ||
        amount->getZExtValue() >= bits)
      return false;
    uint64_t shift = amount->getZExtValue();
    for (User *w : sh->users()) {
      auto *t = dyn_cast<TruncInst>(w);
      if (!t || shift + t->getType()->getIntegerBitWidth() > bits)
        return false;
      fields.push_back({t, shift / 8, t->getType()->getIntegerBitWidth()});
    }
    shifts.push_back(sh);
  }
  return !fields.empty();
}

/// Whether a field is reinterpreted as floating point.
bool FeedsFloat(ArrayRef<Field> fields) {
  return any_of(fields, [](const Field &f) {
    return any_of(f.use->users(), [](const User *u) {
      const auto *bc = dyn_cast<BitCastInst>(u);
      return bc && bc->getType()->isFPOrFPVectorTy();
    });
  });
}

} // namespace

unsigned SplitUnpackedLoads(Function &f) {
  const DataLayout &dl = f.getDataLayout();
  if (!dl.isLittleEndian())
    return 0;
  SmallVector<LoadInst *, 8> loads;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (auto *l = dyn_cast<LoadInst>(&i))
        if (l->isSimple() && l->getType()->isIntegerTy() &&
            l->getType()->getIntegerBitWidth() % 8 == 0)
          loads.push_back(l);
  unsigned split = 0;
  for (LoadInst *l : loads) {
    SmallVector<Field, 4> fields;
    SmallVector<Instruction *, 2> shifts;
    if (!CollectFields(*l, fields, shifts) || !FeedsFloat(fields))
      continue;
    IRBuilder<> b(l);
    for (const Field &fd : fields) {
      Value *addr = l->getPointerOperand();
      if (fd.offset)
        addr = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), addr, fd.offset);
      LoadInst *n = b.CreateAlignedLoad(
          b.getIntNTy(fd.bits), addr,
          commonAlignment(l->getAlign(), fd.offset), fd.use->getName());
      AAMDNodes aa = l->getAAMetadata();
      aa.TBAA = aa.TBAAStruct = nullptr;
      n->setAAMetadata(aa);
      Value *v = n;
      if (!isa<TruncInst>(fd.use)) {
        // Back in place in a word of the load's width.
        IRBuilder<> at(fd.use);
        v = at.CreateShl(at.CreateZExt(n, l->getType()), 8 * fd.offset);
      }
      fd.use->replaceAllUsesWith(v);
      fd.use->eraseFromParent();
    }
    for (Instruction *sh : shifts)
      sh->eraseFromParent();
    l->eraseFromParent();
    ++split;
  }
  return split;
}

} // namespace autodiff
