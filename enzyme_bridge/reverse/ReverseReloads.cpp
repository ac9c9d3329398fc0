//===- enzyme_bridge/reverse/ReverseReloads.cpp - Loads read again ---------===//
//
// A load of the primal need not be cached when the reverse sweep can
// execute it again and read the same value: when no write of the primal
// that may run after it (a store, a call, a memory intrinsic, a free) can
// change the memory it read. Alias analysis (basic, type-based and scoped)
// answers "can change", asked across loop iterations, since a write in a
// later iteration of the same loop is a later write; the control-flow graph
// answers "may run after". When either cannot tell, the load is cached.
//
// The reverse sweep itself writes primal memory only to undo stores (below
// and UndoLog.cpp): at each of its points, memory is what the forward sweep
// left there, except that the undone stores after that point are undone.
//
// A store outside loops into an argument's or a global's memory that no
// later write may change (the result written through a pointer at the end,
// `*err = ...`) would make every earlier load of memory that may be the
// same (other arguments, without noalias) a cached one. Instead the forward
// sweep keeps the value it overwrites, the reverse sweep puts it back where
// the store's adjoint is (so loads before the store, run again later in the
// reverse sweep, read what they read), and writes the stored value again
// at its very end (the caller sees the primal's memory). Stores in loops,
// or followed by other writes of the same memory, go to the undo log
// (UndoLog.cpp), when that takes less tape than caching the loads.
//
// A load whose later writes are all undone stores is read again only if
// no value computed from it is used where one of those stores may have
// run since the load (the reverse sweep gets there before it puts the old
// value back); a branch's condition counts as used where the arms join.
//
// A free of memory allocated outside loops and never captured is moved to
// the reverse sweep (where the allocation's adjoint is, which comes after
// every use): the forward sweep no longer frees it, so it changes no load,
// and a buffer the function reads and then frees (a temporary of the
// primal) is read again instead of cached.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/AliasStack.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/reverse/UndoableStores.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/TypeBasedAliasAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace autodiff {

/// Alias queries allowed for one function, load by write pair; beyond this
/// the remaining loads are cached without asking (quadratic cost guard).
static constexpr unsigned kMaxAliasQueries = 200000;

/// lgamma and its float and long double forms: they write errno and the
/// int `signgam`, nothing else.
static bool IsLgammaCall(const Instruction &i) {
  auto *call = dyn_cast<CallBase>(&i);
  Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || !callee->isDeclaration())
    return false;
  StringRef name = callee->getName();
  return name == "lgamma" || name == "lgammaf" || name == "lgammal";
}

/// Writes that cannot change memory a load of the primal reads again. Math
/// functions of the rule table write errno at most, which derivatives do
/// not depend on.
/// `keep_noreturn`: whether calls that do not return count as writes (the lane
/// bodies of vector reverse derivatives keep them: their widening refuses
/// more of what is read again than of what is cached).
static bool IgnorableWrite(const Instruction &i, bool keep_noreturn) {
  if (auto *call = dyn_cast<CallBase>(&i)) {
    if (!isa<IntrinsicInst>(call) && FindRule(*call))
      return true;
    // A call that does not return (a panic, abort, a failed assertion):
    // no reverse sweep runs after it.
    if (!keep_noreturn && isa<CallInst>(call) && call->doesNotReturn())
      return true;
    // Numba's reference counting of no object.
    if (const Function *callee = call->getCalledFunction();
        callee && (callee->getName() == "NRT_incref" ||
                   callee->getName() == "NRT_decref") &&
        call->arg_size() == 1 && isa<ConstantPointerNull>(call->getArgOperand(0)))
      return true;
  }
  if (auto *ii = dyn_cast<IntrinsicInst>(&i))
    switch (ii->getIntrinsicID()) {
    case Intrinsic::assume:
    case Intrinsic::experimental_noalias_scope_decl:
    case Intrinsic::dbg_declare:
    case Intrinsic::dbg_value:
    case Intrinsic::dbg_label:
    case Intrinsic::lifetime_start:
      return true;
    default:
      break;
    }
  return false;
}

