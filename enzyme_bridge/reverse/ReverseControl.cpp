//===- enzyme_bridge/reverse/ReverseControl.cpp - Reverse control flow ----===//
//
// One reverse block per primal block. The primal's returns branch to the
// reverse block of their own block after seeding the adjoint of the
// returned value; each reverse block runs its instructions' adjoints in
// reverse order and then goes to the reverse block of the predecessor the
// forward sweep came from, through an edge block that moves the adjoints of
// the phis to their incoming values:
//  - a loop header goes back to its latch while iterations of the current
//    entry remain (its counter, set when the reverse sweep enters the loop,
//    is counted down), else to its preheader;
//  - a block with one predecessor goes to it;
//  - any other block reads which predecessor it came from: a small integer
//    the forward sweep computes with a phi, recomputed or cached like any
//    other value.
// An edge that leaves loops in the forward direction enters them in the
// reverse one: there the loop's trip count for this entry is read and its
// counter and cache base are set. The primal's entry block ends the sweep
// in the block that returns the gradients.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/DeferredReleases.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"

#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "support/StatusMacros.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace autodiff {

void ReverseEmitter::BeginRegion(BasicBlock *block, BasicBlock *ctx) {
  rb_.SetInsertPoint(block);
  memo_.clear();
  ctx_ = ctx;
}

absl::Status ReverseEmitter::BuildReverseBlocks() {
  LLVMContext &c = out_.getContext();
  for (BasicBlock *bb : llvm::reverse(blocks_))
    reverse_of_[bb] = BasicBlock::Create(c, "rev." + bb->getName(), &out_);
  final_ = BasicBlock::Create(c, "rev.done", &out_);
  AD_RETURN_IF_ERROR(RewriteReturns());
  for (BasicBlock *bb : llvm::reverse(blocks_))
    AD_RETURN_IF_ERROR(EmitReverseBlock(*bb));
  EmitFinalReturn();
  return absl::OkStatus();
}

absl::Status ReverseEmitter::RewriteReturns() {
  for (ReturnInst *ret : returns_) {
    Value *v = ret->getReturnValue();
    rb_.SetInsertPoint(ret);
    ctx_ = ret->getParent();
    MarkUndoLogEnd();
    if (req_.return_primal && v) {
      if (!primal_result_) {
        IRBuilder<> eb(&*out_.getEntryBlock().getFirstInsertionPt());
        primal_result_ = eb.CreateAlloca(v->getType(), nullptr, "primal");
      }
      rb_.CreateStore(v, primal_result_);
    }
    // The seed belongs to the reverse sweep (a split derivative gets dret
    // only there): its own block, between the return and the reverse
    // block of the return's block.
    BasicBlock *target = reverse_of_[ret->getParent()];
    Value *shadow = nullptr;
    if (active_return_ && v && ContainsPointer(v->getType())) {
      shadow = JoinedShadow(v);
      if (!shadow)
        return Unsupported(*ret, "returning an active pointer whose shadow "
                                 "is unknown");
    } else if (active_return_ && v) {
      BasicBlock *seed =
          BasicBlock::Create(out_.getContext(), "rev.seed", &out_);
      BeginRegion(seed, ret->getParent());
      AddAdjoint(v, dret_);
      rb_.CreateBr(target);
      target = seed;
    }
    BranchInst *br = BranchInst::Create(target, ret->getIterator());
    split_points_.push_back({br, v, shadow});
    ret->eraseFromParent();
  }
  return absl::OkStatus();
}

/// Of two predecessors of `bb` in its loop, the one that dominates the other
/// and branches to `bb` on a condition; null if neither does.
static BranchInst *DecidingBranch(BasicBlock &bb, ArrayRef<BasicBlock *> preds,
                                  DominatorTree &dt, LoopInfo &li) {
  if (preds.size() != 2)
    return nullptr;
  Loop *l = li.getLoopFor(&bb);
  if (li.getLoopFor(preds[0]) != l || li.getLoopFor(preds[1]) != l)
    return nullptr;
  for (unsigned k = 0; k < 2; ++k) {
    auto *br = dyn_cast<BranchInst>(preds[k]->getTerminator());
    if (br && br->isConditional() &&
        (br->getSuccessor(0) == &bb) != (br->getSuccessor(1) == &bb) &&
        dt.dominates(preds[k], preds[1 - k]))
      return br;
  }
  return nullptr;
}

