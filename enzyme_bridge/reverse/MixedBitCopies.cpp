//===- enzyme_bridge/reverse/MixedBitCopies.cpp - Field-wise record copies ===//
#include "enzyme_bridge/reverse/MixedBitCopies.h"

#include "enzyme_bridge/analysis/BitCopies.h"
#include "enzyme_bridge/analysis/DeclaredLayout.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"

#include <map>
#include <optional>

using namespace llvm;

namespace autodiff {
namespace {

using Piece = MixedCopyField;

/// Float fields by offset; nullopt for a conflict, an empty map with
/// `known` false when the side says nothing.
struct SideFloats {
  bool known = false;
  std::map<uint64_t, Type *> floats;
};

/// What the memory `bytes` from `ptr` on holds: its float fields, or
/// nullopt when it holds pointers or something the fields cannot account
/// for.
std::optional<SideFloats> FloatsAt(const Value *ptr, uint64_t bytes,
                                   const TypeInfo &types,
                                   const DataLayout &dl) {
  MemoryTypes mt = FillDeclaredGaps(types.TypesOver(ptr, bytes), ptr, bytes, dl);
  SideFloats side;
  side.known = any_of(mt.at, [&](const auto &e) {
    return e.first == -1 ||
           (e.first >= 0 && static_cast<uint64_t>(e.first) < bytes);
  });
  if (!side.known)
    return side;
  std::optional<std::vector<CopiedField>> fields =
      FieldsOfFixedCopy(mt, bytes, dl);
  if (!fields)
    return std::nullopt;
  for (const CopiedField &f : *fields) {
    if (f.type.kind != BaseType::Float)
      return std::nullopt;
    side.floats[static_cast<uint64_t>(f.offset)] = f.type.fp;
  }
  return side;
}

/// The web's fields: float fields where every side that says anything
/// agrees, integer runs for the bytes between them, cut at lane
/// boundaries; nullopt when the web is not a copy of such records.
std::optional<std::vector<Piece>> WebPieces(const BitCopyWeb &web,
                                            const TypeInfo &types,
                                            const DataLayout &dl) {
  if (!web.from_float.empty() || !web.to_float.empty() || !dl.isLittleEndian())
    return std::nullopt;
  uint64_t bytes = dl.getTypeStoreSize(web.type);
  uint64_t lane = dl.getTypeStoreSize(web.type->getScalarType());
  std::optional<std::map<uint64_t, Type *>> floats;
  auto consider = [&](const Value *ptr) {
    std::optional<SideFloats> side = FloatsAt(ptr, bytes, types, dl);
    if (!side)
      return false;
    if (!side->known)
      return true;
    if (floats && *floats != side->floats)
      return false;
    floats = side->floats;
    return true;
  };
  for (LoadInst *l : web.loads)
    if (!consider(l->getPointerOperand()))
      return std::nullopt;
  for (StoreInst *s : web.stores)
    if (!consider(s->getPointerOperand()))
      return std::nullopt;
  if (!floats || floats->empty())
    return std::nullopt;
  LLVMContext &ctx = web.type->getContext();
  std::vector<Piece> pieces;
  auto addRun = [&](uint64_t from, uint64_t to) {
    // Integer bytes, one run per lane.
    while (from < to) {
      uint64_t end = std::min(to, (from / lane + 1) * lane);
      pieces.push_back({from, IntegerType::get(ctx, 8 * (end - from))});
      from = end;
    }
  };
  uint64_t at = 0;
  for (const auto &[offset, fp] : *floats) {
    uint64_t size = dl.getTypeStoreSize(fp);
    if (offset < at || offset / lane != (offset + size - 1) / lane)
      return std::nullopt;
    addRun(at, offset);
    pieces.push_back({offset, fp});
    at = offset + size;
  }
  addRun(at, bytes);
  return pieces;
}

/// Whether every lane of a vector web is cut the same way (lane shuffles
/// move whole lanes).
bool LanesAlike(const std::vector<Piece> &pieces, uint64_t lane,
                unsigned lanes) {
  if (pieces.size() % lanes != 0)
    return false;
  size_t per = pieces.size() / lanes;
  for (size_t k = per; k < pieces.size(); ++k)
    if (pieces[k].type != pieces[k % per].type ||
        pieces[k].offset - (k / per) * lane != pieces[k % per].offset)
      return false;
  return true;
}

/// Whether `c` (a constant operand of the web) can be cut into fields.
bool Splittable(const Constant *c) {
  if (isa<UndefValue>(c) || c->isNullValue() || isa<ConstantInt>(c))
    return true;
  if (!c->getType()->isVectorTy())
    return false;
  unsigned n = cast<FixedVectorType>(c->getType())->getNumElements();
  for (unsigned k = 0; k < n; ++k) {
    const Constant *e = c->getAggregateElement(k);
    if (!e || !(isa<UndefValue>(e) || isa<ConstantInt>(e)))
      return false;
  }
  return true;
}

class Splitter {
public:
  Splitter(const BitCopyWeb &web, std::vector<Piece> pieces,
           const DataLayout &dl)
      : web_(web), pieces_(std::move(pieces)),
        lane_(dl.getTypeStoreSize(web.type->getScalarType())) {
    auto *vt = dyn_cast<FixedVectorType>(web.type);
    lanes_ = vt ? vt->getNumElements() : 1;
  }

