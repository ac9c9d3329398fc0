//===- enzyme_bridge/reverse/ReverseTape.cpp - Recompute or cache ---------===//
//
// The reverse sweep reads primal values through Lookup(). A value is
// recomputed where that costs no memory: constants and arguments as they
// are, integers whose scalar evolution is an affine function of the
// iteration counters of the loops being reversed, cheap pure instructions
// and loads whose memory no later write changes (ReverseReloads.cpp) whose
// operands are themselves recomputable. Anything else is
// cached by the forward sweep right after it is computed: in a stack slot
// outside loops (promoted to a register by the optimizer), or in an array
// indexed by the iteration inside a loop.
//
// Every loop gets a counter of its header executions. A loop's caches are
// indexed by a flat iteration number, counted over all entries of the loop:
// the forward sweep counts iterations up, the reverse sweep visits them in
// exactly the opposite order and counts them down, so no per-entry bases
// need recording; only the trip count of each entry is (at the exit, one
// value per entry, itself cached or recomputed like any other value). The
// arrays grow geometrically; when scalar evolution knows the trip count at
// the preheader, the room is reserved once per entry instead of checked per
// iteration. They are freed when the reverse sweep ends.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace autodiff {

static AllocaInst *EntryAlloca(Function &f, Type *t, const Twine &name) {
  IRBuilder<> b(&*f.getEntryBlock().getFirstInsertionPt());
  return b.CreateAlloca(t, nullptr, name);
}

/// Where the forward sweep caches `i`: right after it; for a phi at the
/// end of its block (a loop header's first instructions reserve the room);
/// for an invoke at the start of its normal destination (null when that
/// block has other predecessors, where the result is not available).
static Instruction *AfterDef(Instruction &i) {
  if (isa<PHINode>(i))
    return i.getParent()->getTerminator();
  if (auto *inv = dyn_cast<InvokeInst>(&i)) {
    BasicBlock *normal = inv->getNormalDest();
    return normal->getSinglePredecessor() ? &*normal->getFirstInsertionPt()
                                          : nullptr;
  }
  return i.getNextNode();
}

void ReverseEmitter::CreateLoopTapes() {
  Type *i64 = Type::getInt64Ty(out_.getContext());
  IRBuilder<> entry(&*out_.getEntryBlock().getFirstInsertionPt());
  // Trip counts first: the instrumentation below adds phis to headers.
  SCEVExpander checker(*se_, "tape.trips");
  for (Loop *l : li_->getLoopsInPreorder()) {
    LoopTape &t = tapes_[l];
    const SCEV *btc = se_->getBackedgeTakenCount(l);
    if (!isa<SCEVCouldNotCompute>(btc) && btc->getType()->isIntegerTy() &&
        checker.isSafeToExpandAt(btc, l->getLoopPreheader()->getTerminator()))
      t.backedge_count = btc;
  }
  for (Loop *l : li_->getLoopsInPreorder()) {
    LoopTape &t = tapes_[l];
    t.loop = l;
    t.preheader = l->getLoopPreheader();
    t.header = l->getHeader();
    t.latch = l->getLoopLatch();
    std::string name = t.header->getName().str();
    t.total = EntryAlloca(out_, i64, name + ".iters");
    t.reverse_counter = EntryAlloca(out_, i64, name + ".rev.iter");
    t.reverse_base = EntryAlloca(out_, i64, name + ".rev.base");
    t.capacity = EntryAlloca(out_, i64, name + ".tape.cap");
    entry.CreateStore(ConstantInt::get(i64, 0), t.total);
    entry.CreateStore(ConstantInt::get(i64, 0), t.capacity);

    fb_.SetInsertPoint(t.preheader->getTerminator());
    t.forward_base = fb_.CreateLoad(i64, t.total, name + ".base");
    fb_.SetInsertPoint(&*t.header->begin());
    t.counter = fb_.CreatePHI(i64, 2, name + ".iter");
    fb_.SetInsertPoint(&*t.header->getFirstInsertionPt());
    t.flat_index = fb_.CreateAdd(t.forward_base, t.counter, name + ".index");
    fb_.SetInsertPoint(t.latch->getTerminator());
    Value *next = fb_.CreateAdd(t.counter, ConstantInt::get(i64, 1));
    t.counter->addIncoming(ConstantInt::get(i64, 0), t.preheader);
    t.counter->addIncoming(next, t.latch);

    SmallVector<BasicBlock *, 4> exits;
    l->getUniqueExitBlocks(exits);
    for (BasicBlock *exit : exits) {
      fb_.SetInsertPoint(&*exit->begin());
      PHINode *trips = fb_.CreatePHI(i64, 2, name + ".trips");
      for (BasicBlock *pred : predecessors(exit)) {
        // A second edge from the same block (a switch or a branch whose
        // two targets are the exit) takes the same count.
        if (int k = trips->getBasicBlockIndex(pred); k >= 0) {
          trips->addIncoming(trips->getIncomingValue(unsigned(k)), pred);
          continue;
        }
        IRBuilder<> pb(pred->getTerminator());
        trips->addIncoming(pb.CreateAdd(t.counter, ConstantInt::get(i64, 1)),
                           pred);
      }
      fb_.SetInsertPoint(&*exit->getFirstInsertionPt());
      fb_.CreateStore(fb_.CreateAdd(t.forward_base, trips), t.total);
      t.exit_trip_counts[exit] = trips;
    }
  }
}

