//===- enzyme_bridge/GpuSharedAccesses.cpp - Private shared accesses ------===//
//
// See GpuSharedAccesses.h.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/GpuSharedAccesses.h"

#include "enzyme_bridge/GpuKernels.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

namespace autodiff {

using namespace llvm;
using namespace llvm::PatternMatch;

namespace {

constexpr unsigned kSharedAddressSpace = 3;

/// `__syncthreads()` and its reducing forms: every thread of the block
/// executes the same call (aligned), which is what makes phases.
bool IsPhaseBarrier(const Instruction &i) {
  const auto *ii = dyn_cast<IntrinsicInst>(&i);
  if (!ii)
    return false;
  switch (ii->getIntrinsicID()) {
  case Intrinsic::nvvm_barrier_cta_sync_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_and_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_or_aligned_all:
  case Intrinsic::nvvm_barrier_cta_red_popc_aligned_all:
    return true;
  default:
    return false;
  }
}

/// A block-wide barrier that is not aligned (threads may meet at different
/// calls): phases cannot be told apart.
bool IsOtherBlockBarrier(const Instruction &i) {
  const auto *call = dyn_cast<CallBase>(&i);
  return call && IsBarrierCall(*call) && !IsPhaseBarrier(i) &&
         !IsIntrinsic(&i, Intrinsic::nvvm_bar_warp_sync);
}

enum class Kind { Tid, TidPlus, Constant, Unknown };

struct Access {
  const Instruction *inst;
  Kind kind = Kind::Unknown;
  const Value *stride = nullptr; // TidPlus: the s of t + s.
  int64_t element = 0;           // Constant: the element.
  const Value *below = nullptr;  // Guard threadIdx.x < below.
  std::optional<int64_t> only;   // Guard threadIdx.x == only.
};

class SharedPrivacy {
public:
  explicit SharedPrivacy(Function &f) : f_(f), dt_(f), li_(dt_) {}

