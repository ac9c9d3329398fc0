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
// (read again, in the loop itself, its block dominating the latch, its
// address an affine recurrence of the loop) or another such phi of the same
// header (up to a few links). Iteration k - d of the load ran when the
// reverse sweep is at iteration k > d - 1 (the loop went round from there),
// and the load is executed only then (a branch: no load at an address the
// primal never read); a select picks the value from before the loop
// otherwise.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/ReverseEmitter.h"

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
      !dt_->dominates(ld->getParent(), l->getLoopLatch()) || !Reloadable(*ld))
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

} // namespace autodiff
