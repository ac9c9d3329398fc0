//===- enzyme_bridge/reverse/CarriedLoads.cpp - Phis read again from memory ===//
//
// A stencil marching along one axis keeps a sliding window in registers:
//
//   double lo = u[c], mid = u[c + plane];
//   for (z = 1; z < nz - 1; ++z, c += plane) {
//     double hi = u[c + plane];
//     ... lo, mid, hi ...
//     lo = mid; mid = hi;
//   }
//
// `mid` and `lo` are loop-carried phis, and a phi used to be cached, one
// value per iteration (a GPU thread's tape then left its local memory for
// the device heap). But `mid` in iteration k is `hi` of iteration k - 1, a
// load whose address is an affine function of the iteration, of memory no
// later write changes: the reverse sweep reads it again at that address,
// and `lo` in iteration k is `hi` of iteration k - 2. Iteration 0 takes the
// value from before the loop (itself looked up as usual).
//
// A header phi qualifies when its value from the latch is such a load
// (read again because no later write changes its memory at all: a load
// read again because the reverse sweep puts back what later stores changed
// is right only at its own point, not at a later iteration's; in the loop
// itself, its block dominating the latch, its
// address an affine recurrence of the loop) or another such phi of the same
// header (up to a few links). Iteration k - d of the load ran when the
// reverse sweep is at iteration k > d - 1 (the loop went round from there),
// and the load is executed only then (a branch: no load at an address the
// primal never read); a select picks the value from before the loop
// otherwise.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/ReverseEmitter.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace autodiff {

/// Links of phis followed back to the load.
static constexpr unsigned kMaxCarriedLinks = 4;

/// The loop `p` is a header phi of; null otherwise.
static Loop *CarryingLoop(const PHINode &p, LoopInfo &li) {
  Loop *l = li.getLoopFor(p.getParent());
  if (!l || l->getHeader() != p.getParent() || p.getNumIncomingValues() != 2 ||
      !l->getLoopLatch() || !l->getLoopPreheader())
    return nullptr;
  return l;
}

bool ReverseEmitter::CanRecomputeCarried(PHINode &p, unsigned links,
                                         unsigned depth) {
  Loop *l = CarryingLoop(p, *li_);
  if (!l || links > kMaxCarriedLinks || !HoldsFloat(p.getType()))
    return false;
  Value *next = p.getIncomingValueForBlock(l->getLoopLatch());
  if (auto *q = dyn_cast<PHINode>(next))
    return q->getParent() == p.getParent() &&
           CanRecomputeCarried(*q, links + 1, depth);
  auto *ld = dyn_cast<LoadInst>(next);
  if (!ld || !ld->isSimple() || ld->getType() != p.getType() ||
      li_->getLoopFor(ld->getParent()) != l ||
      !dt_->dominates(ld->getParent(), l->getLoopLatch()) ||
      !Reloadable(*ld) || restored_loads_.count(ld))
    return false;
  auto *ar = dyn_cast<SCEVAddRecExpr>(se_->getSCEV(ld->getPointerOperand()));
  if (!ar || ar->getLoop() != l || !ar->isAffine())
    return false;
  const SCEV *base = se_->getPointerBase(ar);
  const SCEV *offset = se_->getMinusSCEV(ar->getStart(), base);
  return isa<SCEVUnknown>(base) && !isa<SCEVCouldNotCompute>(offset) &&
         CanRecompute(cast<SCEVUnknown>(base)->getValue(), depth + 1) &&
         CanRecomputeSCEV(offset, depth + 1) &&
         CanRecomputeSCEV(ar->getStepRecurrence(*se_), depth + 1);
}

