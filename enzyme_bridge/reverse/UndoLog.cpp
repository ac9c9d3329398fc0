//===- enzyme_bridge/reverse/UndoLog.cpp - Stores undone through a log ----===//
//
// A time loop that writes the buffer it read two steps before (a stencil
// swapping `u` and `tmp`), a solver updating its state in place: every load
// of such a loop has a later store that may change the memory it read, so
// the reverse sweep would cache each loaded value, several per store. The
// undo log keeps, instead, what each store overwrote.
//
// The forward sweep pushes, before a logged store, an entry: the address,
// the store's size when the logged stores differ in size, and the bytes
// about to be overwritten. The reverse sweep, at the store's adjoint, pops
// the entry and swaps: the old bytes go back to memory, the bytes the store
// wrote go into the entry. Since the reverse sweep visits the stores in
// exactly the opposite order, the memory at each point of the reverse sweep
// is what it was at the same point of the forward sweep, as far as logged
// stores wrote it, and a load whose later writes are all logged stores is
// read again there (ReverseReloads.cpp decides which loads qualify: none of
// the values computed from it may be used after a store changed its memory
// without the load having run again). At the very end the entries are
// replayed in the forward order, which leaves each byte with what the last
// logged store (or a later write that was not logged) put there: the
// caller sees the primal's memory.
//
// A store is logged only when the memory it writes stays allocated until
// the end: an argument's or a global's memory that no later call may free.
// Split halves, GPU kernels and derivatives that another request
// differentiates in turn (higher order) log nothing.
// Whether to log is a question of cost: an entry takes one or two words
// more than the value itself, so a store is logged when the loads it lets
// the reverse sweep read again would have taken more tape (weighting each
// by its loop depth). The log grows like a loop tape (geometrically, from
// the derivative's pool between calls); in a loop whose trip count is known
// at its entry, room for every iteration is reserved there.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/reverse/UndoableStores.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <cmath>

using namespace llvm;

namespace autodiff {

/// Logged stores write at most this many bytes.
static constexpr uint64_t kMaxLoggedBytes = 64;
/// Alias queries allowed when checking a store's later writes.
static constexpr unsigned kMaxQueriesPerStore = 4096;

/// Whether every object `ptr` may point into is an argument's memory or a
/// writable global: memory that outlives the derivative.
static bool WritesLastingMemory(Value *ptr, LoopInfo &li) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(ptr, objects, &li);
  return !objects.empty() && all_of(objects, [](const Value *o) {
    auto *global = dyn_cast<GlobalVariable>(o);
    return isa<Argument>(o) || (global && !global->isConstant());
  });
}

/// Whether a write that may run after `store` and change its memory may
/// also free it (a call that is not known not to free): the end of the
/// reverse sweep would then write freed memory.
static bool LaterWriteMayFree(StoreInst &store,
                              ArrayRef<Instruction *> writes,
                              BatchAAResults &batch, DominatorTree &dt,
                              LoopInfo &li) {
  MemoryLocation loc = MemoryLocation::get(&store);
  unsigned queries = 0;
  for (Instruction *later : writes) {
    auto *call = dyn_cast<CallBase>(later);
    if (!call || isa<MemIntrinsic>(call) || call->hasFnAttr(Attribute::NoFree))
      continue;
    if (++queries > kMaxQueriesPerStore)
      return true;
    if (isModSet(batch.getModRefInfo(later, loc)) &&
        isPotentiallyReachable(&store, later, nullptr, &dt, &li))
      return true;
  }
  return false;
}

SmallPtrSet<Instruction *, 8>
FindLoggableStores(ArrayRef<Instruction *> writes,
                   const SmallPtrSetImpl<Instruction *> &undoable,
                   BatchAAResults &batch, DominatorTree &dt, LoopInfo &li) {
  SmallPtrSet<Instruction *, 8> loggable;
  for (Instruction *w : writes) {
    auto *store = dyn_cast<StoreInst>(w);
    if (!store || !store->isSimple() || undoable.count(w) ||
        store->getPointerAddressSpace() != 0)
      continue;
    Type *t = store->getValueOperand()->getType();
    if (t->isAggregateType() || isa<ScalableVectorType>(t))
      continue;
    uint64_t bytes =
        store->getDataLayout().getTypeStoreSize(t).getFixedValue();
    if (bytes == 0 || bytes > kMaxLoggedBytes ||
        !WritesLastingMemory(store->getPointerOperand(), li) ||
        LaterWriteMayFree(*store, writes, batch, dt, li))
      continue;
    loggable.insert(store);
  }
  return loggable;
}

