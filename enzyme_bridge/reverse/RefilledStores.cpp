//===- enzyme_bridge/reverse/RefilledStores.cpp - Stores executed again ---===//
//
// A tiled matrix product on a GPU fills a shared-memory tile at the top of
// each iteration of its tile loop, waits at a barrier, reads the tile in an
// inner loop and waits again before the next iteration fills it anew. Each
// read of the tile has a later write that changes its memory (the next
// fill), so each used to be cached: every element a thread reads, every
// iteration (256 bytes per iteration of a 16x16 tile), a tape that left the
// thread's local memory for the device heap.
//
// Such a store is *refilled* instead: the reverse sweep executes it again
// at the start of each reverse iteration of its loop, its value computed
// again (or cached: one value per iteration instead of every read), so the
// memory holds again what the iteration's loads read, and they read it
// again. A store qualifies when
//  - it is simple, directly in its loop (not in an inner one), runs in
//    every iteration (its block dominates the latch), and its address is
//    the same in every iteration: each iteration writes the same
//    locations, so a load the store dominates reads what the store wrote
//    in the same iteration;
//  - its memory belongs to the derivative: a stack slot whose address does
//    not escape, or a shared-memory array that no function calling the
//    derivative uses (after the derivative returns, the array holds the
//    first iteration's values, not the last's, which no code after it in
//    the block then reads);
//  - its value reads no memory but arguments' and constants' (so that
//    refilling one store cannot read memory another refill has not yet
//    restored), and none that is read again only because the reverse sweep
//    undoes later stores in the loop (that holds at the load's own point,
//    not at the end of the iteration, where the refill reads it);
//  - in a loop nested in another, the reverse sweep enters the loop only
//    through its latch, or through its header when the store is not in it
//    (otherwise a reverse entry through an early exit would find the
//    memory the previous outer iteration's refills left).
// A load is read again when each write that may change it later is a
// refilled store of one loop around the load whose block dominates the
// load, and nothing computed from the load is used after such a store ran
// again (as for the undone stores, ReverseReloads.cpp).
//
// Other threads read a shared tile. The refill of iteration t must not
// start before every thread has read iteration t+1's tile in the reverse
// sweep (the forward barrier between the fill and the reads, mirrored, sees
// to that: a race-free primal has one) or, for the last iteration, the
// tile of the forward sweep's last reads; and the reads of iteration t
// must wait for every thread's refill. When the iteration ends with a
// barrier after its reads (a tiled product's second `__syncthreads`), that
// barrier orders the forward sweep's last reads before the first refill,
// and its mirror comes right after each refill. Otherwise (the barrier at
// the top of the iteration) the refills are put between two barriers of
// their own.
//
// The refill's value is typically a load of an argument (`A[row * n + t *
// 16 + tx]`), which alias analysis cannot separate from the shared tile: a
// pointer argument might point into it. It does not when the caller passes
// a kernel's parameters (global memory), and the derivative checks at its
// entry that no such argument points into a shared array whose stores it
// took as not changing the argument's memory (stopping with a message if
// one does); loads of arguments are then read again past stores into
// shared arrays, refilled or not.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/RuntimeAbort.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {

/// Whether `f` may call derivative `d`: calls it, calls a request
/// (`__enzyme_*`, not yet replaced), calls through a pointer, or calls a
/// function that may (up to a depth).
static bool MayCallDerivative(const Function &f, const Function &d,
                              unsigned depth) {
  for (const BasicBlock &bb : f)
    for (const Instruction &i : bb) {
      auto *call = dyn_cast<CallBase>(&i);
      if (!call || isa<IntrinsicInst>(call))
        continue;
      const Function *callee = call->getCalledFunction();
      if (!callee || callee == &d || callee->getName().starts_with("__enzyme_"))
        return true;
      if (!callee->isDeclaration() && callee != &f &&
          (depth > 4 || MayCallDerivative(*callee, d, depth + 1)))
        return true;
    }
  return false;
}

