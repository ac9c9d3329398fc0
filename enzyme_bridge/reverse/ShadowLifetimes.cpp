//===- enzyme_bridge/reverse/ShadowLifetimes.cpp - When shadows are freed -===//
//
// Memory the differentiated function allocates gets a shadow allocation in
// the forward sweep. How long that shadow lives follows the primal memory:
//  - released: memory the function keeps to itself (a temporary, freed
//    here or leaked): the reverse sweep frees the shadow where it reaches
//    the allocation, when it is done with it;
//  - outlives: memory handed to the caller (stored into memory it reads, a
//    `new[]` buffer put into a duplicated object) that nothing here may
//    release: its shadow is the caller's (the shadow of the caller's copy
//    of the pointer), made by the same allocator, so that the caller
//    releases both alike; the reverse sweep leaves it alone;
//  - decided at run time: memory handed to the caller that may also be
//    released here (a std::vector passed by reference and grown: each
//    growth frees the previous buffer, the last one outlives the call).
//    The reverse sweep records the shadow of each pointer such a release
//    frees (the caller's first buffer too) and frees the recorded shadows
//    once it is done, with the releasing function (sized deletes as
//    unsized ones: the caller's shadow buffer need not have the primal's
//    capacity); the shadow no release reached is the caller's.
// The caller's side: a release of memory that a differentiated call
// returned fresh (a function that builds and returns a buffer) records
// the shadow it came with, which is released once the reverse sweep is
// done; so does a release of memory the caller gave (a vector's first
// buffer). In the outermost derivative that is the user's memory; in a
// split derivative (a callee kept as a call), the caller's reverse sweep
// may still use that shadow, so it goes on a per-thread list, as does the
// shadow of memory a split derivative frees that it got as an argument;
// the derivative that allocated the memory claims it where its reverse
// sweep reaches the allocation, the outermost one releases what is left
// of the former (DeferredReleases.cpp). Where the function calls
// a callee kept as a call, a captured allocation released here records
// its releases too (the callee may be what frees it instead).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/reverse/DeferredReleases.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {

/// Whether `alloc` (or a pointer into it) is returned or stored into
/// memory other than this function's stack slots: memory its caller may
/// read.
static bool HandedToCaller(const CallBase &alloc) {
  SmallVector<const Value *, 8> work = {&alloc};
  SmallPtrSet<const Value *, 16> seen;
  while (!work.empty()) {
    const Value *v = work.pop_back_val();
    if (!seen.insert(v).second || seen.size() > 256)
      continue;
    for (const User *u : v->users()) {
      if (isa<GetElementPtrInst>(u) || isa<CastInst>(u) || isa<PHINode>(u) ||
          isa<SelectInst>(u)) {
        work.push_back(u);
        continue;
      }
      if (isa<ReturnInst>(u))
        return true;
      const auto *st = dyn_cast<StoreInst>(u);
      if (!st || st->getValueOperand() != v)
        continue;
      SmallVector<const Value *, 4> into;
      getUnderlyingObjects(st->getPointerOperand(), into);
      if (any_of(into, [](const Value *o) { return !isa<AllocaInst>(o); }))
        return true;
    }
  }
  return false;
}

static bool IsHeapAllocation(const CallBase &call) {
  AllocKind kind = ClassifyAllocation(call);
  return kind == AllocKind::Malloc || kind == AllocKind::Calloc ||
         kind == AllocKind::AlignedAlloc || kind == AllocKind::Realloc;
}

/// The objects `v` may point into, through loads of stack slots that are
/// only loaded and stored (unoptimized code returns through one); false
/// when a slot is used otherwise.
static bool ReturnedObjects(const Value *v,
                            SmallVectorImpl<const Value *> &objects) {
  SmallVector<const Value *, 4> work = {v};
  SmallPtrSet<const Value *, 8> seen;
  while (!work.empty()) {
    SmallVector<const Value *, 4> found;
    getUnderlyingObjects(work.pop_back_val(), found);
    for (const Value *o : found) {
      const auto *load = dyn_cast<LoadInst>(o);
      const auto *slot =
          load ? dyn_cast<AllocaInst>(load->getPointerOperand()) : nullptr;
      if (!slot) {
        objects.push_back(o);
        continue;
      }
      if (!seen.insert(slot).second)
        continue;
      for (const User *u : slot->users()) {
        if (isa<LoadInst>(u))
          continue;
        const auto *st = dyn_cast<StoreInst>(u);
        if (!st || st->getPointerOperand() != slot)
          return false;
        work.push_back(st->getValueOperand());
      }
    }
  }
  return true;
}