bool ReverseEmitter::CanLogStores() const {
  return !split_ && !gpu_ && !inline_noinline_ && cache_.undo_log();
}

// Choosing ---------------------------------------------------------------

/// How often an instruction of `bb` runs, roughly: 16 times per loop
/// around it.
static double Frequency(const BasicBlock *bb, const LoopInfo &li) {
  return std::pow(16.0, std::min(li.getLoopDepth(bb), 6u));
}

/// Whether the operand `use` of a call enters its result linearly, with a
/// constant factor: fmuladd's addend, or a factor times a constant; a sum
/// reduction's elements.
static bool LinearUse(const Use &use) {
  auto *ii = dyn_cast<IntrinsicInst>(use.getUser());
  if (!ii)
    return false;
  switch (ii->getIntrinsicID()) {
  case Intrinsic::fmuladd:
  case Intrinsic::fma: {
    unsigned k = use.getOperandNo();
    return k == 2 || (k < 2 && isa<Constant>(ii->getArgOperand(1 - k)));
  }
  case Intrinsic::vector_reduce_fadd:
    return true;
  default:
    return false;
  }
}

bool ReverseEmitter::ValueMayBeNeeded(Instruction &r) {
  if (!HoldsFloat(r.getType()))
    return true; // Addresses, branches, trip counts.
  // A float is needed where it meets an operation whose adjoint reads its
  // operands; sums, moves and conversions only pass it on, and a store
  // writes it away.
  constexpr unsigned kMaxUsers = 64;
  SmallVector<Instruction *, 8> work{&r};
  SmallPtrSet<Instruction *, 16> seen{&r};
  while (!work.empty()) {
    Instruction *v = work.pop_back_val();
    for (Use &use : v->uses()) {
      auto *u = dyn_cast<Instruction>(use.getUser());
      if (!u || seen.count(u))
        continue;
      if (seen.size() > kMaxUsers)
        return true;
      switch (u->getOpcode()) {
      case Instruction::Store:
        if (use.getOperandNo() == 0)
          continue;
        return true;
      case Instruction::FMul:
        if (isa<Constant>(u->getOperand(1 - use.getOperandNo())))
          break;
        return true;
      case Instruction::FDiv:
        if (use.getOperandNo() == 0 && isa<Constant>(u->getOperand(1)))
          break;
        return true;
      case Instruction::Select:
        if (use.getOperandNo() == 0)
          return true;
        break;
      case Instruction::Call:
        if (!LinearUse(use))
          return true;
        break;
      case Instruction::FAdd:
      case Instruction::FSub:
      case Instruction::FNeg:
      case Instruction::FPExt:
      case Instruction::FPTrunc:
      case Instruction::PHI:
      case Instruction::ExtractElement:
      case Instruction::InsertElement:
      case Instruction::ShuffleVector:
      case Instruction::ExtractValue:
      case Instruction::InsertValue:
        break;
      default:
        return true;
      }
      seen.insert(u);
      work.push_back(u);
    }
  }
  return false;
}