/// Whether `free` may release `alloc`: its pointer may come from it.
static bool MayFree(CallBase &free, Instruction &alloc, LoopInfo &li) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(free.getArgOperand(0), objects, &li);
  return is_contained(objects, &alloc);
}

void ReverseEmitter::FindDeferredFrees() {
  SmallVector<CallBase *, 8> allocs, frees;
  for (BasicBlock *bb : blocks_)
    for (Instruction *i : primal_insts_[bb]) {
      auto *call = dyn_cast<CallBase>(i);
      if (!call)
        continue;
      switch (ClassifyAllocation(*call)) {
      case AllocKind::Malloc:
      case AllocKind::Calloc:
      case AllocKind::AlignedAlloc:
        if (!li_->getLoopFor(bb) && isa<CallInst>(call))
          allocs.push_back(call);
        break;
      case AllocKind::Free:
      case AllocKind::Realloc:
      case AllocKind::RustRealloc:
        frees.push_back(call);
        break;
      default:
        break;
      }
    }
  for (CallBase *alloc : allocs) {
    // Every call that may release it is a free of exactly this pointer,
    // outside loops, whose other arguments the reverse sweep has at hand.
    SmallVector<CallBase *, 2> mine;
    bool deferrable = true;
    for (CallBase *free : frees) {
      if (!MayFree(*free, *alloc, *li_))
        continue;
      bool exact =
          ClassifyAllocation(*free) == AllocKind::Free &&
          free->getArgOperand(0)->stripPointerCasts() == alloc &&
          !li_->getLoopFor(free->getParent()) && isa<CallInst>(free) &&
          all_of(drop_begin(free->args()), [&](Value *a) {
            return isa<Constant>(a) || is_contained(alloc->args(), a);
          });
      deferrable &= exact;
      mine.push_back(free);
    }
    if (!deferrable || mine.empty() ||
        PointerMayBeCaptured(alloc, /*ReturnCaptures=*/true))
      continue;
    deferred_free_of_[alloc] = mine.front();
    for (CallBase *free : mine)
      deferred_frees_.insert(free);
  }
}

void ReverseEmitter::EmitDeferredFree(CallBase &alloc) {
  auto it = deferred_free_of_.find(&alloc);
  if (it == deferred_free_of_.end())
    return;
  CallBase *free = it->second;
  SmallVector<Value *, 4> args{Lookup(&alloc)};
  for (Value *a : drop_begin(free->args()))
    args.push_back(isa<Constant>(a) ? a : Lookup(a));
  CallInst *call = rb_.CreateCall(free->getFunctionType(),
                                  free->getCalledOperand(), args);
  call->setCallingConv(free->getCallingConv());
  call->setAttributes(free->getAttributes());
}

void ReverseEmitter::EraseDeferredFrees() {
  for (CallBase *free : deferred_frees_)
    free->eraseFromParent();
  deferred_frees_.clear();
}

SmallPtrSet<Instruction *, 4>
FindUndoableStores(ArrayRef<Instruction *> writes, BatchAAResults &batch,
                   DominatorTree &dt, LoopInfo &li, unsigned &queries) {
  SmallPtrSet<Instruction *, 4> undoable;
  for (Instruction *w : writes) {
    auto *store = dyn_cast<StoreInst>(w);
    if (!store || !store->isSimple() || li.getLoopFor(store->getParent()))
      continue;
    const Value *object = getUnderlyingObject(store->getPointerOperand());
    auto *global = dyn_cast<GlobalVariable>(object);
    if (!isa<Argument>(object) && !(global && !global->isConstant()))
      continue;
    MemoryLocation loc = MemoryLocation::get(store);
    bool last = true;
    for (Instruction *later : writes) {
      if (later == store)
        continue;
      if (++queries > kMaxAliasQueries ||
          (isModSet(batch.getModRefInfo(later, loc)) &&
           isPotentiallyReachable(store, later, nullptr, &dt, &li))) {
        last = false;
        break;
      }
    }
    if (last)
      undoable.insert(store);
  }
  return undoable;
}