  void Run() {
    for (LoadInst *l : web_.loads)
      SplitLoad(*l);
    for (Instruction *m : web_.moves)
      if (auto *phi = dyn_cast<PHINode>(m)) {
        auto &out = new_[phi];
        for (const Piece &p : pieces_)
          out.push_back(PHINode::Create(p.type, phi->getNumIncomingValues(),
                                        phi->getName(), phi->getIterator()));
      }
    for (bool progress = true; progress;) {
      progress = false;
      for (Instruction *m : web_.moves)
        if (!new_.count(m) && Ready(*m)) {
          Rebuild(*m);
          progress = true;
        }
    }
    for (Instruction *m : web_.moves)
      if (auto *phi = dyn_cast<PHINode>(m))
        for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
          for (size_t p = 0; p < pieces_.size(); ++p)
            cast<PHINode>(new_[phi][p])
                ->addIncoming(Map(phi->getIncomingValue(k), p),
                              phi->getIncomingBlock(k));
    for (StoreInst *s : web_.stores)
      SplitStore(*s);
    for (auto &[old, unused] : new_)
      old->replaceAllUsesWith(PoisonValue::get(old->getType()));
    for (auto &[old, unused] : new_)
      old->eraseFromParent();
    for (StoreInst *s : web_.stores)
      s->eraseFromParent();
  }

private:
  Value *FieldAddress(IRBuilder<> &b, Value *ptr, uint64_t offset) {
    return offset == 0 ? ptr : b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), ptr, offset);
  }

  void Tag(Instruction &i, const Piece &p) {
    AAMDNodes aa = i.getAAMetadata();
    aa.TBAA = aa.TBAAStruct = nullptr;
    i.setAAMetadata(aa);
    if (p.type->isIntegerTy())
      i.setMetadata(kRecordIntegerBytesMetadata,
                    MDNode::get(i.getContext(), {}));
  }

  void SplitLoad(LoadInst &l) {
    IRBuilder<> b(&l);
    auto &out = new_[&l];
    for (const Piece &p : pieces_) {
      LoadInst *n = b.CreateAlignedLoad(
          p.type, FieldAddress(b, l.getPointerOperand(), p.offset),
          commonAlignment(l.getAlign(), p.offset), l.isVolatile(),
          l.getName());
      n->setAAMetadata(l.getAAMetadata());
      Tag(*n, p);
      out.push_back(n);
    }
  }

  void SplitStore(StoreInst &s) {
    IRBuilder<> b(&s);
    for (size_t k = 0; k < pieces_.size(); ++k) {
      const Piece &p = pieces_[k];
      StoreInst *n = b.CreateAlignedStore(
          Map(s.getValueOperand(), k),
          FieldAddress(b, s.getPointerOperand(), p.offset),
          commonAlignment(s.getAlign(), p.offset), s.isVolatile());
      n->setAAMetadata(s.getAAMetadata());
      Tag(*n, p);
    }
  }

  bool Ready(Instruction &m) {
    return all_of(m.operands(), [&](Value *op) {
      auto *i = dyn_cast<Instruction>(op);
      return !i || op->getType() != web_.type || new_.count(i);
    });
  }

  /// Field `k` of web value `v`.
  Value *Map(Value *v, size_t k) {
    if (auto *i = dyn_cast<Instruction>(v))
      return new_.lookup(i)[k];
    return ConstantPiece(cast<Constant>(v), pieces_[k]);
  }

