//===- enzyme_bridge/reverse/DynamicAllocas.cpp - Stack arrays to the heap -===//
#include "enzyme_bridge/reverse/DynamicAllocas.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Whether values of type `t` may hold active data or its addresses.
bool MayHoldActive(Type *t) {
  if (t->isFPOrFPVectorTy() || t->isPtrOrPtrVectorTy())
    return true;
  if (auto *st = dyn_cast<StructType>(t))
    return any_of(st->elements(), MayHoldActive);
  if (auto *at = dyn_cast<ArrayType>(t))
    return MayHoldActive(at->getElementType());
  return false;
}

/// The last `llvm.stacksave` made before `a` on every path to it (up its
/// block, then the blocks that dominate it), whose restores end `a`'s
/// scope: a restore frees everything allocated after its save (a VLA
/// after an unrolled inner loop's own scope, a second VLA, a 2-D VLA
/// whose size is computed after the save), skipping saves restored on the
/// way (an unrolled iteration's). Null if none.
IntrinsicInst *SavedBefore(AllocaInst &a, const DominatorTree &dt) {
  Instruction *i = a.getPrevNode();
  DomTreeNode *node = dt.getNode(a.getParent());
  // Saves whose scope closed before `a` (restored on the way).
  SmallPtrSet<const Value *, 4> closed;
  while (node) {
    for (; i; i = i->getPrevNode()) {
      auto *ii = dyn_cast<IntrinsicInst>(i);
      if (ii && ii->getIntrinsicID() == Intrinsic::stackrestore)
        closed.insert(ii->getArgOperand(0));
      if (ii && ii->getIntrinsicID() == Intrinsic::stacksave &&
          !closed.count(ii))
        return ii;
    }
    node = node->getIDom();
    if (node)
      i = node->getBlock()->getTerminator();
  }
  return nullptr;
}

/// The restores of `save` (also through phis joining it with the saves of
/// other paths, as unrolled loops do), none after `a` in its block. (What
/// each frees is the allocation where it was made on the way there, null
/// where not.)
bool RestoresOf(IntrinsicInst &save, AllocaInst &a,
                SmallVectorImpl<IntrinsicInst *> &out) {
  SmallVector<Value *, 4> work = {&save};
  SmallPtrSet<Value *, 8> seen;
  while (!work.empty()) {
    Value *v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (User *u : v->users()) {
      if (isa<PHINode>(u)) {
        work.push_back(u);
        continue;
      }
      auto *r = dyn_cast<IntrinsicInst>(u);
      if (!r || r->getIntrinsicID() != Intrinsic::stackrestore)
        return false;
      // In `a`'s block: before `a`, it ends an earlier array's scope (an
      // unrolled loop reusing one save); after, it is not handled.
      if (r->getParent() == a.getParent()) {
        if (!r->comesBefore(&a))
          return false;
        continue;
      }
      out.push_back(r);
    }
  }
  return true;
}

} // namespace

void MoveDynamicAllocasToHeap(Function &f) {
  DominatorTree dt(f);
  LoopInfo li(dt);
  SmallVector<ReturnInst *, 4> rets;
  for (BasicBlock &bb : f)
    if (auto *ret = dyn_cast<ReturnInst>(bb.getTerminator()))
      rets.push_back(ret);
  struct Dynamic {
    AllocaInst *a;
    SmallVector<IntrinsicInst *, 2> restores;
  };
  SmallVector<Dynamic, 4> dynamic;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      auto *a = dyn_cast<AllocaInst>(&i);
      if (!a || a->isStaticAlloca() || a->getAlign() > Align(16) ||
          !(MayHoldActive(a->getAllocatedType()) ||
            a->getAllocatedType()->isIntegerTy(8))) // alloca(bytes)
        continue;
      Dynamic d{a, {}};
      IntrinsicInst *save = SavedBefore(*a, dt);
      if (save && !RestoresOf(*save, *a, d.restores))
        continue;
      // In a loop, only with a scope that ends within each time round:
      // saved in the same loop.
      if (li.getLoopFor(&bb) &&
          (d.restores.empty() ||
           li.getLoopFor(save->getParent()) != li.getLoopFor(&bb)))
        continue;
      dynamic.push_back(d);
    }
  if (dynamic.empty())
    return;
  Module &m = *f.getParent();
  const DataLayout &dl = m.getDataLayout();
  IRBuilder<> b(f.getContext());
  FunctionCallee malloc_fn =
      m.getOrInsertFunction("malloc", b.getPtrTy(), b.getInt64Ty());
  FunctionCallee free_fn =
      m.getOrInsertFunction("free", b.getVoidTy(), b.getPtrTy());
  Constant *null = ConstantPointerNull::get(b.getPtrTy());
  for (Dynamic &d : dynamic) {
    AllocaInst *a = d.a;
    b.SetInsertPoint(a);
    Value *count = b.CreateZExtOrTrunc(a->getArraySize(), b.getInt64Ty());
    Value *each = b.getInt64(dl.getTypeAllocSize(a->getAllocatedType()));
    Value *bytes = b.CreateMul(count, each, a->getName() + ".bytes");
    CallInst *heap = b.CreateCall(malloc_fn, {bytes}, a->getName());
    a->replaceAllUsesWith(heap);
    BasicBlock *home = a->getParent();
    a->eraseFromParent();
    // The pointer still to free at each place: the allocation after it
    // was made, null where it was not or its scope has ended (freed
    // there).
    SSAUpdater ssa;
    ssa.Initialize(b.getPtrTy(), heap->getName());
    if (home != &f.getEntryBlock())
      ssa.AddAvailableValue(&f.getEntryBlock(), null);
    ssa.AddAvailableValue(home, heap);
    for (IntrinsicInst *r : d.restores)
      ssa.AddAvailableValue(r->getParent(), null);
    for (IntrinsicInst *r : d.restores) {
      Value *p = ssa.GetValueInMiddleOfBlock(r->getParent());
      b.SetInsertPoint(r);
      b.CreateCall(free_fn, {p});
    }
    for (ReturnInst *r : rets) {
      Value *p = ssa.GetValueAtEndOfBlock(r->getParent());
      if (p == null)
        continue;
      b.SetInsertPoint(r);
      b.CreateCall(free_fn, {p});
    }
  }
}

} // namespace autodiff