/// Whether every pointer `f` returns is null or fresh heap memory: made by
/// an allocation in `f` or returned by a call to such a function
/// (recursion included). Its caller owns that memory and its shadow.
static bool ReturnsFreshMemory(const Function &f,
                               SmallPtrSetImpl<const Function *> &visiting) {
  if (f.isDeclaration() || !f.getReturnType()->isPointerTy())
    return false;
  if (!visiting.insert(&f).second)
    return true; // Recursion: fresh if the other returns are.
  bool any = false;
  for (const BasicBlock &bb : f) {
    const auto *ret = dyn_cast<ReturnInst>(bb.getTerminator());
    if (!ret)
      continue;
    SmallVector<const Value *, 4> objects;
    if (!ReturnedObjects(ret->getReturnValue(), objects))
      return false;
    for (const Value *o : objects) {
      if (isa<ConstantPointerNull>(o))
        continue;
      const auto *call = dyn_cast<CallBase>(o);
      if (!call)
        return false;
      if (IsHeapAllocation(*call)) {
        any = true;
        continue;
      }
      const Function *callee = call->getCalledFunction();
      if (!callee || !ReturnsFreshMemory(*callee, visiting))
        return false;
      any = true;
    }
  }
  return any;
}

/// Whether `call` returns fresh heap memory (above) whose shadow is fresh
/// too: the shadow the callee's split derivative hands back. Asked for
/// every pair of allocation and release: answered once per callee.
bool ReverseEmitter::IsFreshMemoryCall(const CallBase &call) {
  const Function *callee = call.getCalledFunction();
  if (!callee || ClassifyAllocation(call) != AllocKind::None)
    return false;
  auto [it, fresh] = fresh_returns_.try_emplace(callee, false);
  if (fresh) {
    SmallPtrSet<const Function *, 4> visiting;
    it->second = ReturnsFreshMemory(*callee, visiting);
  }
  return it->second;
}

/// A call that may release memory: free-like calls and reallocs.
static bool IsRelease(const CallBase &call) {
  AllocKind kind = ClassifyAllocation(call);
  return kind == AllocKind::Free || kind == AllocKind::Realloc ||
         kind == AllocKind::RustRealloc;
}

/// Whether `site` may release the memory `alloc` made: its pointer comes
/// from `alloc`, or was read from memory (or made otherwise) after it.
bool ReverseEmitter::MayRelease(CallBase &site, CallBase &alloc) {
  if (&site == &alloc) {
    // A realloc in a loop releases what it returned before (a growing
    // array's earlier buffers).
    if (ClassifyAllocation(site) != AllocKind::Realloc)
      return false;
    SmallVector<const Value *, 4> objects;
    getUnderlyingObjects(site.getArgOperand(0), objects, nullptr);
    return is_contained(objects, &alloc);
  }
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(site.getArgOperand(0), objects, li_.get());
  for (const Value *o : objects) {
    if (o == &alloc)
      return true;
    if (isa<Argument>(o) || isa<AllocaInst>(o) || isa<Constant>(o))
      continue;
    if (const auto *call = dyn_cast<CallBase>(o);
        call && (ClassifyAllocation(*call) != AllocKind::None ||
                 IsFreshMemoryCall(*call)))
      continue; // Another allocation.
    const auto *made = dyn_cast<Instruction>(o);
    if (!made ||
        isPotentiallyReachable(&alloc, made, nullptr, dt_.get(), li_.get()))
      return true;
  }
  return false;
}

