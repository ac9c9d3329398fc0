//===- enzyme_bridge/reverse/FloatBitCopies.cpp - Typed bit copies --------===//
#include "enzyme_bridge/reverse/FloatBitCopies.h"

#include "enzyme_bridge/analysis/BitCopies.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"
#include "enzyme_bridge/reverse/MixedBitCopies.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <optional>

using namespace llvm;

namespace autodiff {
namespace {

/// What the memory of one access of `bytes` bytes holds: nullopt when the
/// analysis says nothing, null when it holds something other than one
/// floating-point type at every lane, else that type.
std::optional<Type *> LaneType(const MemoryTypes &mt, uint64_t bytes,
                               const DataLayout &dl) {
  BaseType first = mt.Lookup(0);
  if (first.kind == BaseType::Unknown) {
    // Nothing at the start: any fact inside the access is a conflict.
    for (const auto &[off, b] : mt.at)
      if (off >= 0 && static_cast<uint64_t>(off) < bytes &&
          b.kind != BaseType::Unknown)
        return nullptr;
    return std::nullopt;
  }
  if (first.kind != BaseType::Float)
    return nullptr;
  uint64_t lane = dl.getTypeStoreSize(first.fp);
  if (lane == 0 || bytes % lane != 0)
    return nullptr;
  for (uint64_t off = 0; off < bytes; ++off) {
    auto it = mt.at.find(static_cast<int64_t>(off));
    if (off % lane == 0) {
      if (mt.Lookup(off) != first)
        return nullptr;
    } else if (it != mt.at.end() && it->second.kind != BaseType::Unknown) {
      return nullptr;
    }
  }
  return first.fp;
}

/// The floating-point type the web's values take, or null.
Type *WebFloatType(const BitCopyWeb &web, const TypeInfo &types,
                   const DataLayout &dl) {
  uint64_t bytes = dl.getTypeStoreSize(web.type);
  Type *lane = nullptr;
  auto consider = [&](const Value *ptr) {
    std::optional<Type *> t = LaneType(types.TypesAt(ptr), bytes, dl);
    if (!t)
      return true;
    if (!*t || (lane && lane != *t))
      return false;
    lane = *t;
    return true;
  };
  for (LoadInst *l : web.loads)
    if (!consider(l->getPointerOperand()))
      return nullptr;
  for (StoreInst *s : web.stores)
    if (!consider(s->getPointerOperand()))
      return nullptr;
  if (!lane)
    return nullptr;
  uint64_t lanes = bytes / dl.getTypeStoreSize(lane);
  Type *t = lanes == 1 ? lane : FixedVectorType::get(lane, lanes);
  // Lane shuffles keep their meaning only when lanes match one to one.
  auto *vt = dyn_cast<FixedVectorType>(web.type);
  bool shuffles = any_of(web.moves, [](Instruction *i) {
    return isa<ShuffleVectorInst>(i);
  });
  if (shuffles && (!vt || !t->isVectorTy() ||
                   cast<FixedVectorType>(t)->getNumElements() !=
                       vt->getNumElements()))
    return nullptr;
  // A reinterpretation into or out of the web must fit the new type.
  for (BitCastInst *bc : web.from_float)
    if (dl.getTypeStoreSize(bc->getSrcTy()) != bytes)
      return nullptr;
  return t;
}

class Retyper {
public:
  Retyper(const BitCopyWeb &web, Type *t) : web_(web), t_(t) {}

  void Run() {
    for (LoadInst *l : web_.loads) {
      IRBuilder<> b(l);
      LoadInst *n = b.CreateAlignedLoad(t_, l->getPointerOperand(),
                                        l->getAlign(), l->isVolatile());
      // Without the type-based tag: it names the integer type the code
      // moved the bits as (`long` in a generic swap), and alias analysis
      // would take the access for one that cannot touch the doubles.
      AAMDNodes aa = l->getAAMetadata();
      aa.TBAA = aa.TBAAStruct = nullptr;
      n->setAAMetadata(aa);
      n->takeName(l);
      new_[l] = n;
    }
    for (BitCastInst *bc : web_.from_float) {
      Value *src = bc->getOperand(0);
      new_[bc] = src->getType() == t_
                     ? src
                     : IRBuilder<>(bc).CreateBitCast(src, t_, bc->getName());
    }
    for (Instruction *m : web_.moves)
      if (auto *phi = dyn_cast<PHINode>(m)) {
        PHINode *n = PHINode::Create(t_, phi->getNumIncomingValues(), "",
                                     phi->getIterator());
        n->takeName(phi);
        new_[phi] = n;
      }
    // Selects and shuffles in an order where their operands exist: a few
    // passes over the (small) web.
    for (bool progress = true; progress;) {
      progress = false;
      for (Instruction *m : web_.moves)
        if (!new_.count(m) && Ready(*m)) {
          new_[m] = Rebuild(*m);
          progress = true;
        }
    }
    for (Instruction *m : web_.moves)
      if (auto *phi = dyn_cast<PHINode>(m))
        for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
          cast<PHINode>(new_[phi])->addIncoming(Map(phi->getIncomingValue(k)),
                                                phi->getIncomingBlock(k));
    for (StoreInst *s : web_.stores) {
      s->setOperand(0, Map(s->getValueOperand()));
      s->setMetadata(LLVMContext::MD_tbaa, nullptr);
      s->setMetadata(LLVMContext::MD_tbaa_struct, nullptr);
    }
    for (BitCastInst *bc : web_.to_float) {
      Value *v = Map(bc->getOperand(0));
      if (v->getType() != bc->getType())
        v = IRBuilder<>(bc).CreateBitCast(v, bc->getType());
      bc->replaceAllUsesWith(v);
      bc->eraseFromParent();
    }
    SmallVector<Instruction *, 16> old;
    for (auto &[from, to] : new_)
      old.push_back(from);
    for (Instruction *i : old)
      i->replaceAllUsesWith(PoisonValue::get(i->getType()));
    for (Instruction *i : old)
      i->eraseFromParent();
  }

private:
  bool Ready(Instruction &m) {
    return all_of(m.operands(), [&](Value *op) {
      auto *i = dyn_cast<Instruction>(op);
      return !i || op->getType() != web_.type || new_.count(i);
    });
  }