/// Among a class's `stores`, drops those whose entries would take more
/// tape than the loads they alone keep from being cached: repeatedly the
/// store with the largest excess, whose loads are then cached (and count
/// no more for the other stores). `cost` holds each member's weighted
/// bytes, `loads_of` each store's loads; the loads of dropped stores join
/// `cached`.
static void DropCostlyStores(
    SmallVectorImpl<Instruction *> &stores,
    DenseMap<Instruction *, SmallVector<Instruction *, 4>> &loads_of,
    DenseMap<Instruction *, double> &cost,
    SmallPtrSetImpl<Instruction *> &cached) {
  while (!stores.empty()) {
    size_t worst = 0;
    double worstExcess = 0;
    for (size_t k = 0; k < stores.size(); ++k) {
      double saved = 0;
      for (Instruction *r : loads_of[stores[k]])
        if (!cached.count(r))
          saved += cost[r];
      double excess = cost[stores[k]] - saved;
      if (k == 0 || excess > worstExcess) {
        worst = k;
        worstExcess = excess;
      }
    }
    if (worstExcess < 0)
      return;
    for (Instruction *r : loads_of[stores[worst]])
      cached.insert(r);
    stores.erase(stores.begin() + worst);
  }
}

void ReverseEmitter::ChooseLoggedStores(
    MapVector<Instruction *, SmallVector<Instruction *, 2>> &pending,
    const SmallPtrSetImpl<Instruction *> &loggable) {
  // Loads and the loggable stores that may change them, in classes.
  EquivalenceClasses<Instruction *> classes;
  for (auto &[r, stores] : pending) {
    if (clobbers_[r])
      continue;
    classes.insert(r);
    for (Instruction *w : stores)
      if (loggable.count(w))
        classes.unionSets(r, w);
  }
  const DataLayout &dl = out_.getDataLayout();
  for (auto it = classes.begin(); it != classes.end(); ++it) {
    if (!(*it)->isLeader())
      continue;
    SmallVector<Instruction *, 8> loads, stores;
    DenseMap<Instruction *, double> cost;
    DenseMap<Instruction *, SmallVector<Instruction *, 4>> loads_of;
    for (Instruction *i : classes.members(**it)) {
      double frequency = Frequency(i->getParent(), *li_);
      if (auto *store = dyn_cast<StoreInst>(i)) {
        stores.push_back(i);
        uint64_t bytes =
            dl.getTypeStoreSize(store->getValueOperand()->getType());
        cost[i] = frequency * double(8 + alignTo(bytes, 8));
        continue;
      }
      loads.push_back(i);
      cost[i] = ValueMayBeNeeded(*i)
                    ? frequency * double(dl.getTypeAllocSize(i->getType()))
                    : 0.0;
      for (Instruction *w : pending[i])
        if (loggable.count(w))
          loads_of[w].push_back(i);
    }
    if (stores.empty())
      continue;
    // The choice is quadratic in the class; a huge one is cached.
    constexpr size_t kMaxPairs = 1 << 20;
    SmallPtrSet<Instruction *, 16> cached;
    if (stores.size() * loads.size() > kMaxPairs)
      stores.clear();
    DropCostlyStores(stores, loads_of, cost, cached);
    for (Instruction *w : stores)
      undo_log_.entry_words[cast<StoreInst>(w)] = 0;
    for (Instruction *r : loads) {
      if (stores.empty())
        cached.insert(r);
      for (Instruction *w : pending[r]) {
        if (!loggable.count(w))
          continue;
        if (cached.count(r)) {
          clobbers_[r] = w;
          break;
        }
        ++undo_log_.reloads[cast<StoreInst>(w)];
      }
    }
  }
}

// Emitting ---------------------------------------------------------------

static uint64_t StoreBytes(StoreInst &store) {
  return store.getDataLayout()
      .getTypeStoreSize(store.getValueOperand()->getType())
      .getFixedValue();
}

void ReverseEmitter::CreateUndoLog() {
  UndoLog &log = undo_log_;
  if (log.entry_words.empty())
    return;
  uint64_t first = StoreBytes(*log.entry_words.front().first);
  for (auto &[store, words] : log.entry_words)
    log.sized |= StoreBytes(*store) != first;
  for (auto &[store, words] : log.entry_words)
    words = (log.sized ? 2 : 1) + unsigned(divideCeil(StoreBytes(*store), 8));
  IRBuilder<> entry(&*out_.getEntryBlock().getFirstInsertionPt());
  Type *i64 = entry.getInt64Ty();
  log.tape.capacity = entry.CreateAlloca(i64, nullptr, "undo.log.cap");
  AllocaInst *slot = entry.CreateAlloca(entry.getPtrTy(), nullptr, "undo.log");
  log.tape.caches.push_back({slot, i64});
  log.length = entry.CreateAlloca(i64, nullptr, "undo.log.len");
  log.end = entry.CreateAlloca(i64, nullptr, "undo.log.end");
  entry.CreateStore(entry.getInt64(0), log.tape.capacity);
  entry.CreateStore(ConstantPointerNull::get(entry.getPtrTy()), slot);
  entry.CreateStore(entry.getInt64(0), log.length);
  entry.CreateStore(entry.getInt64(0), log.end);
}