Value *ReverseEmitter::RecomputeCarried(PHINode &p, unsigned links) {
  Loop *l = CarryingLoop(p, *li_);
  LoopTape &t = tapes_[l];
  Type *i64 = rb_.getInt64Ty();
  Value *k = rb_.CreateLoad(i64, t.reverse_counter);
  Value *first = Lookup(p.getIncomingValueForBlock(l->getLoopPreheader()));
  Value *next = p.getIncomingValueForBlock(l->getLoopLatch());
  Value *earlier;
  if (auto *q = dyn_cast<PHINode>(next)) {
    earlier = RecomputeCarried(*q, links + 1);
  } else {
    // The load of iteration j = k - links - 1, when there is one. Its
    // address is computed before the branch (Lookup's values are reused
    // after it).
    auto *ld = cast<LoadInst>(next);
    auto *ar = cast<SCEVAddRecExpr>(se_->getSCEV(ld->getPointerOperand()));
    const SCEV *base = se_->getPointerBase(ar);
    const SCEV *offset = se_->getMinusSCEV(ar->getStart(), base);
    Type *index = offset->getType();
    Value *j = rb_.CreateSub(k, rb_.getInt64(links + 1));
    // One builder call per statement: the IR's order must not depend on
    // the C++ compiler's order of evaluating arguments.
    Value *step = RecomputeSCEV(ar->getStepRecurrence(*se_), index, 0);
    Value *start = RecomputeSCEV(offset, index, 0);
    Value *jx = rb_.CreateSExtOrTrunc(j, index);
    Value *at = rb_.CreateAdd(start, rb_.CreateMul(jx, step));
    Value *ptr = rb_.CreateGEP(rb_.getInt8Ty(),
                               Lookup(cast<SCEVUnknown>(base)->getValue()), at);
    Function *f = rb_.GetInsertBlock()->getParent();
    LLVMContext &c = f->getContext();
    BasicBlock *from = rb_.GetInsertBlock();
    auto *read = BasicBlock::Create(c, "carried.read", f);
    auto *join = BasicBlock::Create(c, "carried", f);
    rb_.CreateCondBr(rb_.CreateICmpSGE(j, rb_.getInt64(0)), read, join);
    rb_.SetInsertPoint(read);
    Value *v = rb_.CreateAlignedLoad(ld->getType(), ptr, ld->getAlign(),
                                     ld->getName() + ".carried");
    rb_.CreateBr(join);
    rb_.SetInsertPoint(join);
    PHINode *phi = rb_.CreatePHI(ld->getType(), 2);
    phi->addIncoming(v, read);
    phi->addIncoming(Constant::getNullValue(ld->getType()), from);
    earlier = phi;
  }
  Value *atFirst = rb_.CreateICmpEQ(k, rb_.getInt64(links));
  return rb_.CreateSelect(atFirst, first, earlier, p.getName() + ".re");
}

// Phis of guarded loads ----------------------------------------------------
//
// `v = i < n ? a[i] : 0` is a phi of a load made only on one path (a tile
// filled within bounds). The reverse sweep knows which path the forward
// sweep took into the phi's block (it needs that to go back), so the phi is
// read again too: the load on its path only, its address computed before
// the branch; values defined where every path into the block passed are
// looked up as usual.

/// Whether `v`, computed on one path into `join`, can be computed before
/// the reverse sweep's branch: arithmetic that cannot trap (no integer
/// division) and address computations, from values computed on every path
/// into `join`.
bool ReverseEmitter::Speculatable(Value *v, BasicBlock &join, unsigned depth) {
  auto *i = dyn_cast<Instruction>(v);
  if (!i)
    return true;
  if (dt_->dominates(i->getParent(), &join))
    return CanRecompute(i, depth + 1);
  if (depth > 6)
    return false;
  auto *bin = dyn_cast<BinaryOperator>(i);
  bool pure = isa<GetElementPtrInst>(i) || isa<CastInst>(i) ||
              (bin && !bin->isIntDivRem());
  return pure && all_of(i->operands(), [&](Value *op) {
           return Speculatable(op, join, depth + 1);
         });
}