/// Each heap allocation's shadow lifetime, and the releases whose shadows
/// are recorded (see the file comment).
void ReverseEmitter::PlanShadowLifetimes() {
  if (lifetimes_planned_)
    return;
  lifetimes_planned_ = true;
  SmallVector<CallBase *, 8> allocs, sites;
  // A call kept as a call (a split derivative) may free captured memory
  // and defer its shadow's release to the outermost derivative
  // (DeferredReleases.cpp).
  bool kept_calls = false;
  for (BasicBlock *bb : blocks_)
    for (Instruction *i : primal_insts_[bb])
      if (auto *call = dyn_cast<CallBase>(i)) {
        if (IsHeapAllocation(*call))
          allocs.push_back(call);
        if (IsRelease(*call))
          sites.push_back(call);
        Function *callee = call->getCalledFunction();
        kept_calls |= !callee || (!callee->isDeclaration() &&
                                  !callee->isIntrinsic());
      }
  for (CallBase *alloc : allocs) {
    ShadowLife life = ShadowLife::Released;
    if (PointerMayBeCaptured(alloc, /*ReturnCaptures=*/true)) {
      bool released = any_of(sites, [&](CallBase *site) {
        return MayRelease(*site, *alloc);
      });
      // Released here or by a callee, or handed to the caller: each
      // release records the shadow it frees.
      if (!released)
        life = ShadowLife::Outlives;
      else if (kept_calls || HandedToCaller(*alloc))
        life = ShadowLife::AtRunTime;
    }
    lifetimes_[alloc] = life;
  }
  // A release of a pointer read from active memory (a row of a heap
  // `double **` that a noinline `mkrow` made): what of this function's own
  // memory it may release is decided at run time (it records what it
  // frees, which may be memory made elsewhere).
  for (CallBase *site : sites)
    if (ClassifyAllocation(*site) != AllocKind::RustRealloc &&
        ReleasesLoadedPointer(*site))
      for (CallBase *alloc : allocs)
        if (MayRelease(*site, *alloc))
          lifetimes_[alloc] = ShadowLife::AtRunTime;
  // Releases that may free memory decided at run time record what they
  // free; what else they may free is decided at run time too (its
  // allocation must not free the shadow a second time).
  for (bool changed = true; changed;) {
    changed = false;
    for (CallBase *site : sites) {
      // (Rust's realloc keeps its own handling: the old shadow is released
      // where its allocation is reached.)
      if (recorded_releases_.count(site) ||
          ClassifyAllocation(*site) == AllocKind::RustRealloc)
        continue;
      bool records = any_of(allocs, [&](CallBase *alloc) {
        return lifetimes_[alloc] == ShadowLife::AtRunTime &&
               MayRelease(*site, *alloc);
      });
      if (!records)
        continue;
      recorded_releases_[site] = nullptr;
      changed = true;
      for (CallBase *alloc : allocs)
        if (MayRelease(*site, *alloc))
          lifetimes_[alloc] = ShadowLife::AtRunTime;
    }
  }
  for (CallBase *site : sites)
    if (ClassifyAllocation(*site) != AllocKind::RustRealloc &&
        !recorded_releases_.count(site)) {
      // What its caller gave: released once the reverse sweep is done,
      // by the outermost derivative (a split derivative's caller may still
      // need the shadow after this reverse sweep: DeferredReleases.cpp).
      if (FreesCallerMemory(*site)) {
        recorded_releases_[site] = nullptr;
        caller_releases_.insert(site);
      } else if (split_ && FreesArgumentMemory(*site)) {
        recorded_releases_[site] = nullptr;
        argument_releases_.insert(site);
      } else if (FreesReturnedMemory(*site)) {
        recorded_releases_[site] = nullptr;
      }
    }
}

ReverseEmitter::ShadowLife ReverseEmitter::ShadowLifeOf(CallBase &alloc) {
  PlanShadowLifetimes();
  auto it = lifetimes_.find(&alloc);
  return it == lifetimes_.end() ? ShadowLife::Released : it->second;
}

/// Whether `site` releases memory the caller gave (a pointer read from its
/// memory, as a vector's first buffer), whose shadow the caller gave too
/// (read from the shadow memory): it is released with it, as the caller's
/// shadow pointer goes where the primal one goes. Not when the pointer may
/// also be memory allocated here whose shadow is released elsewhere.
bool ReverseEmitter::FreesCallerMemory(CallBase &site) {
  if (!ReleasesLoadedPointer(site))
    return false;
  return none_of(lifetimes_, [&](auto &entry) {
    return MayRelease(site, *entry.first);
  });
}

/// Whether `site` releases a pointer read from active memory that is not
/// a constant argument's (through loop phis too: a list freed node by node
/// walks a phi of the head and each `next` read).
bool ReverseEmitter::ReleasesLoadedPointer(CallBase &site) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(site.getArgOperand(0), objects, nullptr);
  return !objects.empty() && all_of(objects, [&](const Value *o) {
    const auto *load = dyn_cast<LoadInst>(o);
    return load && Active(load) &&
           !InConstantArgument(const_cast<Value *>(load->getPointerOperand()));
  });
}

