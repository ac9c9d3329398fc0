//===- enzyme_bridge/reverse/DisjointArguments.cpp - Versioning on overlap ===//
//
// `void normalize(double *out, const double *x, long n)` reads x and then
// writes out. Without `noalias`, alias analysis must assume that out may be
// x, so every load of x has a later write that may change it, and the
// reverse sweep caches each value it read (a tape as large as x) instead
// of reading x again. Callers almost never pass overlapping buffers, but
// the derivative must stay right when they do.
//
// So the function to differentiate gets two copies of its body, chosen at
// its entry by a run-time check, as LLVM's loop versioning does for one
// loop: the byte range each pointer argument's loads and stores reach
// (from scalar evolution: an affine address in a loop nest spans its values
// at the first and the last iteration of each loop, with trip counts
// computable at the entry) is compared with the others'. When no two ranges
// of an argument that is written and another one overlap, the copy whose
// loads and stores carry scoped no-alias metadata (one scope per argument)
// runs; its loads are then read again by the reverse sweep. Otherwise the
// original body runs, caching as before. The reverse sweep recomputes the
// branch from the arguments.
//
// Only the loads and stores whose address is an argument plus offsets are
// annotated, and the check covers exactly those; calls, memory intrinsics
// and addresses loaded from memory carry no claim. Versioning is done only
// when some load would be read again thanks to it (every write that may
// change it is an annotated store through another argument), and for
// bodies of moderate size, since the derivative of both copies is emitted.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/DisjointArguments.h"

#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/analysis/AliasStack.h"
#include "enzyme_bridge/reverse/UndoableStores.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Bodies larger than this are not copied (the derivative of both copies
/// is emitted).
constexpr unsigned kMaxInstructions = 3000;
/// Alias queries spent on deciding whether versioning would help.
constexpr unsigned kMaxQueries = 20000;
/// Arguments compared at run time.
constexpr unsigned kMaxArguments = 8;

/// A simple load or store whose address is a pointer argument plus
/// offsets.
struct ArgumentAccess {
  Instruction *inst;
  Argument *arg;
};

/// The range of bytes one argument's annotated accesses reach:
/// [lo, hi), pointer-typed SCEVs computable at the entry.
struct ByteRange {
  const SCEV *lo = nullptr, *hi = nullptr;
};

Value *AccessedPointer(Instruction &i) {
  if (auto *ld = dyn_cast<LoadInst>(&i))
    return ld->isSimple() ? ld->getPointerOperand() : nullptr;
  if (auto *st = dyn_cast<StoreInst>(&i))
    return st->isSimple() ? st->getPointerOperand() : nullptr;
  return nullptr;
}

Type *AccessedType(Instruction &i) {
  if (auto *st = dyn_cast<StoreInst>(&i))
    return st->getValueOperand()->getType();
  return i.getType();
}

/// Whether `s` is computable at the entry: no recurrence, and every
/// unknown an argument or a constant.
bool AtEntry(const SCEV *s) {
  return !SCEVExprContains(s, [](const SCEV *e) {
    if (isa<SCEVAddRecExpr>(e))
      return true;
    auto *u = dyn_cast<SCEVUnknown>(e);
    return u && !isa<Argument>(u->getValue()) &&
           !isa<Constant>(u->getValue()) && !IsLaunchIndex(u->getValue());
  });
}

/// A call of a libdevice math function on values (`__nv_rsqrtf(x)`): its
/// declaration says nothing of memory, but it touches none.
bool IsLibdeviceMath(const Instruction &i) {
  const auto *call = dyn_cast<CallBase>(&i);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->isDeclaration() &&
         !LibdeviceRuleName(callee->getName()).empty() &&
         none_of(call->args(), [](const Value *a) {
           return a->getType()->isPointerTy();
         });
}

/// Moves the reads of GPU launch indices to the top of the entry block (so
/// the overlap check there may use them); returns the first instruction
/// after them, where the check goes.
Instruction *HoistLaunchIndices(Function &f) {
  BasicBlock &entry = f.getEntryBlock();
  BasicBlock::iterator ip = entry.getFirstNonPHIOrDbgOrAlloca();
  while (IsLaunchIndex(&*ip))
    ++ip;
  SmallVector<Instruction *, 8> reads;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (IsLaunchIndex(&i) && !(i.getParent() == &entry &&
                                 i.comesBefore(&*ip)))
        reads.push_back(&i);
  for (Instruction *i : reads)
    i->moveBefore(ip);
  return &*ip;
}

