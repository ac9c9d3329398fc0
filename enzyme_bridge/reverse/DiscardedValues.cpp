//===- enzyme_bridge/reverse/DiscardedValues.cpp - Strong zeros -----------===//
//
// Code the primal runs and then throws away (both arms of a select, a
// division hoisted above its guard, vector lanes past a loop's end, the
// operand fmin does not choose, a value stored and never read back) gets
// a zero adjoint, while its partials may be NaN or infinite: 0 * NaN
// would poison real adjoints. FindDiscardable finds such values,
// FindMaybeNonFinite those that may hold or make a NaN or infinity, and
// NeedsStrongZero tells ApplyRule where a zero adjoint must contribute
// exactly zero.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace autodiff {

/// Computation through which a zero adjoint reaches the operands: the
/// floating-point arithmetic, conversions and math calls of the rule
/// table, and moves between vector lanes (two scalars packed into a
/// vector for one maxnum).
static bool PassesZero(const Value *v) {
  const auto *i = dyn_cast<Instruction>(v);
  if (!i || !i->getType()->isFPOrFPVectorTy())
    return false;
  if (isa<UnaryOperator>(i) || isa<BinaryOperator>(i) || isa<FPExtInst>(i) ||
      isa<FPTruncInst>(i) || isa<InsertElementInst>(i) ||
      isa<ExtractElementInst>(i) || isa<ShuffleVectorInst>(i))
    return true;
  const auto *call = dyn_cast<CallInst>(i);
  return call && FindRule(*call);
}

/// Whether every run of `v`'s definition goes on to `phi_block` through
/// `from` (a chain of blocks with one successor each): the branch that
/// computed `v` is the one the phi takes, so `v` is never discarded there.
static bool AlwaysReaches(const Value *v, const BasicBlock *from,
                          const BasicBlock *phi_block) {
  const auto *def = dyn_cast<Instruction>(v);
  if (!def)
    return true;
  const BasicBlock *bb = def->getParent();
  for (unsigned steps = 0; steps < 16; ++steps) {
    const BasicBlock *next = bb->getSingleSuccessor();
    if (bb == from)
      return next == phi_block;
    if (!next)
      return false;
    bb = next;
  }
  return false;
}

SmallVector<bool, 16> DeadShuffleLanes(const ShuffleVectorInst &sv) {
  SmallVector<bool, 16> dead(sv.getShuffleMask().size(), false);
  if (const MDNode *md = sv.getMetadata(kDeadLanesMetadata))
    for (const MDOperand &op : md->operands())
      if (auto *c = mdconst::dyn_extract<ConstantInt>(op))
        if (c->getZExtValue() < dead.size())
          dead[c->getZExtValue()] = true;
  return dead;
}

/// Whether only shuffles and extractions use vector `v`, and together
/// they leave some of its lanes out.
static bool LeavesLanesOut(const Value &v) {
  const auto *vt = dyn_cast<FixedVectorType>(v.getType());
  if (!vt || v.use_empty())
    return false;
  unsigned n = vt->getNumElements();
  SmallVector<bool, 16> used(n, false);
  for (const Use &u : v.uses()) {
    if (const auto *ee = dyn_cast<ExtractElementInst>(u.getUser())) {
      const auto *c = dyn_cast<ConstantInt>(ee->getIndexOperand());
      if (!c)
        return false; // Any lane.
      if (c->getZExtValue() < n)
        used[c->getZExtValue()] = true;
      continue;
    }
    const auto *sv = dyn_cast<ShuffleVectorInst>(u.getUser());
    if (!sv || sv->getOperand(0)->getType() != vt)
      return false;
    unsigned base = u.getOperandNo() == 0 ? 0 : n;
    SmallVector<bool, 16> dead = DeadShuffleLanes(*sv);
    ArrayRef<int> mask = sv->getShuffleMask();
    for (unsigned lane = 0; lane < mask.size(); ++lane)
      if (!dead[lane] && mask[lane] >= int(base) && mask[lane] < int(base + n))
        used[mask[lane] - base] = true;
  }
  return !all_of(used, [](bool b) { return b; });
}