/// The integer type of a store's bytes, as the log moves them.
static IntegerType *BytesType(StoreInst &store) {
  return IntegerType::get(store.getContext(), unsigned(StoreBytes(store) * 8));
}

/// Words a loop's entry reserves at most for the entries of the stores
/// inside (beyond that the pushes' own growth takes over, so a count far
/// above the truth never allocates much).
static constexpr uint64_t kMaxUpFrontWords = uint64_t(1) << 22;

const SCEV *ReverseEmitter::TripBound(Loop *m, Loop *a,
                                      SCEVExpander &checker) {
  const SCEV *s = tapes_[m].backedge_count;
  Instruction *at = a->getLoopPreheader()->getTerminator();
  if (!s || !se_->isLoopInvariant(s, a) || !checker.isSafeToExpandAt(s, at))
    return nullptr;
  // An inner loop must be entered in every iteration of its parent that
  // completes: behind a guard, its count would be taken where it means
  // nothing (a count of -1 when the guard says the loop does not run).
  if (m != a && !dt_->dominates(m->getLoopPreheader(),
                                m->getParentLoop()->getLoopLatch()))
    return nullptr;
  return s;
}

bool ReverseEmitter::BoundedLogLoop(Loop *a, SCEVExpander &checker) {
  for (auto &[store, words] : undo_log_.entry_words) {
    if (!a->contains(store->getParent()))
      continue;
    for (Loop *m = li_->getLoopFor(store->getParent());; m = m->getParentLoop()) {
      if (!TripBound(m, a, checker))
        return false;
      if (m == a)
        break;
    }
  }
  return true;
}

void ReverseEmitter::ReserveUndoLog(Function *reserve) {
  UndoLog &log = undo_log_;
  SCEVExpander expander(*se_, "undo.log");
  // Per logged store in a loop: the outermost loop around it whose entry
  // knows how many entries every logged store inside will push.
  SetVector<Loop *> roots;
  for (auto &[store, words] : log.entry_words) {
    Loop *root = nullptr;
    for (Loop *a = li_->getLoopFor(store->getParent()); a;
         a = a->getParentLoop())
      if (BoundedLogLoop(a, expander))
        root = a;
    if (root)
      roots.insert(root);
  }
  Type *i64 = fb_.getInt64Ty();
  for (Loop *root : roots) {
    Instruction *at = root->getLoopPreheader()->getTerminator();
    Value *bound = fb_.getInt64(0);
    for (auto &[store, words] : log.entry_words) {
      if (!root->contains(store->getParent()))
        continue;
      fb_.SetInsertPoint(at);
      Value *count = fb_.getInt64(words);
      for (Loop *m = li_->getLoopFor(store->getParent());;
           m = m->getParentLoop()) {
        Value *btc =
            expander.expandCodeFor(TripBound(m, root, expander), nullptr, at);
        fb_.SetInsertPoint(at);
        Value *trips = fb_.CreateAdd(fb_.CreateZExtOrTrunc(btc, i64),
                                     fb_.getInt64(1));
        // Wrapping around only reserves less: each push checks its room.
        count = fb_.CreateMul(count, trips);
        if (m == root)
          break;
      }
      bound = fb_.CreateAdd(bound, count);
    }
    bound = fb_.CreateBinaryIntrinsic(Intrinsic::umin, bound,
                                      fb_.getInt64(kMaxUpFrontWords));
    Value *need = fb_.CreateAdd(fb_.CreateLoad(i64, log.length), bound);
    fb_.CreateCall(reserve,
                   {log.tape.capacity, need, log.tape.caches.front().first});
  }
}