  void Run(SmallPtrSetImpl<const Instruction *> &out) {
    for (BasicBlock &bb : f_)
      for (Instruction &i : bb)
        if (IsOtherBlockBarrier(i))
          return;
    for (GlobalVariable &g : f_.getParent()->globals()) {
      if (g.getAddressSpace() != kSharedAddressSpace)
        continue;
      SmallVector<Access, 16> accesses;
      if (!Collect(g, accesses))
        continue;
      for (Access &a : accesses)
        Classify(a);
      for (const Access &a : accesses)
        if (none_of(accesses,
                    [&](const Access &b) { return Conflict(a, b); }))
          out.insert(a.inst);
    }
  }

private:
  /// The accesses of `f_` to `g`, with their index (an access at an
  /// address of another shape is Unknown); false when `g`'s address goes
  /// anywhere but to loads and stores, or they access it as different
  /// types.
  bool Collect(GlobalVariable &g, SmallVectorImpl<Access> &out) {
    Type *element = nullptr;
    auto sameElement = [&](Type *t) {
      if (!element)
        element = t;
      return element == t;
    };
    struct Address {
      const Value *ptr;
      const Value *index; // Null for element 0.
      bool unknown;       // An address of a shape not followed.
    };
    SmallVector<Address, 8> work = {{&g, nullptr, false}};
    const DataLayout &dl = f_.getParent()->getDataLayout();
    while (!work.empty()) {
      Address at = work.pop_back_val();
      const Value *p = at.ptr;
      for (const User *u : p->users()) {
        if (const auto *ce = dyn_cast<ConstantExpr>(u)) {
          bool cast = ce->getOpcode() == Instruction::AddrSpaceCast ||
                      ce->getOpcode() == Instruction::BitCast;
          const auto *gep = dyn_cast<GEPOperator>(ce);
          APInt off(64, 0);
          if (!cast && !gep)
            return false;
          if (cast && !at.index) {
            work.push_back({ce, nullptr, at.unknown});
          } else if (gep && !at.index && !at.unknown &&
                     gep->getPointerOperand() == p &&
                     gep->accumulateConstantOffset(dl, off)) {
            // A constant element: its number is known from the access's
            // size.
            constants_[ce] = off.getSExtValue();
            work.push_back({ce, ce, false});
          } else {
            work.push_back({ce, nullptr, true});
          }
          continue;
        }
        const auto *ui = dyn_cast<Instruction>(u);
        if (!ui)
          return false;
        if (ui->getFunction() != &f_)
          continue;
        if (isa<AddrSpaceCastInst>(ui) || isa<BitCastInst>(ui)) {
          work.push_back({ui, nullptr, at.unknown || at.index});
          continue;
        }
        if (const auto *gep = dyn_cast<GetElementPtrInst>(ui)) {
          APInt off(64, 0);
          if (!at.index && !at.unknown && gep->getPointerOperand() == p &&
              gep->accumulateConstantOffset(dl, off)) {
            constants_[gep] = off.getSExtValue(); // As for a constant GEP.
            work.push_back({gep, gep, false});
            continue;
          }
          bool shapeOk =
              !at.index && !at.unknown && gep->getPointerOperand() == p &&
              (gep->getNumIndices() == 1 ||
               (gep->getNumIndices() == 2 &&
                match(gep->getOperand(1), m_Zero()) &&
                isa<ArrayType>(gep->getSourceElementType())));
          Type *t = gep->getSourceElementType();
          if (auto *at = dyn_cast<ArrayType>(t); at && gep->getNumIndices() == 2)
            t = at->getElementType();
          if (shapeOk && !sameElement(t))
            return false;
          if (shapeOk)
            work.push_back({gep, gep->getOperand(gep->getNumIndices()), false});
          else if (gep->getPointerOperand() == p)
            work.push_back({gep, nullptr, true});
          else
            return false; // The address is an index.
          continue;
        }
        Type *t = nullptr;
        if (const auto *ld = dyn_cast<LoadInst>(ui))
          t = ld->getType();
        else if (const auto *st = dyn_cast<StoreInst>(ui);
                 st && st->getPointerOperand() == p)
          t = st->getValueOperand()->getType();
        else if (const auto *rmw = dyn_cast<AtomicRMWInst>(ui);
                 rmw && rmw->getPointerOperand() == p)
          t = rmw->getType();
        if (!t)
          return false;
        Access a;
        a.inst = ui;
        if (at.unknown) {
          out.push_back(a); // Kind::Unknown.
          continue;
        }
        if (!sameElement(t))
          return false;
        if (!at.index) {
          a.kind = Kind::Constant;
        } else if (auto it = constants_.find(at.index);
                   it != constants_.end()) {
          int64_t bytes = static_cast<int64_t>(dl.getTypeStoreSize(t));
          if (bytes == 0 || it->second % bytes != 0)
            return false;
          a.kind = Kind::Constant;
          a.element = it->second / bytes;
        } else {
          indices_[ui] = at.index;
        }
        out.push_back(a);
      }
    }
    return true;
  }

  void Classify(Access &a) {
    Guards(a);
    auto it = indices_.find(a.inst);
    if (it == indices_.end())
      return; // Constant, classified when collected.
    const Value *index = it->second;
    if (const auto *c = dyn_cast<ConstantInt>(index)) {
      a.kind = Kind::Constant;
      a.element = c->getSExtValue();
      return;
    }
    if (IsThreadIndex(index)) {
      a.kind = Kind::Tid;
      return;
    }
    const Value *x = nullptr, *y = nullptr;
    if (match(StripExtensions(index), m_AddLike(m_Value(x), m_Value(y)))) {
      const Value *s = IsThreadIndex(x) ? y : IsThreadIndex(y) ? x : nullptr;
      if (s && a.below == s && PhaseUniform(s)) {
        a.kind = Kind::TidPlus;
        a.stride = s;
        return;
      }
    }
    a.kind = Kind::Unknown;
  }

  /// The guards on threadIdx.x that hold where `a` runs: conditions of
  /// branches whose edge dominates its block.
  void Guards(Access &a) {
    const BasicBlock *bb = a.inst->getParent();
    DomTreeNode *node = dt_.getNode(bb);
    for (DomTreeNode *up = node ? node->getIDom() : nullptr; up;
         up = up->getIDom()) {
      const auto *br = dyn_cast<BranchInst>(up->getBlock()->getTerminator());
      const ICmpInst *cmp =
          br && br->isConditional() ? dyn_cast<ICmpInst>(br->getCondition())
                                    : nullptr;
      if (!cmp)
        continue;
      for (unsigned k = 0; k < 2; ++k) {
        BasicBlockEdge edge(up->getBlock(), br->getSuccessor(k));
        if (br->getSuccessor(0) == br->getSuccessor(1) ||
            !dt_.dominates(edge, bb))
          continue;
        CmpInst::Predicate p = k == 0 ? cmp->getPredicate()
                                      : cmp->getInversePredicate();
        Record(a, p, cmp->getOperand(0), cmp->getOperand(1));
      }
    }
  }