bool ReverseEmitter::InContext(const Loop *l) const {
  const Loop *ctx = loop_of_.lookup(ctx_);
  return l && ctx && l->contains(ctx);
}

Value *ReverseEmitter::ReverseIndex(LoopTape &t) {
  auto key = reinterpret_cast<Value *>(t.reverse_base);
  if (Value *v = memo_.lookup(key))
    return v;
  Type *i64 = rb_.getInt64Ty();
  Value *base = rb_.CreateLoad(i64, t.reverse_base);
  Value *counter = rb_.CreateLoad(i64, t.reverse_counter);
  Value *index = rb_.CreateAdd(base, counter, "rev.index");
  memo_[key] = index;
  return index;
}

Value *ReverseEmitter::Lookup(Value *v) {
  auto *i = dyn_cast<Instruction>(v);
  if (!i)
    return v;
  if (Value *known = memo_.lookup(v))
    return known;
  bool recompute = CanRecompute(v, 0) ||
                   (!caches_.count(i) && RecomputeFromOneCache(*i));
  Value *result = recompute ? Recompute(*i, 0) : LoadFromCache(*i);
  memo_[v] = result;
  return result;
}

Value *ReverseEmitter::LookupShadow(Value *p) {
  if (isa<Constant>(p) && !isa<GlobalValue>(p))
    return nullptr;
  Value *s = shadows_.lookup(p);
  return s ? Lookup(s) : nullptr;
}

// Recomputation ------------------------------------------------------------

static constexpr unsigned kMaxRecomputeDepth = 8;

/// Instructions without side effects or memory reads, cheap enough to
/// execute again in the reverse sweep.
static bool IsCheapPure(const Instruction &i) {
  // GPU thread and block indices and sizes (GpuKernels.h).
  if (IsLaunchIndex(&i))
    return true;
  if (auto *ii = dyn_cast<IntrinsicInst>(&i))
    switch (ii->getIntrinsicID()) {
    case Intrinsic::fmuladd:
    case Intrinsic::fma:
    case Intrinsic::fabs:
    case Intrinsic::copysign:
    case Intrinsic::minnum:
    case Intrinsic::maxnum:
    case Intrinsic::minimum:
    case Intrinsic::maximum:
    case Intrinsic::floor:
    case Intrinsic::ceil:
    case Intrinsic::trunc:
    case Intrinsic::rint:
    case Intrinsic::nearbyint:
    case Intrinsic::round:
    case Intrinsic::sqrt:
    case Intrinsic::smax:
    case Intrinsic::smin:
    case Intrinsic::umax:
    case Intrinsic::umin:
    case Intrinsic::abs:
      return true;
    default:
      return false;
    }
  return isa<BinaryOperator>(i) || isa<UnaryOperator>(i) || isa<CastInst>(i) ||
         isa<GetElementPtrInst>(i) || isa<CmpInst>(i) || isa<SelectInst>(i) ||
         isa<ExtractValueInst>(i) || isa<InsertValueInst>(i) ||
         isa<ExtractElementInst>(i) || isa<InsertElementInst>(i) ||
         isa<ShuffleVectorInst>(i) || isa<FreezeInst>(i);
}