/// Whether `site` releases memory given as an active argument (a
/// `release(p)` or a recursive `free_tree(t)` kept as a call): the shadow
/// may be the user's, or memory an enclosing derivative allocated, which
/// claims it where its reverse sweep reaches the allocation.
bool ReverseEmitter::FreesArgumentMemory(CallBase &site) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(site.getArgOperand(0), objects, li_.get());
  return !objects.empty() && all_of(objects, [&](const Value *o) {
    return isa<Argument>(o) && Active(const_cast<Value *>(o));
  });
}

/// Whether `site` releases fresh memory a differentiated call returned
/// (a constructor function's result): its shadow, which the callee's
/// reverse sweep leaves to its caller, is released with it once the
/// reverse sweep is done with it.
bool ReverseEmitter::FreesReturnedMemory(CallBase &site) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(site.getArgOperand(0), objects, li_.get());
  return !objects.empty() && all_of(objects, [&](const Value *o) {
    const auto *call = dyn_cast<CallBase>(o);
    return call && Active(call) &&
           IsFreshMemoryCall(*call);
  });
}

/// The function that releases a shadow where `site` released the primal:
/// the same one, sized deletes as unsized ones, realloc as free.
static FunctionCallee ShadowReleaseFunction(Module &m, CallBase &site,
                                            SmallVectorImpl<unsigned> &kept) {
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c);
  kept.clear();
  if (ClassifyAllocation(site) == AllocKind::Realloc)
    return m.getOrInsertFunction("free", Type::getVoidTy(c), ptr);
  Function *callee = CalledFunction(site);
  StringRef name = callee->getName();
  static const std::pair<const char *, const char *> kUnsized[] = {
      {"_ZdlPvm", "_ZdlPv"},
      {"_ZdaPvm", "_ZdaPv"},
      {"_ZdlPvmSt11align_val_t", "_ZdlPvSt11align_val_t"},
      {"_ZdaPvmSt11align_val_t", "_ZdaPvSt11align_val_t"}};
  for (auto [sized, unsized] : kUnsized)
    if (name == sized) {
      SmallVector<Type *, 2> params = {ptr};
      for (unsigned k = 2; k < site.arg_size(); ++k) {
        params.push_back(site.getArgOperand(k)->getType());
        kept.push_back(k);
      }
      return m.getOrInsertFunction(
          unsized, FunctionType::get(Type::getVoidTy(c), params, false));
    }
  for (unsigned k = 1; k < site.arg_size(); ++k)
    kept.push_back(k);
  return FunctionCallee(callee->getFunctionType(), callee);
}

/// Whether the shadow pointer `v` was read from shadow memory (directly,
/// or chosen by phis and selects among such reads: a list freed node by
/// node, `while (h) { next = h->next; free(h); h = next; }`).
static bool ReadFromShadowMemory(Value *v) {
  SmallVector<Value *, 8> work = {v};
  SmallPtrSet<Value *, 8> seen;
  while (!work.empty()) {
    Value *w = work.pop_back_val();
    if (!w)
      return false;
    w = w->stripPointerCasts();
    if (!seen.insert(w).second)
      continue;
    if (seen.size() > 32)
      return false;
    if (auto *phi = dyn_cast<PHINode>(w))
      work.append(phi->incoming_values().begin(), phi->incoming_values().end());
    else if (auto *sel = dyn_cast<SelectInst>(w))
      work.append({sel->getTrueValue(), sel->getFalseValue()});
    else if (!isa<LoadInst>(w))
      return false;
  }
  return true;
}