Value *ReverseEmitter::RecoverComeFrom(BasicBlock &bb,
                                       ArrayRef<BasicBlock *> preds) {
  // The deciding predecessor's last decision tells: it branched to `bb`
  // (came from it), or away, after which `bb` is reached only through the
  // other predecessor. Its condition is used when it can be recomputed.
  if (BranchInst *br = DecidingBranch(bb, preds, *dt_, *li_);
      br && CanRecompute(br->getCondition(), 0)) {
    unsigned self = br->getParent() == preds[0] ? 0 : 1;
    Value *cond = Lookup(br->getCondition());
    Type *i32 = rb_.getInt32Ty();
    Value *whenTrue = ConstantInt::get(
        i32, br->getSuccessor(0) == &bb ? self : 1 - self);
    Value *whenFalse = ConstantInt::get(
        i32, br->getSuccessor(1) == &bb ? self : 1 - self);
    return rb_.CreateSelect(cond, whenTrue, whenFalse, "from.decided");
  }
  return Lookup(ComeFrom(bb));
}

Value *ReverseEmitter::ComeFrom(BasicBlock &bb) {
  PHINode *&from = come_from_[&bb];
  if (from)
    return from;
  SetVector<BasicBlock *> preds(pred_begin(&bb), pred_end(&bb));
  Type *i32 = Type::getInt32Ty(out_.getContext());
  from = PHINode::Create(i32, pred_size(&bb), "from");
  from->insertBefore(bb.begin());
  for (BasicBlock *pred : predecessors(&bb)) {
    unsigned index = 0;
    while (preds[index] != pred)
      ++index;
    from->addIncoming(ConstantInt::get(i32, index), pred);
  }
  return from;
}

absl::Status ReverseEmitter::EmitReverseBlock(BasicBlock &bb) {
  BeginRegion(reverse_of_[&bb], &bb);
  EmitRefills(bb);
  const std::vector<Instruction *> &insts = primal_insts_[&bb];
  SmallVector<PHINode *, 8> phis;
  for (Instruction *i : llvm::reverse(insts)) {
    if (auto *phi = dyn_cast<PHINode>(i)) {
      phis.push_back(phi);
      continue;
    }
    rb_.SetCurrentDebugLocation(i->getDebugLoc());
    AD_RETURN_IF_ERROR(visit(*i));
    AD_RETURN_IF_ERROR(lookup_error_);
  }
  rb_.SetCurrentDebugLocation(DebugLoc());
  AD_RETURN_IF_ERROR(CheckTerminator(*bb.getTerminator()));
  if (&bb == &out_.getEntryBlock()) {
    rb_.CreateBr(final_);
    return absl::OkStatus();
  }
  // The phis' adjoints, read once and cleared: edges pass them on.
  SmallVector<Value *, 8> phiAdjoints;
  for (PHINode *phi : phis)
    phiAdjoints.push_back(HasAdjoint(phi) ? TakeAdjoint(phi) : nullptr);

  BasicBlock *here = rb_.GetInsertBlock();
  if (Loop *l = li_->getLoopFor(&bb); l && l->getHeader() == &bb) {
    LoopTape &t = tapes_[l];
    Value *k = rb_.CreateLoad(rb_.getInt64Ty(), t.reverse_counter);
    Value *first = rb_.CreateICmpEQ(k, rb_.getInt64(0), "first.iter");
    BasicBlock *toPreheader = ReverseEdge(bb, *t.preheader, phis, phiAdjoints);
    BasicBlock *toLatch = ReverseEdge(bb, *t.latch, phis, phiAdjoints);
    IRBuilder<> lb(&*toLatch->getFirstInsertionPt());
    lb.CreateStore(lb.CreateSub(k, lb.getInt64(1)), t.reverse_counter);
    IRBuilder<>(here).CreateCondBr(first, toPreheader, toLatch);
    return absl::OkStatus();
  }
  SetVector<BasicBlock *> preds(pred_begin(&bb), pred_end(&bb));
  if (preds.size() == 1) {
    BasicBlock *edge = ReverseEdge(bb, *preds[0], phis, phiAdjoints);
    IRBuilder<>(here).CreateBr(edge);
    return absl::OkStatus();
  }
  rb_.SetInsertPoint(here);
  Value *from = RecoverComeFrom(bb, preds.getArrayRef());
  here = rb_.GetInsertBlock(); // A value read again may have branched.
  SmallVector<BasicBlock *, 4> edges;
  for (BasicBlock *pred : preds)
    edges.push_back(ReverseEdge(bb, *pred, phis, phiAdjoints));
  IRBuilder<> sb(here);
  SwitchInst *sw = sb.CreateSwitch(from, edges[0], edges.size() - 1);
  for (unsigned k = 1; k < edges.size(); ++k)
    sw->addCase(sb.getInt32(k), edges[k]);
  return absl::OkStatus();
}