/// Whether `g` is a shared-memory array (address space 3) that only
/// functions which never call derivative `d` use besides `d` itself: no
/// code running after `d` in the same block reads it (then it does not
/// matter that `d` leaves the first iteration's values in it).
static bool PrivateSharedArray(const GlobalVariable &g, const Function &d) {
  if (g.getAddressSpace() != 3 || g.isConstant())
    return false;
  SmallVector<const User *, 8> work(g.users());
  SmallPtrSet<const User *, 8> seen;
  SmallPtrSet<const Function *, 4> users;
  while (!work.empty()) {
    const User *u = work.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (auto *i = dyn_cast<Instruction>(u))
      users.insert(i->getFunction());
    else if (isa<Constant>(u))
      append_range(work, u->users());
  }
  return none_of(users, [&](const Function *f) {
    return f != &d && MayCallDerivative(*f, d, 0);
  });
}

/// Whether every object `ptr` may point into belongs to `f`: stack slots
/// of `f` whose address does not escape, or private shared arrays.
static bool OwnMemory(const Value *ptr, const Function &f, LoopInfo &li) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(ptr, objects, &li);
  return !objects.empty() && all_of(objects, [&](const Value *o) {
    if (auto *g = dyn_cast<GlobalVariable>(o))
      return PrivateSharedArray(*g, f);
    auto *a = dyn_cast<AllocaInst>(o);
    return a && a->getFunction() == &f &&
           !PointerMayBeCaptured(a, /*ReturnCaptures=*/true);
  });
}

/// Whether `i` is a call of a math function with a derivative rule (libm,
/// libdevice), which reads no memory the function writes.
static bool MathCall(const Instruction &i) {
  auto *call = dyn_cast<CallInst>(&i);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->isDeclaration() && FindRule(*call);
}

/// Whether `v` reads no memory but arguments' and constant globals' (up to
/// a depth; phis end the walk: a loop-carried value is cached).
static bool ReadsOnlyArguments(const Value *v, LoopInfo &li, unsigned depth) {
  auto *i = dyn_cast<Instruction>(v);
  if (!i || isa<PHINode>(i))
    return true;
  if (depth > 8)
    return false;
  if (auto *ld = dyn_cast<LoadInst>(i)) {
    SmallVector<const Value *, 4> objects;
    getUnderlyingObjects(ld->getPointerOperand(), objects, &li);
    bool outside = !objects.empty() && all_of(objects, [](const Value *o) {
      auto *g = dyn_cast<GlobalVariable>(o);
      return isa<Argument>(o) || (g && g->isConstant());
    });
    return outside && ReadsOnlyArguments(ld->getPointerOperand(), li, depth + 1);
  }
  if (i->mayReadOrWriteMemory() && !MathCall(*i))
    return false;
  if (auto *call = dyn_cast<CallBase>(i))
    return all_of(call->args(), [&](const Use &u) {
      return ReadsOnlyArguments(u.get(), li, depth + 1);
    });
  return all_of(i->operands(), [&](const Use &u) {
    return ReadsOnlyArguments(u.get(), li, depth + 1);
  });
}

/// Whether `v` has the same value in every iteration of `l`: defined
/// outside it, a read of a launch index (unoptimized code reads
/// `threadIdx.x` where it is used), or pure arithmetic of such values.
static bool SameEveryIteration(const Value *v, const Loop &l, unsigned depth) {
  auto *i = dyn_cast<Instruction>(v);
  if (!i || !l.contains(i) || IsLaunchIndex(i))
    return true;
  if (depth > 8 || isa<PHINode>(i) || i->mayReadOrWriteMemory() ||
      !(isa<GetElementPtrInst>(i) || isa<CastInst>(i) ||
        isa<BinaryOperator>(i)))
    return false;
  return all_of(i->operands(), [&](const Use &u) {
    return SameEveryIteration(u.get(), l, depth + 1);
  });
}

/// The first barrier call in `l`, or null.
static CallBase *BarrierIn(Loop &l) {
  for (BasicBlock *bb : l.blocks())
    for (Instruction &i : *bb)
      if (auto *call = dyn_cast<CallBase>(&i); call && IsBarrierCall(*call))
        return call;
  return nullptr;
}

/// Whether the reverse block of `latch` mirrors a barrier before any
/// memory access: a barrier followed by no memory access in the block.
static bool LatchEndsWithBarrier(BasicBlock &latch) {
  for (Instruction &i : llvm::reverse(latch)) {
    if (auto *call = dyn_cast<CallBase>(&i); call && IsBarrierCall(*call))
      return true;
    if (i.mayReadOrWriteMemory())
      return false;
  }
  return false;
}