bool ReverseEmitter::CanRecomputeSCEV(const SCEV *s, unsigned depth) {
  switch (s->getSCEVType()) {
  case scConstant:
    return true;
  case scUnknown: {
    Value *v = cast<SCEVUnknown>(s)->getValue();
    return !isa<Instruction>(v) || memo_.count(v) || CanRecompute(v, depth + 1) ||
           !loop_of_.lookup(cast<Instruction>(v)->getParent()) ||
           InContext(loop_of_.lookup(cast<Instruction>(v)->getParent()));
  }
  case scAddExpr:
  case scMulExpr:
    for (const SCEV *op : cast<SCEVNAryExpr>(s)->operands())
      if (!CanRecomputeSCEV(op, depth))
        return false;
    return true;
  case scZeroExtend:
  case scSignExtend:
  case scTruncate:
    return CanRecomputeSCEV(cast<SCEVCastExpr>(s)->getOperand(0), depth);
  case scUMaxExpr:
  case scSMaxExpr:
  case scUMinExpr:
  case scSMinExpr:
  case scSequentialUMinExpr:
    for (const SCEV *op : cast<SCEVNAryExpr>(s)->operands())
      if (!CanRecomputeSCEV(op, depth))
        return false;
    return true;
  case scUDivExpr: {
    auto *div = cast<SCEVUDivExpr>(s);
    auto *rhs = dyn_cast<SCEVConstant>(div->getRHS());
    return rhs && !rhs->getValue()->isZero() &&
           CanRecomputeSCEV(div->getLHS(), depth);
  }
  case scAddRecExpr: {
    auto *ar = cast<SCEVAddRecExpr>(s);
    return ar->isAffine() && InContext(ar->getLoop()) &&
           tapes_.count(const_cast<Loop *>(ar->getLoop())) &&
           CanRecomputeSCEV(ar->getStart(), depth) &&
           CanRecomputeSCEV(ar->getStepRecurrence(*se_), depth);
  }
  default:
    return false;
  }
}

bool ReverseEmitter::Recomputable(const Instruction &i) const {
  if (IsCheapPure(i))
    return true;
  // In GPU device code a tape lives in slow memory: libdevice math is
  // computed again instead (it has no side effects).
  const auto *call = dyn_cast<CallInst>(&i);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  return gpu_ && callee && FindRule(*call) &&
         (callee->isIntrinsic() || callee->getName().starts_with("__nv_"));
}

bool ReverseEmitter::CanRecompute(Value *v, unsigned depth) {
  auto *i = dyn_cast<Instruction>(v);
  if (!i || memo_.count(v))
    return true;
  if (depth > kMaxRecomputeDepth)
    return false;
  // A value of a loop that is not being reversed here is only seen through
  // its cache (its iteration is not known).
  Loop *l = loop_of_.lookup(i->getParent());
  if (l && !InContext(l))
    return false;
  if (i->getType()->isIntegerTy() && se_->isSCEVable(i->getType())) {
    const SCEV *s = se_->getSCEV(i);
    if (!isa<SCEVUnknown>(s) && CanRecomputeSCEV(s, depth))
      return true;
  }
  if (auto *p = dyn_cast<PHINode>(i))
    return CanRecomputeCarried(*p, 0, depth) || CanRecomputeGuarded(*p, depth);
  if (!Recomputable(*i) && !(isa<LoadInst>(i) && Reloadable(*i)))
    return false;
  for (Value *op : i->operands())
    if (isa<Instruction>(op) && !CanRecompute(op, depth + 1))
      return false;
  return true;
}

/// Links of a chain recomputed from one cached value: at most this long,
/// and at most this many instructions in all.
static constexpr unsigned kMaxChainDepth = 64;
static constexpr unsigned kMaxChainSize = 256;

/// Whether the adjoint of some active user of `v` needs `v`'s value (a
/// product, a quotient, a math function): then `v` is cached or recomputed
/// anyway, and recomputing from it adds nothing to the tape.
bool ReverseEmitter::NeededByAdjoints(Instruction &v) {
  if (!HoldsFloat(v.getType()) || !Active(&v))
    return false;
  for (User *u : v.users()) {
    auto *ui = dyn_cast<Instruction>(u);
    if (!ui || !Active(ui))
      continue;
    unsigned op = ui->getOpcode();
    if (op == Instruction::FMul || op == Instruction::FDiv ||
        op == Instruction::FRem)
      return true;
    if (auto *call = dyn_cast<CallBase>(ui))
      if (FindRule(*call))
        return true;
  }
  return false;
}