void ReverseEmitter::LogOverwrite(StoreInst &store) {
  Type *t = store.getValueOperand()->getType();
  IRBuilder<> entry(&*out_.getEntryBlock().getFirstInsertionPt());
  UndoneStore u;
  u.old = entry.CreateAlloca(t, nullptr, "undo.old");
  u.redo = entry.CreateAlloca(t, nullptr, "redo.value");
  u.scratch = entry.CreateAlloca(t, nullptr, "redo.scratch");
  u.ptr = entry.CreateAlloca(entry.getPtrTy(), nullptr, "redo.ptr");
  u.done = entry.CreateAlloca(entry.getInt1Ty(), nullptr, "redo.flag");
  entry.CreateStore(entry.getFalse(), u.done);
  IRBuilder<> b(&store);
  b.CreateStore(b.CreateAlignedLoad(t, store.getPointerOperand(),
                                    store.getAlign(), "overwritten"),
                u.old);
  undone_stores_.insert({&store, u});
}

void ReverseEmitter::UndoStore(StoreInst &store) {
  UndoLoggedStore(store);
  auto it = undone_stores_.find(&store);
  if (it == undone_stores_.end())
    return;
  UndoneStore &u = it->second;
  Type *t = store.getValueOperand()->getType();
  Value *ptr = Lookup(store.getPointerOperand());
  rb_.CreateStore(rb_.CreateAlignedLoad(t, ptr, store.getAlign()), u.redo);
  rb_.CreateAlignedStore(rb_.CreateLoad(t, u.old), ptr, store.getAlign());
  rb_.CreateStore(ptr, u.ptr);
  rb_.CreateStore(rb_.getTrue(), u.done);
}

void ReverseEmitter::RedoStores() {
  // The log's stores may come before the last writes undone in slots.
  ReplayUndoLog();
  for (auto &[store, u] : undone_stores_) {
    Type *t = store->getValueOperand()->getType();
    Value *done = rb_.CreateLoad(rb_.getInt1Ty(), u.done);
    Value *at = rb_.CreateSelect(done, rb_.CreateLoad(rb_.getPtrTy(), u.ptr),
                                 u.scratch);
    rb_.CreateAlignedStore(rb_.CreateLoad(t, u.redo), at, store->getAlign());
  }
}

/// Whether every object `ld` may read belongs to `f` (a stack slot, or a
/// heap allocation of `f` whose address does not escape) or is constant:
/// what nobody but `f` can write.
static bool ReadsOwnMemory(const LoadInst &ld, const Function &f,
                           LoopInfo &li) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(ld.getPointerOperand(), objects, &li);
  return all_of(objects, [&](const Value *o) {
    if (auto *g = dyn_cast<GlobalVariable>(o))
      return g->isConstant();
    if (auto *a = dyn_cast<AllocaInst>(o))
      return a->getFunction() == &f &&
             !PointerMayBeCaptured(a, /*ReturnCaptures=*/true);
    auto *call = dyn_cast<CallBase>(o);
    return call && call->getFunction() == &f &&
           ClassifyAllocation(*call) != AllocKind::None &&
           !PointerMayBeCaptured(call, /*ReturnCaptures=*/true);
  });
}

/// Whether a path of the control-flow graph leads from `w` to `u` without
/// passing `r`. When `r` dominates `u`, on such a path `u` uses what `r`
/// read before `w` ran (on the others, `r` reads again after `w`: the next
/// iteration of a loop that reads, computes and then stores).
static bool ReachesAvoiding(Instruction &w, Instruction &u, Instruction &r) {
  constexpr unsigned kMaxBlocks = 4096;
  BasicBlock *bw = w.getParent(), *bu = u.getParent(), *br = r.getParent();
  if (bw == bu && w.comesBefore(&u))
    return !(br == bw && w.comesBefore(&r) && r.comesBefore(&u));
  if (bw == br && w.comesBefore(&r))
    return false; // Leaving w's block passes r.
  SmallPtrSet<BasicBlock *, 32> seen;
  SmallVector<BasicBlock *, 32> work(successors(bw));
  while (!work.empty()) {
    BasicBlock *x = work.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    if (seen.size() > kMaxBlocks)
      return true;
    if (x == bu && (x != br || u.comesBefore(&r)))
      return true;
    if (x == br)
      continue; // Going on passes r.
    append_range(work, successors(x));
  }
  return false;
}