  void Record(Access &a, CmpInst::Predicate p, const Value *l,
              const Value *r) {
    if (!IsThreadIndex(l)) {
      std::swap(l, r);
      p = CmpInst::getSwappedPredicate(p);
    }
    if (!IsThreadIndex(l) || IsThreadIndex(r))
      return;
    if ((p == CmpInst::ICMP_ULT || p == CmpInst::ICMP_SLT) && !a.below)
      a.below = r;
    if (const auto *c = dyn_cast<ConstantInt>(r);
        c && p == CmpInst::ICMP_EQ && !a.only)
      a.only = c->getSExtValue();
  }

  /// Whether `v` is the same in every thread of the block in any one
  /// phase: constants, parameters the same in every thread, block and grid
  /// sizes, the block index, arithmetic of those, and a loop's induction
  /// variable over such values when the loop meets at a barrier each
  /// iteration and leaves on such a condition.
  bool PhaseUniform(const Value *v, unsigned depth = 0) {
    if (depth > 12)
      return false;
    if (isa<Constant>(v) || isa<Argument>(v))
      return isa<Constant>(v) || IsLaunchUniform(v);
    // Sizes and the block's index; not the thread's own index.
    if (IsLaunchIndex(v) &&
        !IsIntrinsic(v, Intrinsic::nvvm_read_ptx_sreg_tid_x) &&
        !IsIntrinsic(v, Intrinsic::nvvm_read_ptx_sreg_tid_y) &&
        !IsIntrinsic(v, Intrinsic::nvvm_read_ptx_sreg_tid_z))
      return true;
    const auto *i = dyn_cast<Instruction>(v);
    if (!i || isa<CallBase>(i) || i->mayReadOrWriteMemory())
      return false;
    if (const auto *phi = dyn_cast<PHINode>(i)) {
      auto [it, fresh] = uniform_phis_.try_emplace(phi, true);
      if (!fresh)
        return it->second; // Assumed while its cycle is checked.
      bool ok = HeaderPhiUniform(*phi, depth);
      uniform_phis_[phi] = ok;
      return ok;
    }
    for (const Value *op : i->operands())
      if (!PhaseUniform(op, depth + 1))
        return false;
    return true;
  }

  bool HeaderPhiUniform(const PHINode &phi, unsigned depth) {
    const Loop *l = li_.getLoopFor(phi.getParent());
    if (!l || l->getHeader() != phi.getParent())
      return false;
    // Each iteration must meet at a barrier (one that every way around the
    // loop passes): then all threads are in the same iteration in a phase.
    SmallVector<BasicBlock *, 2> latches;
    l->getLoopLatches(latches);
    bool meets = any_of(l->blocks(), [&](const BasicBlock *bb) {
      return any_of(*bb,
                    [](const Instruction &i) { return IsPhaseBarrier(i); }) &&
             all_of(latches, [&](const BasicBlock *latch) {
               return dt_.dominates(bb, latch);
             });
    });
    if (!meets)
      return false;
    for (const Value *in : phi.incoming_values())
      if (!PhaseUniform(in, depth + 1))
        return false;
    SmallVector<BasicBlock *, 4> exiting;
    l->getExitingBlocks(exiting);
    for (const BasicBlock *bb : exiting) {
      const auto *br = dyn_cast<BranchInst>(bb->getTerminator());
      if (!br || (br->isConditional() &&
                  !PhaseUniform(br->getCondition(), depth + 1)))
        return false;
    }
    return true;
  }

  /// Whether `a` and `b` may touch one element from two different threads
  /// in one phase.
  bool Conflict(const Access &a, const Access &b) {
    if (!MayTouchSame(a, b))
      return false;
    return Concurrent(a.inst, b.inst);
  }