bool ReverseEmitter::RecomputeFromOneCache(Instruction &i) {
  auto available = [&](Instruction &x) {
    Loop *l = loop_of_.lookup(x.getParent());
    return !l || InContext(l);
  };
  auto link = [&](Instruction &x) {
    return Recomputable(x) || (isa<LoadInst>(x) && Reloadable(x));
  };
  if (!link(i) || !available(i))
    return false;
  SmallPtrSet<Instruction *, 32> seen;
  SmallVector<std::pair<Instruction *, unsigned>, 16> work = {{&i, 0}};
  Instruction *leaf = nullptr;
  while (!work.empty()) {
    auto [x, depth] = work.pop_back_val();
    for (Value *op : x->operands()) {
      auto *oi = dyn_cast<Instruction>(op);
      if (!oi || !seen.insert(oi).second || caches_.count(oi) ||
          CanRecompute(oi, 0))
        continue;
      if (!available(*oi) || seen.size() > kMaxChainSize)
        return false;
      if (link(*oi) && depth < kMaxChainDepth) {
        work.push_back({oi, depth + 1});
        continue;
      }
      if (NeededByAdjoints(*oi))
        continue;
      if (leaf)
        return false;
      leaf = oi;
    }
  }
  return true;
}

Value *ReverseEmitter::RecomputeSCEV(const SCEV *s, Type *ty, unsigned depth) {
  auto fit = [&](Value *v) { return rb_.CreateSExtOrTrunc(v, ty); };
  switch (s->getSCEVType()) {
  case scConstant:
    return fit(cast<SCEVConstant>(s)->getValue());
  case scUnknown: {
    Value *v = Lookup(cast<SCEVUnknown>(s)->getValue());
    return v->getType()->isIntegerTy() ? fit(v) : rb_.CreatePtrToInt(v, ty);
  }
  case scAddExpr:
  case scMulExpr: {
    Value *acc = nullptr;
    for (const SCEV *op : cast<SCEVNAryExpr>(s)->operands()) {
      Value *v = RecomputeSCEV(op, ty, depth);
      acc = !acc ? v
            : s->getSCEVType() == scAddExpr ? rb_.CreateAdd(acc, v)
                                            : rb_.CreateMul(acc, v);
    }
    return acc;
  }
  case scUMaxExpr:
  case scSMaxExpr:
  case scUMinExpr:
  case scSMinExpr:
  case scSequentialUMinExpr: {
    Intrinsic::ID id = s->getSCEVType() == scUMaxExpr   ? Intrinsic::umax
                       : s->getSCEVType() == scSMaxExpr ? Intrinsic::smax
                       : s->getSCEVType() == scSMinExpr ? Intrinsic::smin
                                                        : Intrinsic::umin;
    Value *acc = nullptr;
    for (const SCEV *op : cast<SCEVNAryExpr>(s)->operands()) {
      Value *v = RecomputeSCEV(op, ty, depth);
      acc = acc ? rb_.CreateBinaryIntrinsic(id, acc, v) : v;
    }
    return acc;
  }
  case scUDivExpr: {
    auto *div = cast<SCEVUDivExpr>(s);
    Type *t = div->getType();
    Value *lhs = RecomputeSCEV(div->getLHS(), t, depth);
    Value *rhs = RecomputeSCEV(div->getRHS(), t, depth);
    return fit(rb_.CreateUDiv(lhs, rhs));
  }
  case scZeroExtend:
  case scSignExtend:
  case scTruncate: {
    const SCEV *op = cast<SCEVCastExpr>(s)->getOperand(0);
    Value *v = RecomputeSCEV(op, op->getType(), depth);
    if (s->getSCEVType() == scZeroExtend)
      return rb_.CreateZExt(v, ty);
    if (s->getSCEVType() == scSignExtend)
      return rb_.CreateSExt(v, ty);
    return rb_.CreateTrunc(v, ty);
  }
  case scAddRecExpr: {
    auto *ar = cast<SCEVAddRecExpr>(s);
    LoopTape &t = tapes_[const_cast<Loop *>(ar->getLoop())];
    Value *k = rb_.CreateLoad(rb_.getInt64Ty(), t.reverse_counter);
    Value *start = RecomputeSCEV(ar->getStart(), ty, depth);
    Value *step = RecomputeSCEV(ar->getStepRecurrence(*se_), ty, depth);
    return rb_.CreateAdd(start, rb_.CreateMul(fit(k), step));
  }
  default:
    llvm_unreachable("CanRecomputeSCEV admitted an unknown expression");
  }
}