SmallPtrSet<Instruction *, 4>
ReverseEmitter::FindRefillableStores(ArrayRef<Instruction *> writes) {
  SmallPtrSet<Instruction *, 4> refillable;
  if (split_ || inline_noinline_)
    return refillable;
  for (Instruction *w : writes) {
    auto *store = dyn_cast<StoreInst>(w);
    Loop *l = store ? li_->getLoopFor(store->getParent()) : nullptr;
    if (!l || !store->isSimple() || !l->getLoopLatch() ||
        !dt_->dominates(store->getParent(), l->getLoopLatch()))
      continue;
    Value *ptr = store->getPointerOperand();
    if (!SameEveryIteration(ptr, *l, 0) &&
        !se_->isLoopInvariant(se_->getSCEV(ptr), l))
      continue;
    if (!OwnMemory(ptr, out_, *li_) ||
        !ReadsOnlyArguments(store->getValueOperand(), *li_, 0))
      continue;
    if (l->getParentLoop()) {
      SmallVector<BasicBlock *, 4> exiting;
      l->getExitingBlocks(exiting);
      if (any_of(exiting, [&](BasicBlock *e) {
            return e != l->getLoopLatch() &&
                   !(e == l->getHeader() &&
                     store->getParent() != l->getHeader());
          }))
        continue;
    }
    refillable.insert(store);
  }
  return refillable;
}

bool ReverseEmitter::ReadsRefilledMemory(Instruction &r,
                                         ArrayRef<Instruction *> stores) {
  Loop *l = li_->getLoopFor(stores.front()->getParent());
  return all_of(stores, [&](Instruction *w) {
    return li_->getLoopFor(w->getParent()) == l && l->contains(&r) &&
           dt_->dominates(w, &r);
  });
}

void ReverseEmitter::RecordRefills(Instruction &r,
                                   ArrayRef<Instruction *> stores) {
  Loop *l = li_->getLoopFor(stores.front()->getParent());
  Refills &refills = refills_[l];
  for (Instruction *w : stores)
    refills.stores.insert(cast<StoreInst>(w));
  refills.loads.push_back(&r);
  if (refills.barrier || !gpu_)
    return;
  if (CallBase *barrier = BarrierIn(*l);
      barrier && any_of(refills.stores, [](StoreInst *s) {
        return IsSharedMemory(s->getPointerOperand());
      }))
    refills.barrier = LatchEndsWithBarrier(*l->getLoopLatch()) ? nullptr
                                                               : barrier;
}

bool ReverseEmitter::SharedStoreSpares(
    Instruction &r, Instruction &w,
    SmallVectorImpl<std::pair<Argument *, GlobalVariable *>> &checks) {
  auto *ld = dyn_cast<LoadInst>(&r);
  auto *store = dyn_cast<StoreInst>(&w);
  if (!gpu_ || split_ || !ld || !store)
    return false;
  SmallVector<const Value *, 4> read, written;
  getUnderlyingObjects(ld->getPointerOperand(), read, li_.get());
  getUnderlyingObjects(store->getPointerOperand(), written, li_.get());
  auto isArgument = [&](const Value *o) {
    auto *a = dyn_cast<Argument>(o);
    return a && a->getParent() == &out_;
  };
  auto isShared = [](const Value *o) {
    auto *g = dyn_cast<GlobalVariable>(o);
    return g && g->getAddressSpace() == 3;
  };
  if (read.empty() || written.empty())
    return false;
  // Either the load reads arguments' memory and the store writes shared
  // arrays, or the other way around.
  bool readsArguments = all_of(read, isArgument);
  if (!(readsArguments && all_of(written, isShared)) &&
      !(all_of(read, isShared) && all_of(written, isArgument)))
    return false;
  for (const Value *a : readsArguments ? read : written)
    for (const Value *g : readsArguments ? written : read)
      checks.push_back({const_cast<Argument *>(cast<Argument>(a)),
                        const_cast<GlobalVariable *>(cast<GlobalVariable>(g))});
  return true;
}

/// The loads `v` is computed from (as ReadsOnlyArguments walks it).
static void LoadsOf(const Value *v, SmallPtrSetImpl<const Instruction *> &out,
                    unsigned depth) {
  auto *i = dyn_cast<Instruction>(v);
  if (!i || isa<PHINode>(i) || depth > 8 || !out.insert(i).second)
    return;
  if (auto *call = dyn_cast<CallBase>(i)) {
    for (const Use &u : call->args())
      LoadsOf(u.get(), out, depth + 1);
    return;
  }
  for (const Use &u : i->operands())
    LoadsOf(u.get(), out, depth + 1);
}