  static bool MayTouchSame(const Access &a, const Access &b) {
    if (a.kind == Kind::Unknown || b.kind == Kind::Unknown)
      return true;
    if (a.kind == Kind::Constant && b.kind != Kind::Constant)
      return ConstantMeets(a, b);
    if (b.kind == Kind::Constant && a.kind != Kind::Constant)
      return ConstantMeets(b, a);
    if (a.kind == Kind::Constant) { // Both constant.
      if (a.element != b.element)
        return false;
      return !(a.only && b.only && *a.only == *b.only);
    }
    if (a.kind == Kind::Tid && b.kind == Kind::Tid)
      return false;
    if (a.kind == Kind::TidPlus && b.kind == Kind::TidPlus)
      return a.stride != b.stride;
    const Access &t = a.kind == Kind::Tid ? a : b;
    const Access &s = a.kind == Kind::Tid ? b : a;
    return t.below != s.stride;
  }

  /// Constant access `c` against a thread-indexed access `x`.
  static bool ConstantMeets(const Access &c, const Access &x) {
    if (!c.only)
      return x.kind == Kind::Tid || c.element != 0;
    if (x.kind == Kind::Tid)
      return c.element != *c.only;
    return c.element != 0; // t + s with t < s is never 0.
  }

  /// Whether two threads may be at `a` and `b` in one phase: one reaches
  /// the other without crossing a barrier, or threads that took different
  /// ways at a branch not the same in all of them reach one each.
  bool Concurrent(const Instruction *a, const Instruction *b) {
    if (a == b || Reaches(a, b) || Reaches(b, a))
      return true;
    for (BasicBlock &bb : f_) {
      const Instruction *term = bb.getTerminator();
      const Value *cond = nullptr;
      if (const auto *br = dyn_cast<BranchInst>(term);
          br && br->isConditional())
        cond = br->getCondition();
      else if (const auto *sw = dyn_cast<SwitchInst>(term))
        cond = sw->getCondition();
      else if (term->getNumSuccessors() < 2)
        continue;
      if (cond && PhaseUniform(cond))
        continue;
      for (const BasicBlock *s1 : successors(&bb))
        for (const BasicBlock *s2 : successors(&bb))
          if (s1 != s2 && ReachesFromStart(s1, a) && ReachesFromStart(s2, b))
            return true;
    }
    return false;
  }

  /// Whether `to` runs after `from` with no barrier between them.
  bool Reaches(const Instruction *from, const Instruction *to) {
    for (auto it = std::next(from->getIterator());
         it != from->getParent()->end(); ++it) {
      if (&*it == to)
        return true;
      if (IsPhaseBarrier(*it))
        return false;
    }
    for (const BasicBlock *s : successors(from->getParent()))
      if (ReachesFromStart(s, to))
        return true;
    return false;
  }

  bool ReachesFromStart(const BasicBlock *start, const Instruction *to) {
    auto key = std::make_pair(start, to);
    if (auto it = reach_.find(key); it != reach_.end())
      return it->second;
    SmallPtrSet<const BasicBlock *, 32> seen;
    SmallVector<const BasicBlock *, 32> work = {start};
    bool found = false;
    while (!work.empty() && !found) {
      const BasicBlock *bb = work.pop_back_val();
      if (!seen.insert(bb).second)
        continue;
      bool blocked = false;
      for (const Instruction &i : *bb) {
        if (&i == to) {
          found = true;
          break;
        }
        if (IsPhaseBarrier(i)) {
          blocked = true;
          break;
        }
      }
      if (!blocked && !found)
        for (const BasicBlock *s : successors(bb))
          work.push_back(s);
    }
    reach_[key] = found;
    return found;
  }

  Function &f_;
  DominatorTree dt_;
  LoopInfo li_;
  DenseMap<const Value *, int64_t> constants_;
  DenseMap<const Instruction *, const Value *> indices_;
  DenseMap<const PHINode *, bool> uniform_phis_;
  DenseMap<std::pair<const BasicBlock *, const Instruction *>, bool> reach_;
};

} // namespace

void AddPrivateSharedAccesses(Function &f,
                              SmallPtrSetImpl<const Instruction *> &out) {
  SharedPrivacy(f).Run(out);
}

} // namespace autodiff