/// Whether a value computed from `r` (through any chain of instructions)
/// is used where `w` may have run since `r` read: there the reverse sweep,
/// which recomputes such values from a load read again, has not yet undone
/// `w`. `w`'s own use (the value it stores) is not such a use: the stores
/// undone are written again at the very end, after everything was undone.
/// Nor is a floating-point or pointer phi: such a phi is cached or read
/// again from memory no write changes (CarriedLoads.cpp refuses the loads
/// decided here), never recomputed from these loads (a loop's running sum
/// stored at the end and returned keeps its loads read again), and its
/// adjoint needs no primal value. Past an integer phi, which may carry `r`'s value of an
/// earlier iteration, any use `w` may reach counts.
static bool UsedAfter(Instruction &r, Instruction &w, DominatorTree &dt,
                      LoopInfo &li) {
  constexpr unsigned kMaxUsers = 256;
  SmallVector<std::pair<Instruction *, bool>, 16> work{{&r, false}};
  SmallPtrSet<Instruction *, 32> seen{&r};
  while (!work.empty()) {
    auto [v, pastPhi] = work.pop_back_val();
    for (User *u : v->users()) {
      auto *ui = dyn_cast<Instruction>(u);
      if (!ui || ui == &w || !seen.insert(ui).second)
        continue;
      if (isa<PHINode>(ui) && !ui->getType()->isIntOrIntVectorTy())
        continue;
      // A store of a float needs no primal value in the reverse sweep:
      // its adjoint comes from the shadow.
      if (auto *store = dyn_cast<StoreInst>(ui);
          store && store->getValueOperand() == v &&
          HoldsFloat(store->getValueOperand()->getType()))
        continue;
      bool phi = pastPhi || isa<PHINode>(ui);
      // A branch's condition is evaluated again where its arms join (which
      // arm ran), after what the arms wrote.
      if (ui->isTerminator() && ReachesAvoiding(*ui, w, r))
        return true;
      if (seen.size() > kMaxUsers ||
          (phi ? isPotentiallyReachable(&w, ui, nullptr, &dt, &li)
               : ReachesAvoiding(w, *ui, r)))
        return true;
      work.push_back({ui, phi});
    }
  }
  return false;
}