void ReverseEmitter::DropRefillsReadingRestored() {
  SmallVector<Loop *, 2> dropped;
  for (auto &[loop, refills] : refills_) {
    SmallPtrSet<const Instruction *, 16> read;
    for (StoreInst *s : refills.stores)
      LoadsOf(s->getValueOperand(), read, 0);
    // A load read again because later stores are undone holds its value at
    // its own point, not at the end of the iteration where the refill
    // reads it again, if one of those stores runs in the loop (the ones
    // after it are undone before the reverse sweep enters it).
    Loop *l = loop; // (a structured binding is not captured before C++20)
    if (none_of(read, [&](const Instruction *i) {
          auto it = restored_loads_.find(i);
          return it != restored_loads_.end() &&
                 any_of(it->second,
                        [&](Instruction *w) { return l->contains(w); });
        }))
      continue;
    for (Instruction *r : refills.loads) {
      clobbers_[r] = refills.stores.front();
      restored_loads_.erase(r);
    }
    dropped.push_back(loop);
  }
  for (Loop *l : dropped)
    refills_.erase(l);
}

void ReverseEmitter::EmitRefills(BasicBlock &latch) {
  Loop *l = li_->getLoopFor(&latch);
  while (l && l->getLoopLatch() != &latch)
    l = l->getParentLoop();
  auto it = l ? refills_.find(l) : refills_.end();
  if (it == refills_.end())
    return;
  if (CallBase *barrier = it->second.barrier)
    (void)MirrorBarrier(*barrier);
  for (StoreInst *s : it->second.stores) {
    Value *ptr = Lookup(s->getPointerOperand());
    Value *v = Lookup(s->getValueOperand());
    rb_.CreateAlignedStore(v, ptr, s->getAlign());
  }
  if (CallBase *barrier = it->second.barrier)
    (void)MirrorBarrier(*barrier);
}

void ReverseEmitter::EmitSharedArgumentChecks() {
  if (shared_checks_.empty())
    return;
  Module &m = *out_.getParent();
  LLVMContext &c = m.getContext();
  const DataLayout &dl = m.getDataLayout();
  // One helper per derivative: stops the program when its argument is set.
  auto *check = Function::Create(
      FunctionType::get(Type::getVoidTy(c), {Type::getInt1Ty(c)}, false),
      GlobalValue::InternalLinkage, out_.getName() + ".shared_arguments", &m);
  BasicBlock *entry = BasicBlock::Create(c, "entry", check);
  BasicBlock *fail = BasicBlock::Create(c, "fail", check);
  BasicBlock *ok = BasicBlock::Create(c, "ok", check);
  IRBuilder<> hb(entry);
  hb.CreateCondBr(check->getArg(0), fail, ok);
  hb.SetInsertPoint(fail);
  EmitRuntimeAbort(hb, ("autodiff: " + out_.getName() +
                        ": a pointer argument points into a shared-memory "
                        "array the function writes; the derivative assumes "
                        "its arguments' memory is not in those arrays "
                        "(pass global memory)\n")
                           .str());
  hb.SetInsertPoint(ok);
  hb.CreateRetVoid();

  BasicBlock &first = out_.getEntryBlock();
  auto at = first.getFirstNonPHIOrDbgOrAlloca();
  IRBuilder<> b(&first, at);
  Type *intptr = dl.getIntPtrType(c);
  Value *bad = b.getFalse();
  for (auto &[arg, globals] : shared_checks_) {
    Value *p = b.CreatePtrToInt(arg, intptr);
    for (GlobalVariable *g : globals) {
      Value *lo =
          b.CreatePtrToInt(b.CreateAddrSpaceCast(g, b.getPtrTy()), intptr);
      uint64_t size = dl.getTypeAllocSize(g->getValueType());
      // p in [lo, lo + size], the end included (a pointer one past).
      Value *off = b.CreateSub(p, lo);
      bad = b.CreateOr(bad, b.CreateICmpULE(off, ConstantInt::get(intptr, size)));
    }
  }
  b.CreateCall(check, {bad});
}

} // namespace autodiff