/// The least (`upper` false) or greatest value an address takes, as an
/// expression computable at the entry.
class Bounds {
public:
  Bounds(ScalarEvolution &se, LoopInfo &li) : se_(se), li_(li) {}
  const SCEV *Of(const SCEV *s, bool upper) {
    budget_ = 256;
    return Bound(s, upper, 0);
  }

private:
  const SCEV *Bound(const SCEV *s, bool upper, unsigned depth);
  const SCEV *Join(const SCEV *a, const SCEV *b, bool upper) {
    return upper ? se_.getUMaxExpr(a, b) : se_.getUMinExpr(a, b);
  }

  ScalarEvolution &se_;
  LoopInfo &li_;
  unsigned budget_ = 0;
};

/// An affine recurrence is monotonic, so its extremes are at the first
/// iteration and at the last one (the loop's largest backedge count). A
/// phi that joins paths outside loop headers (the ends of a vectorized
/// loop and of its remainder) is one of its incoming values: the bound is
/// the extreme over each of them put in its place.
const SCEV *Bounds::Bound(const SCEV *s, bool upper, unsigned depth) {
  if (depth > 12 || budget_ == 0)
    return nullptr;
  --budget_;
  if (auto *ar = dyn_cast<SCEVAddRecExpr>(s)) {
    if (!ar->isAffine())
      return nullptr;
    const SCEV *btc = se_.getSymbolicMaxBackedgeTakenCount(ar->getLoop());
    if (isa<SCEVCouldNotCompute>(btc))
      return nullptr;
    const SCEV *first = Bound(ar->getStart(), upper, depth + 1);
    const SCEV *last =
        first ? Bound(ar->evaluateAtIteration(btc, se_), upper, depth + 1)
              : nullptr;
    return first && last ? Join(first, last, upper) : nullptr;
  }
  if (AtEntry(s))
    return s;
  PHINode *join = nullptr;
  SCEVExprContains(s, [&](const SCEV *e) {
    auto *u = dyn_cast<SCEVUnknown>(e);
    auto *phi = u ? dyn_cast<PHINode>(u->getValue()) : nullptr;
    if (phi && !join && !li_.isLoopHeader(phi->getParent()))
      join = phi;
    return false;
  });
  if (!join || join->getNumIncomingValues() > 4)
    return nullptr;
  const SCEV *result = nullptr;
  SmallPtrSet<Value *, 4> seen;
  for (Value *in : join->incoming_values()) {
    if (!seen.insert(in).second)
      continue;
    ValueToSCEVMapTy map;
    // What the incoming value is where the phi is (the exit value of a
    // recurrence of a loop left on the way).
    map[join] = se_.getSCEVAtScope(in, li_.getLoopFor(join->getParent()));
    const SCEV *b =
        Bound(SCEVParameterRewriter::rewrite(s, se_, map), upper, depth + 1);
    if (!b)
      return nullptr;
    result = result ? Join(result, b, upper) : b;
  }
  return result;
}

class Versioner {
public:
  Versioner(Function &f, VersioningAnalyses a) : f_(f), a_(a) {}
  SmallVector<Argument *, 4> Run();

private:
  void CollectAccesses();
  /// The arguments whose loads versioning would let the reverse sweep
  /// read again, with those that write what they read.
  SetVector<Argument *> ArgumentsToCheck();
  bool ComputeRanges(ArrayRef<Argument *> args);
  bool CanCheck(ArrayRef<Argument *> args, Instruction *ip);
  Value *EmitCheck(ArrayRef<Argument *> args, Instruction *ip);
  void CloneAndAnnotate(ArrayRef<Argument *> args, BasicBlock *entry,
                        BasicBlock *body, Value *disjoint);

  Function &f_;
  VersioningAnalyses a_;
  SmallVector<ArgumentAccess, 32> accesses_;
  SmallVector<Instruction *, 32> writes_;
  MapVector<Argument *, ByteRange> ranges_;
  SmallPtrSet<Argument *, 8> written_;
};

void Versioner::CollectAccesses() {
  for (BasicBlock &bb : f_)
    for (Instruction &i : bb) {
      if (i.mayWriteToMemory() && !isa<DbgInfoIntrinsic>(&i) &&
          !(isa<IntrinsicInst>(&i) &&
            cast<IntrinsicInst>(&i)->isAssumeLikeIntrinsic()) &&
          !IsLibdeviceMath(i))
        writes_.push_back(&i);
      Value *ptr = AccessedPointer(i);
      if (!ptr)
        continue;
      auto *arg = dyn_cast<Argument>(getUnderlyingObject(ptr, 0));
      if (!arg || !arg->getType()->isPointerTy())
        continue;
      accesses_.push_back({&i, arg});
      if (isa<StoreInst>(&i))
        written_.insert(arg);
    }
}