/// Terminators that compute something: an `invoke` left after inlining
/// (to a function without body) is supported only when it touches no
/// active data.
absl::Status ReverseEmitter::CheckTerminator(Instruction &term) {
  auto *inv = dyn_cast<InvokeInst>(&term);
  if (!inv || IsInactiveCall(*inv))
    return absl::OkStatus();
  if (!TouchesActiveData(*inv))
    return absl::OkStatus();
  Function *callee = CalledFunction(*inv);
  if (callee && callee->isDeclaration())
    return Unsupported(term, "an invoke (a call that may throw) of `" +
                                 callee->getName().str() +
                                 "`, which has no body and no derivative "
                                 "rule, on active data");
  return Unsupported(term, "an invoke (a call that may throw) on active "
                           "data that could not be inlined");
  return absl::OkStatus();
}

BasicBlock *ReverseEmitter::ReverseEdge(BasicBlock &bb, BasicBlock &pred,
                                        ArrayRef<PHINode *> phis,
                                        ArrayRef<Value *> phi_adjoints) {
  BasicBlock *edge = BasicBlock::Create(
      out_.getContext(), "rev." + bb.getName() + ".from." + pred.getName(),
      &out_);
  BeginRegion(edge, &bb);
  for (unsigned k = 0; k < phis.size(); ++k)
    if (phi_adjoints[k])
      AddAdjoint(phis[k]->getIncomingValueForBlock(&pred), phi_adjoints[k]);
  SmallVector<Loop *, 2> exited;
  for (Loop *l = li_->getLoopFor(&pred); l && !l->contains(&bb);
       l = l->getParentLoop())
    exited.push_back(l);
  for (Loop *l : llvm::reverse(exited))
    EnterLoopBackwards(tapes_[l], bb);
  rb_.CreateBr(reverse_of_[&pred]);
  return edge;
}

void ReverseEmitter::EnterLoopBackwards(LoopTape &t, BasicBlock &exit) {
  Type *i64 = rb_.getInt64Ty();
  // The trip count: computed again from the backedge count where scalar
  // evolution knows it (whichever exit was taken), else from its cache.
  Value *trips = nullptr;
  if (t.backedge_count && CanRecomputeSCEV(t.backedge_count, 0)) {
    Value *btc = RecomputeSCEV(t.backedge_count,
                               t.backedge_count->getType(), 0);
    trips = rb_.CreateAdd(rb_.CreateZExtOrTrunc(btc, i64),
                          ConstantInt::get(i64, 1), "trips");
  } else {
    trips = Lookup(t.exit_trip_counts[&exit]);
  }
  Value *base = rb_.CreateSub(rb_.CreateLoad(i64, t.total), trips);
  rb_.CreateStore(base, t.total);
  rb_.CreateStore(base, t.reverse_base);
  rb_.CreateStore(rb_.CreateSub(trips, ConstantInt::get(i64, 1)),
                  t.reverse_counter);
}

void ReverseEmitter::EmitFinalReturn() {
  BeginRegion(final_, &out_.getEntryBlock());
  RedoStores();
  ReleaseRecordedShadows();
  // The count of running derivatives (DeferredReleases.cpp; not in GPU
  // kernels, which have no thread-local storage).
  if (!gpu_) {
    IRBuilder<> eb(&*out_.getEntryBlock().getFirstInsertionPt());
    EmitEnterDerivative(eb);
    EmitLeaveDerivative(rb_);
  }
  SmallVector<Value *, 5> leaves;
  if (req_.return_primal)
    leaves.push_back(
        primal_result_
            ? static_cast<Value *>(rb_.CreateLoad(
                  primal_result_->getAllocatedType(), primal_result_))
            : PoisonValue::get(req_.fn->getReturnType()));
  unsigned pos = 0;
  for (ArgActivity act : req_.args) {
    Argument *a = out_.getArg(pos++);
    if (act == ArgActivity::Dup || act == ArgActivity::DupNoNeed)
      ++pos;
    if (act == ArgActivity::Out)
      leaves.push_back(HasAdjoint(a) ? TakeAdjoint(a)
                                     : Constant::getNullValue(a->getType()));
  }
  if (leaves.empty()) {
    rb_.CreateRetVoid();
    return;
  }
  if (leaves.size() == 1) {
    rb_.CreateRet(leaves[0]);
    return;
  }
  Value *agg = PoisonValue::get(out_.getReturnType());
  for (unsigned k = 0; k < leaves.size(); ++k)
    agg = rb_.CreateInsertValue(agg, leaves[k], {k});
  rb_.CreateRet(agg);
}

} // namespace autodiff