Value *ReverseEmitter::Recompute(Instruction &i, unsigned depth) {
  if (i.getType()->isIntegerTy() && se_->isSCEVable(i.getType())) {
    const SCEV *s = se_->getSCEV(&i);
    if (!isa<SCEVUnknown>(s) && CanRecomputeSCEV(s, depth))
      return RecomputeSCEV(s, i.getType(), depth);
  }
  if (auto *p = dyn_cast<PHINode>(&i))
    return CanRecomputeCarried(*p, 0, depth) ? RecomputeCarried(*p, 0)
                                              : RecomputeGuarded(*p);
  Instruction *copy = i.clone();
  for (Use &op : copy->operands())
    op.set(Lookup(op.get()));
  copy->setName(i.getName() + ".re");
  return rb_.Insert(copy);
}

// Caches --------------------------------------------------------------------

/// Tape arrays come from realloc, aligned to 16 bytes: wider vectors are
/// accessed with that alignment.
Align ReverseEmitter::TapeAlign(Type *t) const {
  Align abi = out_.getDataLayout().getABITypeAlign(t);
  return std::min(abi, Align(16));
}

void ReverseEmitter::RecordCache(Instruction &i) {
  if (cache_.tape_log())
    cached_in_order_.push_back({&i, CacheReason(i)});
}

Value *ReverseEmitter::LoadFromCache(Instruction &i) {
  Type *ty = i.getType();
  Loop *l = loop_of_.lookup(i.getParent());
  AllocaInst *&slot = caches_[&i];
  if (!slot) {
    Instruction *after = AfterDef(i);
    if (!after) {
      if (lookup_error_.ok())
        lookup_error_ = Unsupported(i, "keeping the result of an invoke "
                                       "whose normal destination has other "
                                       "predecessors");
      return PoisonValue::get(ty);
    }
    fb_.SetInsertPoint(after);
    if (!l) {
      RecordCache(i);
      slot = EntryAlloca(out_, ty, i.getName() + ".cache");
      cache_stores_.insert(fb_.CreateStore(&i, slot));
    } else {
      LoopTape &t = tapes_[l];
      RecordCache(i);
      slot = EntryAlloca(out_, fb_.getPtrTy(), i.getName() + ".tape");
      IRBuilder<> eb(slot->getNextNode());
      eb.CreateStore(ConstantPointerNull::get(eb.getPtrTy()), slot);
      t.caches.push_back({slot, ty});
      Value *array = fb_.CreateLoad(fb_.getPtrTy(), slot);
      Value *at = fb_.CreateGEP(ty, array, t.flat_index);
      cache_stores_.insert(fb_.CreateAlignedStore(&i, at, TapeAlign(ty)));
    }
  }
  if (!l)
    return rb_.CreateLoad(ty, slot, i.getName() + ".cached");
  if (!InContext(l)) {
    // Only LCSSA phis use a loop's values outside it, and their adjoints
    // need no primal value: this is a bug of the emitter.
    if (lookup_error_.ok())
      lookup_error_ = ErrorAt(absl::StatusCode::kInternal, i,
                              "internal error: the reverse sweep needs this "
                              "value outside its loop");
    return PoisonValue::get(ty);
  }
  LoopTape &t = tapes_[l];
  Value *array = rb_.CreateLoad(rb_.getPtrTy(), slot);
  Value *at = rb_.CreateGEP(ty, array, ReverseIndex(t));
  return rb_.CreateAlignedLoad(ty, at, TapeAlign(ty), i.getName() + ".cached");
}

/// Whether each iteration of `l` that reaches its latch runs `p` (a
/// preheader in `l`) once the branches on conditions invariant in `l` are
/// fixed: if one iteration ran it, every later one will.
static bool RunsEveryIteration(BasicBlock *p, Loop &l) {
  SmallPtrSet<BasicBlock *, 16> reaches{p};
  SmallVector<BasicBlock *, 16> work{p};
  while (!work.empty()) {
    BasicBlock *b = work.pop_back_val();
    if (b == l.getHeader())
      continue;
    for (BasicBlock *pred : predecessors(b))
      if (l.contains(pred) && reaches.insert(pred).second)
        work.push_back(pred);
  }
  SmallPtrSet<BasicBlock *, 16> seen{l.getHeader()};
  work.push_back(l.getHeader());
  while (!work.empty()) {
    BasicBlock *b = work.pop_back_val();
    if (b == p)
      continue;
    if (b == l.getLoopLatch())
      return false;
    Instruction *term = b->getTerminator();
    Value *cond = nullptr;
    if (auto *br = dyn_cast<BranchInst>(term); br && br->isConditional())
      cond = br->getCondition();
    else if (auto *sw = dyn_cast<SwitchInst>(term))
      cond = sw->getCondition();
    bool fixed = cond && l.isLoopInvariant(cond) &&
                 any_of(successors(b),
                        [&](BasicBlock *s) { return reaches.count(s) > 0; });
    for (BasicBlock *succ : successors(b))
      if (l.contains(succ) && succ != l.getHeader() &&
          (!fixed || reaches.count(succ)) && seen.insert(succ).second)
        work.push_back(succ);
  }
  return true;
}