SetVector<Argument *> Versioner::ArgumentsToCheck() {
  SetVector<Argument *> args;
  if (written_.empty())
    return args;
  AliasStack aa(f_, a_.tli, a_.ac, &a_.dt);
  BatchAAResults &batch = aa.Batch();
  DenseMap<Instruction *, Argument *> stored_arg;
  for (const ArgumentAccess &acc : accesses_)
    if (isa<StoreInst>(acc.inst))
      stored_arg[acc.inst] = acc.arg;
  unsigned queries = 0;
  // Stores the reverse sweep undoes change no load it reads again.
  SmallPtrSet<Instruction *, 4> undoable =
      FindUndoableStores(writes_, batch, a_.dt, a_.li, queries);
  for (const ArgumentAccess &acc : accesses_) {
    auto *ld = dyn_cast<LoadInst>(acc.inst);
    if (!ld)
      continue;
    MemoryLocation loc = MemoryLocation::get(ld);
    SmallVector<Argument *, 4> through;
    bool rescued = true;
    for (Instruction *w : writes_) {
      if (undoable.count(w))
        continue;
      if (++queries > kMaxQueries)
        return {};
      if (!isModSet(batch.getModRefInfo(w, loc)) ||
          !isPotentiallyReachable(ld, w, nullptr, &a_.dt, &a_.li))
        continue;
      Argument *other = stored_arg.lookup(w);
      if (!other || other == acc.arg) {
        rescued = false;
        break;
      }
      through.push_back(other);
    }
    if (!rescued || through.empty())
      continue;
    args.insert(acc.arg);
    args.insert(through.begin(), through.end());
  }
  return args;
}

bool Versioner::ComputeRanges(ArrayRef<Argument *> args) {
  ScalarEvolution &se = a_.se;
  const DataLayout &dl = f_.getDataLayout();
  SmallPtrSet<Argument *, 8> wanted(args.begin(), args.end());
  Bounds bounds(se, a_.li);
  for (const ArgumentAccess &acc : accesses_) {
    if (!wanted.count(acc.arg))
      continue;
    TypeSize size = dl.getTypeStoreSize(AccessedType(*acc.inst));
    if (size.isScalable())
      return false;
    const SCEV *s = se.getSCEV(AccessedPointer(*acc.inst));
    const SCEV *lo = bounds.Of(s, /*upper=*/false);
    const SCEV *hi = lo ? bounds.Of(s, /*upper=*/true) : nullptr;
    if (!lo || !hi)
      return false;
    hi = se.getAddExpr(hi, se.getConstant(dl.getIndexType(s->getType()),
                                          size.getFixedValue()));
    ByteRange &r = ranges_[acc.arg];
    r.lo = r.lo ? se.getUMinExpr(r.lo, lo) : lo;
    r.hi = r.hi ? se.getUMaxExpr(r.hi, hi) : hi;
  }
  return true;
}

/// Whether every value `s` uses is defined before `ip` in its block (or
/// is an argument or a constant).
static bool DefinedBefore(const SCEV *s, const Instruction *ip) {
  return !SCEVExprContains(s, [&](const SCEV *e) {
    const auto *u = dyn_cast<SCEVUnknown>(e);
    const auto *i = u ? dyn_cast<Instruction>(u->getValue()) : nullptr;
    return i && !(i->getParent() == ip->getParent() && i->comesBefore(ip));
  });
}

bool Versioner::CanCheck(ArrayRef<Argument *> args, Instruction *ip) {
  SCEVExpander expander(a_.se, "disjoint");
  for (Argument *arg : args) {
    const ByteRange &r = ranges_[arg];
    for (const SCEV *bound : {r.lo, r.hi})
      if (!expander.isSafeToExpand(bound) || !DefinedBefore(bound, ip))
        return false;
  }
  return true;
}

Value *Versioner::EmitCheck(ArrayRef<Argument *> args, Instruction *ip) {
  SCEVExpander expander(a_.se, "disjoint");
  IRBuilder<> b(ip);
  SmallVector<std::pair<Value *, Value *>, 8> bounds;
  for (Argument *arg : args) {
    const ByteRange &r = ranges_[arg];
    Value *lo = expander.expandCodeFor(r.lo, b.getPtrTy(), ip);
    Value *hi = expander.expandCodeFor(r.hi, b.getPtrTy(), ip);
    bounds.push_back({lo, hi});
  }
  Value *disjoint = b.getTrue();
  for (unsigned i = 0; i < args.size(); ++i)
    for (unsigned j = i + 1; j < args.size(); ++j) {
      if (!written_.count(args[i]) && !written_.count(args[j]))
        continue;
      Value *before = b.CreateICmpULE(bounds[i].second, bounds[j].first,
                                      "disjoint.before");
      Value *after = b.CreateICmpULE(bounds[j].second, bounds[i].first,
                                     "disjoint.after");
      Value *apart = b.CreateOr(before, after, "disjoint.pair");
      disjoint = b.CreateAnd(disjoint, apart, "disjoint");
    }
  return disjoint;
}