void ReverseEmitter::EmitUndoLogPushes() {
  UndoLog &log = undo_log_;
  if (log.entry_words.empty())
    return;
  GlobalVariable *pool =
      cache_.tape_pools() ? TapePool(unsigned(tapes_.size())) : nullptr;
  Function *reserve = ReserveFunction(log.tape, unsigned(tapes_.size()), pool);
  Function *release = ReleaseFunction(log.tape, unsigned(tapes_.size()), pool);
  AllocaInst *slot = log.tape.caches.front().first;
  Type *i64 = fb_.getInt64Ty();
  ReserveUndoLog(reserve);
  MDNode *rarely = MDBuilder(out_.getContext()).createBranchWeights(1, 4096);
  for (auto &[store, words] : log.entry_words) {
    log.loop_of_store[store] = loop_of_.lookup(store->getParent());
    // Room for the entry: reserved at a loop's entry where the count was
    // known there, else made here (geometric growth, rarely taken).
    fb_.SetInsertPoint(store);
    Value *length = fb_.CreateLoad(i64, log.length, "undo.at");
    Value *next = fb_.CreateAdd(length, fb_.getInt64(words));
    Value *full =
        fb_.CreateICmpUGT(next, fb_.CreateLoad(i64, log.tape.capacity));
    BasicBlock *head = store->getParent();
    Instruction *grow =
        SplitBlockAndInsertIfThen(full, store->getIterator(), false, rarely,
                                  /*DTU=*/nullptr, li_.get());
    for (BasicBlock *bb : {grow->getParent(), store->getParent()})
      loop_of_[bb] = loop_of_.lookup(head);
    IRBuilder<>(grow).CreateCall(reserve, {log.tape.capacity, next, slot});
    fb_.SetInsertPoint(store);
    Value *array = fb_.CreateLoad(fb_.getPtrTy(), slot);
    Value *entry = fb_.CreateGEP(i64, array, length);
    Value *address = store->getPointerOperand();
    fb_.CreateAlignedStore(address, entry, Align(8));
    if (log.sized)
      fb_.CreateAlignedStore(fb_.getInt64(StoreBytes(*store)),
                             fb_.CreateConstGEP1_64(i64, entry, 1),
                             Align(8));
    Value *payload = fb_.CreateConstGEP1_64(i64, entry, log.sized ? 2 : 1);
    IntegerType *bytes = BytesType(*store);
    Value *old =
        fb_.CreateAlignedLoad(bytes, address, store->getAlign(), "undo.old");
    fb_.CreateAlignedStore(old, payload, Align(8));
    fb_.CreateStore(next, log.length);
  }
  rb_.SetInsertPoint(final_->getTerminator());
  rb_.CreateCall(release, {log.tape.capacity, slot});
}

void ReverseEmitter::UndoLoggedStore(StoreInst &store) {
  auto it = undo_log_.entry_words.find(&store);
  if (it == undo_log_.entry_words.end())
    return;
  UndoLog &log = undo_log_;
  Type *i64 = rb_.getInt64Ty();
  Value *length = rb_.CreateSub(rb_.CreateLoad(i64, log.length),
                                rb_.getInt64(it->second), "undo.at");
  rb_.CreateStore(length, log.length);
  Value *array = rb_.CreateLoad(rb_.getPtrTy(), log.tape.caches.front().first);
  Value *entry = rb_.CreateGEP(i64, array, length);
  Value *address = rb_.CreateAlignedLoad(rb_.getPtrTy(), entry, Align(8));
  Value *payload = rb_.CreateConstGEP1_64(i64, entry, log.sized ? 2 : 1);
  IntegerType *bytes = BytesType(store);
  Value *old = rb_.CreateAlignedLoad(bytes, payload, Align(8), "undo.old");
  Value *now = rb_.CreateAlignedLoad(bytes, address, store.getAlign());
  rb_.CreateAlignedStore(old, address, store.getAlign());
  rb_.CreateAlignedStore(now, payload, Align(8));
}