  Value *Map(Value *v) {
    if (auto *i = dyn_cast<Instruction>(v))
      return new_.lookup(i);
    return ConstantExpr::getBitCast(cast<Constant>(v), t_);
  }

  Value *Rebuild(Instruction &m) {
    IRBuilder<> b(&m);
    if (auto *sel = dyn_cast<SelectInst>(&m))
      return b.CreateSelect(sel->getCondition(), Map(sel->getTrueValue()),
                            Map(sel->getFalseValue()), sel->getName());
    auto *sh = cast<ShuffleVectorInst>(&m);
    return b.CreateShuffleVector(Map(sh->getOperand(0)), Map(sh->getOperand(1)),
                                 sh->getShuffleMask(), sh->getName());
  }

  const BitCopyWeb &web_;
  Type *t_;
  DenseMap<Instruction *, Value *> new_;
};

} // namespace

/// Whether the memory a move of `bytes` bytes of floating-point type `t`
/// reads or writes at `ptr` holds, by `types`, another layout: another
/// float type where it starts, or anything further in (a `{float; int}`
/// record or two floats moved as one double). Integers, pointers or
/// conflicting uses where it starts are no such evidence (a union, or
/// std::function's storage, holding the double among other things).
static bool HoldsOtherLayout(const TypeInfo &types, const Value *ptr, Type *t,
                             uint64_t bytes) {
  MemoryTypes mt = types.TypesAt(ptr);
  BaseType first = mt.Lookup(0);
  if (first.kind == BaseType::Float && first.fp != t)
    return true;
  return any_of(mt.at, [&](const auto &e) {
    return e.first > 0 && static_cast<uint64_t>(e.first) < bytes &&
           e.second.kind != BaseType::Unknown &&
           e.second.kind != BaseType::Anything;
  });
}

/// Whether a move web of a floating-point type moves something else, by
/// what the rest of the code says of its memory.
static bool MovesOtherData(const BitCopyWeb &w, const TypeInfo &types,
                           const DataLayout &dl) {
  uint64_t bytes = dl.getTypeStoreSize(w.type);
  return any_of(w.loads,
                [&](LoadInst *l) {
                  return HoldsOtherLayout(types, l->getPointerOperand(),
                                          w.type, bytes);
                }) ||
         any_of(w.stores, [&](StoreInst *s) {
           return HoldsOtherLayout(types, s->getPointerOperand(), w.type,
                                   bytes);
         });
}

/// Moves of doubles or floats (loads, phis, selects, stores, nothing
/// computed) over memory that holds something else become moves of an
/// integer of their width, which RetypeFloatBitCopies then types by the
/// memory (or the integer access is a diagnostic): their adjoints must
/// follow the memory's floats, not the type the code moved the bits as.
/// Returns the number of moves changed.
static unsigned IntegerMovesOverOtherTypes(Function &f) {
  std::vector<BitCopyWeb> webs = FindBitCopyWebs(f, /*floats=*/true);
  if (webs.empty())
    return 0;
  TypeInfo types = TypeInfo::ComputeBesideFloatMoves(f);
  const DataLayout &dl = f.getDataLayout();
  SmallVector<const BitCopyWeb *, 4> changed;
  for (const BitCopyWeb &w : webs)
    if (MovesOtherData(w, types, dl))
      changed.push_back(&w);
  for (const BitCopyWeb *w : changed)
    Retyper(*w, IntegerType::get(f.getContext(),
                                 8 * dl.getTypeStoreSize(w->type)))
        .Run();
  return changed.size();
}

unsigned RetypeFloatBitCopies(Function &f) {
  IntegerMovesOverOtherTypes(f);
  std::vector<BitCopyWeb> webs = FindBitCopyWebs(f);
  if (webs.empty())
    return 0;
  TypeInfo types = TypeInfo::Compute(f);
  const DataLayout &dl = f.getDataLayout();
  SmallVector<std::pair<const BitCopyWeb *, Type *>, 8> chosen;
  // Decided before anything changes: the analysis describes the body as it
  // was.
  SmallVector<const BitCopyWeb *, 8> others;
  for (const BitCopyWeb &w : webs)
    if (Type *t = WebFloatType(w, types, dl))
      chosen.push_back({&w, t});
    else
      others.push_back(&w);
  // Cut by what is known without counting integer copies as evidence: a
  // float that this function only copies would otherwise be taken for an
  // integer field, and its adjoint lost.
  std::vector<MixedCopySplit> splits;
  if (!others.empty()) {
    TypeInfo strict = TypeInfo::Compute(f, /*guess_copies=*/false);
    for (const BitCopyWeb *w : others)
      if (std::optional<MixedCopySplit> s = PlanMixedCopySplit(*w, strict))
        splits.push_back(std::move(*s));
  }
  for (auto &[w, t] : chosen)
    Retyper(*w, t).Run();
  for (const MixedCopySplit &s : splits)
    SplitMixedCopy(s);
  return chosen.size() + splits.size();
}

} // namespace autodiff