void Versioner::CloneAndAnnotate(ArrayRef<Argument *> args, BasicBlock *entry,
                                 BasicBlock *body, Value *disjoint) {
  SmallVector<BasicBlock *, 16> originals;
  for (BasicBlock &bb : f_)
    if (&bb != entry)
      originals.push_back(&bb);
  ValueToValueMapTy vmap;
  SmallVector<BasicBlock *, 16> copies;
  for (BasicBlock *bb : originals) {
    BasicBlock *copy = CloneBasicBlock(bb, vmap, ".disjoint", &f_);
    vmap[bb] = copy;
    copies.push_back(copy);
  }
  remapInstructionsInBlocks(copies, vmap);
  Instruction *old = entry->getTerminator();
  BranchInst::Create(cast<BasicBlock>(vmap[body]), body, disjoint,
                     old->getIterator());
  old->eraseFromParent();

  MDBuilder mdb(f_.getContext());
  MDNode *domain = mdb.createAnonymousAliasScopeDomain("autodiff.disjoint");
  DenseMap<Argument *, MDNode *> scope;
  for (Argument *arg : args)
    scope[arg] = mdb.createAnonymousAliasScope(domain, arg->getName());
  for (const ArgumentAccess &acc : accesses_) {
    if (!scope.count(acc.arg))
      continue;
    SmallVector<Metadata *, 8> others;
    for (Argument *arg : args)
      if (arg != acc.arg)
        others.push_back(scope[arg]);
    auto *copy = cast<Instruction>(vmap[acc.inst]);
    MDNode *own = MDNode::get(f_.getContext(), {scope[acc.arg]});
    MDNode *apart = MDNode::get(f_.getContext(), others);
    copy->setMetadata(LLVMContext::MD_alias_scope,
                      MDNode::concatenate(
                          copy->getMetadata(LLVMContext::MD_alias_scope), own));
    copy->setMetadata(
        LLVMContext::MD_noalias,
        MDNode::concatenate(copy->getMetadata(LLVMContext::MD_noalias), apart));
  }
}

SmallVector<Argument *, 4> Versioner::Run() {
  unsigned count = 0;
  for (BasicBlock &bb : f_) {
    if (bb.isEHPad() || isa<CallBrInst>(bb.getTerminator()) ||
        isa<IndirectBrInst>(bb.getTerminator()))
      return {};
    count += bb.size();
  }
  if (count > kMaxInstructions)
    return {};
  CollectAccesses();
  SetVector<Argument *> args = ArgumentsToCheck();
  if (args.size() < 2 || args.size() > kMaxArguments)
    return {};
  if (!ComputeRanges(args.getArrayRef()))
    return {};
  BasicBlock *entry = &f_.getEntryBlock();
  Instruction *ip = HoistLaunchIndices(f_);
  if (!CanCheck(args.getArrayRef(), ip))
    return {};
  // The stack slots of fixed size stay in the entry block (static: both
  // versions share them; in the body they would be allocations made at
  // run time, which reverse mode refuses).
  SmallVector<AllocaInst *, 8> slots;
  for (Instruction &i : *entry)
    if (auto *a = dyn_cast<AllocaInst>(&i); a && isa<Constant>(a->getArraySize()))
      slots.push_back(a);
  for (AllocaInst *a : slots)
    a->moveBefore(entry->getFirstInsertionPt());
  while (isa<AllocaInst>(ip))
    ip = ip->getNextNode();
  // The check goes at the end of the entry block, before the body.
  BasicBlock *body = SplitBlock(entry, ip);
  Value *disjoint = EmitCheck(args.getArrayRef(), entry->getTerminator());
  body->setName("versioned.body");
  CloneAndAnnotate(args.getArrayRef(), entry, body, disjoint);
  return SmallVector<Argument *, 4>(args.begin(), args.end());
}

} // namespace

SmallVector<Argument *, 4> VersionOnDisjointArguments(Function &f,
                                                     VersioningAnalyses a) {
  return Versioner(f, a).Run();
}

} // namespace autodiff