void ReverseEmitter::MarkUndoLogEnd() {
  if (undo_log_.entry_words.empty())
    return;
  rb_.CreateStore(rb_.CreateLoad(rb_.getInt64Ty(), undo_log_.length),
                  undo_log_.end);
}

/// `void replay(ptr log, i64 words)`: writes each entry's bytes to its
/// address, first entry first. Entries with a size word are copied by a
/// switch over the logged stores' sizes (`sizes`, bytes), a copy of each.
static Function *ReplayFunction(Function &derivative, ArrayRef<uint64_t> sizes,
                                bool sized, Align align) {
  Module &m = *derivative.getParent();
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c), *i64 = Type::getInt64Ty(c);
  auto *fty = FunctionType::get(Type::getVoidTy(c), {ptr, i64}, false);
  Function *f = Function::Create(fty, GlobalValue::InternalLinkage,
                                 derivative.getName() + ".undo.replay", &m);
  auto *entry = BasicBlock::Create(c, "entry", f);
  auto *body = BasicBlock::Create(c, "entry.replay", f);
  auto *step = BasicBlock::Create(c, "next.entry", f);
  auto *done = BasicBlock::Create(c, "done", f);
  IRBuilder<> b(entry);
  Value *end = f->getArg(1);
  b.CreateCondBr(b.CreateICmpEQ(end, b.getInt64(0)), done, body);
  b.SetInsertPoint(body);
  PHINode *at = b.CreatePHI(i64, 2, "at");
  Value *e = b.CreateGEP(i64, f->getArg(0), at);
  Value *address = b.CreateAlignedLoad(ptr, e, Align(8));
  Value *size = b.getInt64(sizes.front());
  if (sized)
    size = b.CreateAlignedLoad(i64, b.CreateConstGEP1_64(i64, e, 1), Align(8));
  Value *payload = b.CreateConstGEP1_64(i64, e, sized ? 2 : 1);
  auto copy = [&](IRBuilder<> &cb, uint64_t bytes) {
    Type *t = IntegerType::get(c, unsigned(bytes * 8));
    cb.CreateAlignedStore(cb.CreateAlignedLoad(t, payload, Align(8)), address,
                          align);
    cb.CreateBr(step);
  };
  if (!sized) {
    copy(b, sizes.front());
  } else {
    auto *other = BasicBlock::Create(c, "copy.other", f, step);
    SwitchInst *sw = b.CreateSwitch(size, other, unsigned(sizes.size()));
    for (uint64_t bytes : sizes) {
      auto *one = BasicBlock::Create(c, "copy." + Twine(bytes), f, other);
      sw->addCase(b.getInt64(bytes), one);
      IRBuilder<> cb(one);
      copy(cb, bytes);
    }
    IRBuilder<> ob(other);
    ob.CreateMemCpy(address, MaybeAlign(), payload, Align(8), size);
    ob.CreateBr(step);
  }
  b.SetInsertPoint(step);
  Value *payloadWords = b.CreateLShr(b.CreateAdd(size, b.getInt64(7)), 3);
  Value *next =
      b.CreateAdd(at, b.CreateAdd(payloadWords, b.getInt64(sized ? 2 : 1)));
  at->addIncoming(b.getInt64(0), entry);
  at->addIncoming(next, step);
  b.CreateCondBr(b.CreateICmpULT(next, end), body, done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return f;
}

void ReverseEmitter::ReplayUndoLog() {
  UndoLog &log = undo_log_;
  if (log.entry_words.empty())
    return;
  Align align = log.entry_words.front().first->getAlign();
  SmallVector<uint64_t, 4> sizes;
  for (auto &[store, words] : log.entry_words) {
    align = std::min(align, store->getAlign());
    if (!is_contained(sizes, StoreBytes(*store)))
      sizes.push_back(StoreBytes(*store));
  }
  Function *replay = ReplayFunction(out_, sizes, log.sized, align);
  Value *array = rb_.CreateLoad(rb_.getPtrTy(), log.tape.caches.front().first);
  rb_.CreateCall(replay,
                 {array, rb_.CreateLoad(rb_.getInt64Ty(), log.end)});
}

} // namespace autodiff