/// At the reverse of a recorded release: the shadow of the pointer it
/// released (and the release's other arguments) go on its list.
void ReverseEmitter::RecordRelease(CallBase &site) {
  PlanShadowLifetimes();
  auto it = recorded_releases_.find(&site);
  if (it == recorded_releases_.end())
    return;
  // The caller's shadow of its memory: read from the shadow memory.
  if (caller_releases_.count(&site) &&
      !ReadFromShadowMemory(KnownShadow(site.getArgOperand(0))))
    return;
  Value *shadow = LookupShadow(site.getArgOperand(0));
  if (!shadow || isa<ConstantPointerNull>(shadow))
    return;
  Module &m = *out_.getParent();
  LLVMContext &c = m.getContext();
  Type *i64 = Type::getInt64Ty(c);
  SmallVector<unsigned, 2> kept;
  FunctionCallee release = ShadowReleaseFunction(m, site, kept);
  SmallVector<Value *, 4> words = {rb_.CreatePtrToInt(shadow, i64)};
  for (unsigned k : kept) {
    Value *a = site.getArgOperand(k);
    a = isa<Constant>(a) ? a : Lookup(a);
    words.push_back(a->getType()->isPointerTy()
                        ? rb_.CreatePtrToInt(a, i64)
                        : rb_.CreateZExtOrTrunc(a, i64));
  }
  if (split_ && (caller_releases_.count(&site) ||
                 argument_releases_.count(&site))) {
    DeferRelease(rb_, out_, site, release, kept, words,
                 /*release_at_end=*/caller_releases_.count(&site) > 0);
    return;
  }
  if (!it->second) {
    auto *listTy = StructType::get(c, {rb_.getPtrTy(), i64, i64});
    IRBuilder<> eb(&*out_.getEntryBlock().getFirstInsertionPt());
    AllocaInst *list = eb.CreateAlloca(listTy, nullptr, "released.shadows");
    eb.SetInsertPoint(list->getNextNode());
    eb.CreateStore(Constant::getNullValue(listTy), list);
    it->second = list;
  }
  IRBuilder<> eb(&*out_.getEntryBlock().getFirstInsertionPt());
  AllocaInst *buf = eb.CreateAlloca(ArrayType::get(i64, words.size()), nullptr,
                                    "release.words");
  for (unsigned k = 0; k < words.size(); ++k)
    rb_.CreateStore(words[k], rb_.CreateConstGEP2_64(buf->getAllocatedType(),
                                                     buf, 0, k));
  rb_.CreateCall(RecordReleaseHelper(m),
                 {it->second, buf, rb_.getInt64(words.size())});
}

/// Once the reverse sweep is done: each recorded shadow is released, and
/// the lists freed.
void ReverseEmitter::ReleaseRecordedShadows() {
  Module &m = *out_.getParent();
  LLVMContext &c = m.getContext();
  Type *i64 = Type::getInt64Ty(c), *ptr = rb_.getPtrTy();
  for (auto &[site, list] : recorded_releases_) {
    if (!list)
      continue;
    SmallVector<unsigned, 2> kept;
    FunctionCallee release = ShadowReleaseFunction(m, *site, kept);
    unsigned stride = 1 + kept.size();
    // A helper per release: for (i = 0; i < len; i += stride) release(...)
    auto *f = Function::Create(
        FunctionType::get(Type::getVoidTy(c), {ptr}, false),
        GlobalValue::InternalLinkage, "__autodiff_release_recorded", &m);
    auto *entry = BasicBlock::Create(c, "entry", f);
    auto *loop = BasicBlock::Create(c, "loop", f);
    auto *done = BasicBlock::Create(c, "done", f);
    IRBuilder<> b(entry);
    auto *listTy = StructType::get(c, {ptr, i64, i64});
    Value *data = b.CreateLoad(ptr, f->getArg(0));
    Value *len = b.CreateLoad(i64, b.CreateStructGEP(listTy, f->getArg(0), 1));
    b.CreateCondBr(b.CreateICmpEQ(len, b.getInt64(0)), done, loop);
    b.SetInsertPoint(loop);
    PHINode *i = b.CreatePHI(i64, 2);
    i->addIncoming(b.getInt64(0), entry);
    SmallVector<Value *, 3> args;
    Value *word = b.CreateLoad(i64, b.CreateGEP(i64, data, i));
    args.push_back(b.CreateIntToPtr(word, ptr));
    for (unsigned k = 0; k < kept.size(); ++k) {
      Value *at = b.CreateAdd(i, b.getInt64(k + 1));
      Value *w = b.CreateLoad(i64, b.CreateGEP(i64, data, at));
      Type *t = site->getArgOperand(kept[k])->getType();
      args.push_back(t->isPointerTy() ? b.CreateIntToPtr(w, t)
                                      : b.CreateZExtOrTrunc(w, t));
    }
    ReleaseUnlessArena(b, release, args);
    Value *next = b.CreateAdd(i, b.getInt64(stride));
    i->addIncoming(next, b.GetInsertBlock());
    b.CreateCondBr(b.CreateICmpULT(next, len), loop, done);
    b.SetInsertPoint(done);
    b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), ptr), {data});
    b.CreateRetVoid();
    rb_.CreateCall(f, {list});
  }
}

} // namespace autodiff