/// `v` (Speculatable) at `rb_`: the path's arithmetic copied.
Value *ReverseEmitter::Speculate(Value *v, BasicBlock &join) {
  auto *i = dyn_cast<Instruction>(v);
  if (!i || dt_->dominates(i->getParent(), &join))
    return Lookup(v);
  Instruction *copy = i->clone();
  for (Use &op : copy->operands())
    op.set(Speculate(op.get(), join));
  return rb_.Insert(copy);
}

/// The load on one path into `join` that incoming value `v` is, or null.
static LoadInst *PathLoad(Value *v, BasicBlock &join, DominatorTree &dt) {
  auto *ld = dyn_cast<LoadInst>(v);
  return ld && !dt.dominates(ld->getParent(), &join) ? ld : nullptr;
}

/// Whether incoming value `v` of a phi in `join` can be produced by the
/// reverse sweep on its path: a Speculatable value, or a load read again
/// whose address is Speculatable.
bool ReverseEmitter::GuardedIncoming(Value *v, BasicBlock &join,
                                     unsigned depth) {
  if (LoadInst *ld = PathLoad(v, join, *dt_))
    return ld->isSimple() && Reloadable(*ld) && !restored_loads_.count(ld) &&
           Speculatable(ld->getPointerOperand(), join, depth);
  return Speculatable(v, join, depth);
}

bool ReverseEmitter::CanRecomputeGuarded(PHINode &p, unsigned depth) {
  constexpr unsigned kMaxIncoming = 4;
  BasicBlock &join = *p.getParent();
  Loop *l = li_->getLoopFor(&join);
  if ((l && l->getHeader() == &join) || p.getNumIncomingValues() > kMaxIncoming ||
      !HoldsFloat(p.getType()))
    return false;
  SetVector<BasicBlock *> preds(pred_begin(&join), pred_end(&join));
  if (preds.size() != p.getNumIncomingValues())
    return false;
  for (BasicBlock *pred : preds)
    if (!GuardedIncoming(p.getIncomingValueForBlock(pred), join, depth))
      return false;
  return true;
}

Value *ReverseEmitter::RecomputeGuarded(PHINode &p) {
  BasicBlock &join = *p.getParent();
  SetVector<BasicBlock *> preds(pred_begin(&join), pred_end(&join));
  Value *from = RecoverComeFrom(join, preds.getArrayRef());
  // Everything but the guarded loads, before the branch.
  SmallVector<Value *, 4> values, addresses;
  for (BasicBlock *pred : preds) {
    Value *v = p.getIncomingValueForBlock(pred);
    LoadInst *ld = PathLoad(v, join, *dt_);
    values.push_back(ld ? nullptr : Speculate(v, join));
    addresses.push_back(ld ? Speculate(ld->getPointerOperand(), join)
                           : nullptr);
  }
  Function *f = rb_.GetInsertBlock()->getParent();
  LLVMContext &c = f->getContext();
  auto *done = BasicBlock::Create(c, "guarded", f);
  BasicBlock *here = rb_.GetInsertBlock();
  SwitchInst *sw = rb_.CreateSwitch(from, done, preds.size());
  rb_.SetInsertPoint(done);
  PHINode *result = rb_.CreatePHI(p.getType(), preds.size(), p.getName() + ".re");
  // The default (a number no path has) gives the first path's value when
  // that value needs no load; otherwise zero.
  result->addIncoming(values[0] ? values[0]
                                : Constant::getNullValue(p.getType()),
                      here);
  for (unsigned k = 0; k < preds.size(); ++k) {
    auto *arm = BasicBlock::Create(c, "guarded.path", f);
    sw->addCase(ConstantInt::get(cast<IntegerType>(from->getType()), k), arm);
    IRBuilder<> ab(arm);
    Value *v = values[k];
    if (!v) {
      auto *ld = cast<LoadInst>(p.getIncomingValueForBlock(preds[k]));
      v = ab.CreateAlignedLoad(ld->getType(), addresses[k], ld->getAlign(),
                               ld->getName() + ".guarded");
    }
    ab.CreateBr(done);
    result->addIncoming(v, arm);
  }
  return result;
}

} // namespace autodiff