/// The values of the body whose adjoint may be exactly zero because the
/// primal computed them and then discarded them: arms of a select, inputs
/// of a phi that joins branches (not a loop's header), the operands of a
/// minimum or maximum, vector lanes a shuffle, an extraction or a masked
/// store leaves out, values hoisted above the guard of their uses (used
/// in a block that does not always follow theirs), values stored to
/// memory, and what those are computed from.
/// Code that computes both arms and keeps one (`x < 0 ? -pow(-x, 1/3) :
/// pow(x, 1/3)`, `if (a > 0.5) s += sqrt(a)` as `select(c, s + sqrt(a),
/// s)`, a vectorized loop's lanes past the end, masked off and divided by
/// zero) gives the discarded part a zero adjoint while the partials inside
/// it may be NaN or infinite; their contributions must be zero, not
/// 0 * NaN.
void ReverseEmitter::FindDiscardable() {
  discardable_.emplace();
  SmallVector<const Value *, 32> work;
  auto add = [&](const Value *v) {
    if (isa<Instruction>(v) && v->getType()->isFPOrFPVectorTy() &&
        discardable_->insert(v).second)
      work.push_back(v);
  };
  // Hoisted code: a value used in a block that does not always follow
  // its own (`1 / d` hoisted out of a guarded loop body) may be computed
  // and never used.
  PostDominatorTree pdt(out_);
  for (BasicBlock *bb : blocks_)
    for (Instruction *i : primal_insts_[bb]) {
      if (!i->getType()->isFPOrFPVectorTy())
        continue;
      for (const User *u : i->users()) {
        const auto *ui = dyn_cast<Instruction>(u);
        if (ui && ui->getParent() != bb && !isa<PHINode>(ui) &&
            !pdt.dominates(ui->getParent(), bb)) {
          add(i);
          break;
        }
      }
    }
  for (BasicBlock *bb : blocks_)
    for (Instruction *i : primal_insts_[bb]) {
      // A value stored to memory may never be read back, or read and
      // then discarded (a Vec of square roots filtered by is_nan).
      if (auto *st = dyn_cast<StoreInst>(i)) {
        add(st->getValueOperand());
        continue;
      }
      // The lanes a masked store leaves out; the operand a minimum or
      // maximum does not choose (fmin(a, sqrt(b)) at b < 0 is a).
      if (auto *ii = dyn_cast<IntrinsicInst>(i)) {
        switch (ii->getIntrinsicID()) {
        case Intrinsic::masked_store:
        case Intrinsic::masked_scatter:
          add(ii->getArgOperand(0));
          break;
        case Intrinsic::minnum:
        case Intrinsic::maxnum:
        case Intrinsic::minimum:
        case Intrinsic::maximum:
        case Intrinsic::minimumnum:
        case Intrinsic::maximumnum:
          add(ii->getArgOperand(0));
          add(ii->getArgOperand(1));
          break;
        default:
          break;
        }
      } else if (auto *call = dyn_cast<CallInst>(i)) {
        Function *callee = call->getCalledFunction();
        StringRef name = callee ? callee->getName() : "";
        if (call->arg_size() == 2 &&
            (name == "fmin" || name == "fmax" || name == "fminf" ||
             name == "fmaxf")) {
          add(call->getArgOperand(0));
          add(call->getArgOperand(1));
        }
      }
      if (auto *sel = dyn_cast<SelectInst>(i)) {
        add(sel->getTrueValue());
        add(sel->getFalseValue());
      } else if (auto *phi = dyn_cast<PHINode>(i)) {
        if (!li_->isLoopHeader(bb))
          for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k)
            if (!AlwaysReaches(phi->getIncomingValue(k),
                               phi->getIncomingBlock(k), bb))
              add(phi->getIncomingValue(k));
      }
      if (i->getType()->isVectorTy() && LeavesLanesOut(*i))
        add(i);
    }
  while (!work.empty()) {
    const Value *v = work.pop_back_val();
    if (!PassesZero(v))
      continue;
    for (const Value *op : cast<Instruction>(v)->operands())
      add(op);
  }
  FindMaybeNonFinite();
}

/// Whether `i` may compute a NaN or infinity, or have such a partial, from
/// finite operands: divisions, and math calls other than those bounded
/// or piecewise linear.
static bool MakesNonFinite(const Instruction &i) {
  if (i.getOpcode() == Instruction::FDiv || i.getOpcode() == Instruction::FRem)
    return true;
  const auto *call = dyn_cast<CallInst>(&i);
  if (!call || !i.getType()->isFPOrFPVectorTy())
    return false;
  switch (call->getIntrinsicID()) {
  case Intrinsic::fabs:
  case Intrinsic::copysign:
  case Intrinsic::minnum:
  case Intrinsic::maxnum:
  case Intrinsic::minimum:
  case Intrinsic::maximum:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::round:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::sin:
  case Intrinsic::cos:
    return false;
  default:
    return true;
  }
}

/// The discardable values that may hold a NaN or infinity computed in
/// the function (MakesNonFinite, or arithmetic on such a value): only
/// their uses' partials, and the partials of MakesNonFinite operations,
/// need a strong zero (a ReLU's discarded dot product does not).
void ReverseEmitter::FindMaybeNonFinite() {
  maybe_non_finite_.emplace();
  auto non_finite = [&](const Instruction &i) {
    if (MakesNonFinite(i))
      return true;
    if (!PassesZero(&i) && !isa<PHINode>(i) && !isa<SelectInst>(i) &&
        !isa<ShuffleVectorInst>(i) && !isa<InsertElementInst>(i) &&
        !isa<ExtractElementInst>(i))
      return false;
    return any_of(i.operands(), [&](const Value *op) {
      return maybe_non_finite_->count(op) != 0;
    });
  };
  // Twice: a loop's phis see what the loop computes.
  for (int round = 0; round < 2; ++round)
    for (BasicBlock *bb : blocks_)
      for (Instruction *i : primal_insts_[bb])
        if (i->getType()->isFPOrFPVectorTy() && non_finite(*i))
          maybe_non_finite_->insert(i);
}

/// Whether a zero adjoint of `i` must contribute exactly zero to its
/// operands (FindDiscardable): `i` may be discarded, and its partials may
/// not be finite.
bool ReverseEmitter::NeedsStrongZero(const Instruction &i) {
  unsigned opcode = i.getOpcode();
  if (opcode == Instruction::FAdd || opcode == Instruction::FSub ||
      opcode == Instruction::FNeg)
    return false; // Partials of plus or minus one.
  // (ComputeAnalyses found them, on the primal's control flow.)
  if (!discardable_->count(&i))
    return false;
  return MakesNonFinite(i) || any_of(i.operands(), [&](const Value *op) {
           return maybe_non_finite_->count(op) != 0;
         });
}

} // namespace autodiff