  Constant *ConstantPiece(Constant *c, const Piece &p) {
    if (isa<PoisonValue>(c))
      return PoisonValue::get(p.type);
    if (isa<UndefValue>(c))
      return UndefValue::get(p.type);
    unsigned lane = static_cast<unsigned>(p.offset / lane_);
    Constant *e = c->getType()->isVectorTy() ? c->getAggregateElement(lane) : c;
    if (isa<PoisonValue>(e))
      return PoisonValue::get(p.type);
    if (isa<UndefValue>(e))
      return UndefValue::get(p.type);
    unsigned bits = static_cast<unsigned>(8 * (p.offset % lane_));
    unsigned width = p.type->getPrimitiveSizeInBits().getFixedValue();
    APInt v = cast<ConstantInt>(e)->getValue().lshr(bits).trunc(width);
    if (p.type->isIntegerTy())
      return ConstantInt::get(p.type->getContext(), v);
    return ConstantFP::get(p.type->getContext(),
                           APFloat(p.type->getFltSemantics(), v));
  }

  void Rebuild(Instruction &m) {
    IRBuilder<> b(&m);
    auto &out = new_[&m];
    if (auto *sel = dyn_cast<SelectInst>(&m)) {
      Value *cond = sel->getCondition();
      for (size_t k = 0; k < pieces_.size(); ++k) {
        Value *c = cond;
        if (cond->getType()->isVectorTy())
          c = b.CreateExtractElement(cond, pieces_[k].offset / lane_);
        out.push_back(b.CreateSelect(c, Map(sel->getTrueValue(), k),
                                     Map(sel->getFalseValue(), k),
                                     sel->getName()));
      }
      return;
    }
    // A lane shuffle: lanes are cut alike (LanesAlike).
    auto *sh = cast<ShuffleVectorInst>(&m);
    size_t per = pieces_.size() / lanes_;
    for (size_t k = 0; k < pieces_.size(); ++k) {
      int from = sh->getMaskValue(static_cast<unsigned>(k / per));
      if (from < 0) {
        out.push_back(PoisonValue::get(pieces_[k].type));
        continue;
      }
      Value *src = sh->getOperand(static_cast<unsigned>(from) < lanes_ ? 0 : 1);
      out.push_back(Map(src, (static_cast<unsigned>(from) % lanes_) * per +
                                 k % per));
    }
  }

  const BitCopyWeb &web_;
  std::vector<Piece> pieces_;
  uint64_t lane_;
  unsigned lanes_ = 1;
  DenseMap<Instruction *, SmallVector<Value *, 4>> new_;
};

} // namespace

std::optional<MixedCopySplit> PlanMixedCopySplit(const BitCopyWeb &web,
                                                 const TypeInfo &types) {
  const BasicBlock *bb = !web.loads.empty() ? web.loads.front()->getParent()
                         : !web.stores.empty()
                             ? web.stores.front()->getParent()
                             : nullptr;
  if (!bb)
    return std::nullopt;
  const DataLayout &dl = bb->getDataLayout();
  std::optional<std::vector<Piece>> pieces = WebPieces(web, types, dl);
  if (!pieces)
    return std::nullopt;
  auto *vt = dyn_cast<FixedVectorType>(web.type);
  bool shuffles = any_of(web.moves, [](Instruction *i) {
    return isa<ShuffleVectorInst>(i);
  });
  if (vt && shuffles &&
      !LanesAlike(*pieces, dl.getTypeStoreSize(vt->getElementType()),
                  vt->getNumElements()))
    return std::nullopt;
  for (Instruction *m : web.moves)
    for (Value *op : m->operands())
      if (op->getType() == web.type && isa<Constant>(op) &&
          !Splittable(cast<Constant>(op)))
        return std::nullopt;
  return MixedCopySplit{&web, std::move(*pieces)};
}

void SplitMixedCopy(const MixedCopySplit &split) {
  const DataLayout &dl =
      (!split.web->loads.empty() ? split.web->loads.front()->getParent()
                                 : split.web->stores.front()->getParent())
          ->getDataLayout();
  Splitter(*split.web, split.fields, dl).Run();
}

bool IsRecordIntegerBytes(const Instruction &i) {
  return i.getMetadata(kRecordIntegerBytesMetadata) != nullptr;
}

} // namespace autodiff