void ReverseEmitter::FindReloadableLoads() {
  FindDeferredFrees();
  SmallVector<Instruction *, 32> writes;
  SmallVector<Instruction *, 64> reads;
  for (BasicBlock *bb : blocks_)
    for (Instruction *i : primal_insts_[bb]) {
      if (isa<LoadInst>(i))
        reads.push_back(i);
      auto *call = dyn_cast<CallBase>(i);
      // A barrier writes nothing itself; the other threads' writes it
      // orders are the function's own stores, counted as such.
      if (i->mayWriteToMemory() && !IgnorableWrite(*i, inline_noinline_) &&
          !(gpu_ && call && IsBarrierCall(*call)) &&
          !(call && deferred_frees_.count(call)))
        writes.push_back(i);
    }
  if (reads.empty())
    return;
  AliasStack aa(out_, *tli_, *ac_, dt_.get());
  BatchAAResults &batch = aa.Batch();
  unsigned queries = 0;
  // Split mode: the caller runs on between the two sweeps, so nothing is
  // the last write, and memory the caller can reach may change.
  SmallPtrSet<Instruction *, 4> undoable;
  if (!split_)
    undoable = FindUndoableStores(writes, batch, *dt_, *li_, queries);
  SmallPtrSet<Instruction *, 8> loggable;
  if (CanLogStores())
    loggable = FindLoggableStores(writes, undoable, batch, *dt_, *li_);
  SmallPtrSet<Instruction *, 4> refillable = FindRefillableStores(writes);
  // Per load whose later writes are all stores that can be undone: those.
  MapVector<Instruction *, SmallVector<Instruction *, 2>> pending;
  // Per load: the arguments and shared arrays the entry must check apart
  // for it to be read again (in the loads' order: the check's IR must not
  // depend on pointer values).
  MapVector<Instruction *,
            SmallVector<std::pair<Argument *, GlobalVariable *>, 2>>
      checks_of;
  for (Instruction *r : reads) {
    auto *ld = dyn_cast<LoadInst>(r);
    if (ld && !ld->isSimple()) {
      clobbers_[r] = r;
      continue;
    }
    if (split_ && (!ld || !ReadsOwnMemory(*ld, out_, *li_))) {
      clobbers_[r] = r;
      caller_memory_loads_.insert(r);
      continue;
    }
    const Instruction *clobber = nullptr;
    SmallVector<Instruction *, 2> undone, refilled;
    SmallVector<std::pair<Argument *, GlobalVariable *>, 2> checks;
    for (Instruction *w : writes) {
      // lgamma writes an int (signgam): only int loads may read it.
      if (IsLgammaCall(*w) && !(ld && ld->getType()->isIntegerTy(32)))
        continue;
      if (++queries > kMaxAliasQueries) {
        clobber = w;
        break;
      }
      ModRefInfo mr = ld ? batch.getModRefInfo(w, MemoryLocation::get(ld))
                         : batch.getModRefInfo(w, cast<CallBase>(r));
      if (!isModSet(mr) ||
          !isPotentiallyReachable(r, w, nullptr, dt_.get(), li_.get()) ||
          SharedStoreSpares(*r, *w, checks))
        continue;
      if (refillable.count(w)) {
        refilled.push_back(w);
        continue;
      }
      if (!undoable.count(w) && !loggable.count(w)) {
        clobber = w;
        break;
      }
      undone.push_back(w);
    }
    if (!clobber && !refilled.empty() &&
        (!undone.empty() || !ReadsRefilledMemory(*r, refilled)))
      clobber = refilled.front();
    clobbers_[r] = clobber;
    if (clobber)
      continue;
    if (!checks.empty())
      checks_of[r] = std::move(checks);
    if (!refilled.empty()) {
      // As for undone stores: nothing computed from the load may be used
      // after a refilled store ran again.
      for (Instruction *w : refilled)
        if (UsedAfter(*r, *w, *dt_, *li_)) {
          clobbers_[r] = w;
          break;
        }
      if (!clobbers_[r]) {
        RecordRefills(*r, refilled);
        restored_loads_[r] = refilled;
      }
      continue;
    }
    if (undone.empty())
      continue;
    // The load's value must not be needed after one of them ran: the
    // reverse sweep gets there before it puts the old value back, and
    // would read the new one. Such a load is cached.
    for (Instruction *w : undone)
      if (UsedAfter(*r, *w, *dt_, *li_)) {
        clobbers_[r] = w;
        break;
      }
    if (!clobbers_[r])
      pending[r] = std::move(undone);
  }
  ChooseLoggedStores(pending, loggable);
  // The stores that loads read again depend on are undone.
  for (auto &[r, stores] : pending) {
    if (clobbers_[r])
      continue;
    restored_loads_[r] = stores;
    for (Instruction *w : stores)
      if (undoable.count(w) && !undone_stores_.count(cast<StoreInst>(w)))
        LogOverwrite(*cast<StoreInst>(w));
  }
  DropRefillsReadingRestored();
  for (auto &[r, checks] : checks_of)
    if (!clobbers_[r])
      for (auto &[arg, global] : checks)
        shared_checks_[arg].insert(global);
  CreateUndoLog();
}

bool ReverseEmitter::Reloadable(const Instruction &i) const {
  auto it = clobbers_.find(&i);
  return it != clobbers_.end() && !it->second;
}

} // namespace autodiff