SmallVector<Loop *, 4> ReverseEmitter::HoistedReserveNest(LoopTape &t) {
  SmallVector<Loop *, 4> nest = {t.loop};
  SCEVExpander checker(*se_, "tape.trips");
  Instruction *at = t.preheader->getTerminator();
  for (Loop *parent = t.loop->getParentLoop(); parent;
       parent = parent->getParentLoop()) {
    const SCEV *parentCount = tapes_[parent].backedge_count;
    if (!parentCount || !checker.isSafeToExpandAt(parentCount, at) ||
        !RunsEveryIteration(nest.back()->getLoopPreheader(), *parent) ||
        !all_of(nest, [&](Loop *l) {
          return se_->isLoopInvariant(tapes_[l].backedge_count, parent);
        }))
      break;
    nest.push_back(parent);
  }
  return nest;
}

/// The iterations of `t`'s loop still to come, this entry's included, when
/// it is entered: its trip count times the iterations of the enclosing
/// `nest` still to come (each runs it the same number of times). For loops
/// L1..Lk around it with trip counts n_j and current iterations c_j:
/// R_k = n_k - c_k, R_j = (n_j - c_j) + n_j (R_{j+1} - 1), times n_0.
Value *ReverseEmitter::IterationsToCome(LoopTape &t,
                                        ArrayRef<Loop *> nest) {
  Instruction *at = t.preheader->getTerminator();
  SCEVExpander expander(*se_, "tape.trips");
  SmallVector<Value *, 4> trips;
  for (Loop *l : nest) {
    Value *btc = expander.expandCodeFor(tapes_[l].backedge_count, nullptr, at);
    fb_.SetInsertPoint(at);
    trips.push_back(fb_.CreateAdd(
        fb_.CreateZExtOrTrunc(btc, fb_.getInt64Ty()), fb_.getInt64(1)));
  }
  fb_.SetInsertPoint(at);
  Value *rest = nullptr;
  for (size_t j = nest.size() - 1; j >= 1; --j) {
    Value *left = fb_.CreateSub(trips[j], tapes_[nest[j]].counter);
    rest = !rest ? left
                 : fb_.CreateAdd(left, fb_.CreateMul(trips[j],
                                                     fb_.CreateSub(
                                                         rest,
                                                         fb_.getInt64(1))));
  }
  return rest ? fb_.CreateMul(trips[0], rest) : trips[0];
}

void ReverseEmitter::FinishTapes() {
  if (!gpu_) // Device code keeps no pools.
    DefineTapeRelease(*out_.getParent());
  unsigned number = 0;
  for (auto &entry : tapes_) {
    LoopTape &t = entry.second;
    if (t.caches.empty())
      continue;
    if (gpu_)
      UseLocalTapeBuffers(t);
    GlobalVariable *pool = cache_.tape_pools() ? TapePool(number) : nullptr;
    Function *reserve = ReserveFunction(t, number, pool);
    Function *release = ReleaseFunction(t, number, pool);
    ++number;
    SmallVector<Value *, 6> args = {t.capacity, nullptr};
    for (auto &cache : t.caches)
      args.push_back(cache.first);
    if (t.backedge_count) {
      // Room for every iteration of this entry, at each entry; or, when the
      // enclosing loops run it the same number of times in each of their
      // iterations, for all of theirs still to come (later entries find
      // the room there).
      SmallVector<Loop *, 4> nest = HoistedReserveNest(t);
      t.reserved_before = nest.back();
      args[1] = fb_.CreateAdd(t.forward_base, IterationsToCome(t, nest));
    } else {
      fb_.SetInsertPoint(cast<Instruction>(t.flat_index)->getNextNode());
      args[1] = fb_.CreateAdd(t.flat_index, fb_.getInt64(1));
    }
    fb_.CreateCall(reserve, args);
    rb_.SetInsertPoint(final_->getTerminator());
    args.erase(args.begin() + 1);
    rb_.CreateCall(release, args);
  }
  // Last: the pushes split blocks of the forward sweep.
  EmitUndoLogPushes();
}

} // namespace autodiff
