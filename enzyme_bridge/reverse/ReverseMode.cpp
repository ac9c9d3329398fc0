//===- enzyme_bridge/reverse/ReverseMode.cpp - Reverse-mode driver --------===//
//
// The derivative's signature, the request checks, and the order of the
// emitter's phases; preparation of the primal copy (inlining, promotion,
// loop simplification) is here too.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/AddressBases.h"
#include "enzyme_bridge/FoldFloatPacking.h"
#include "enzyme_bridge/analysis/LocalCopies.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/analysis/ReturnedBits.h"
#include "enzyme_bridge/reverse/ReverseMode.h"

#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/reverse/DisjointArguments.h"
#include "enzyme_bridge/reverse/DynamicAllocas.h"
#include "enzyme_bridge/reverse/FloatBitCopies.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/reverse/SelfCopies.h"
#include "enzyme_bridge/reverse/PackedStores.h"
#include "enzyme_bridge/reverse/UnpackedLoads.h"
#include "enzyme_bridge/rules/BlasRules.h"
#include "enzyme_bridge/rules/Rules.h"
#include "enzyme_bridge/GpuKernels.h"
#include "support/StatusMacros.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

using namespace llvm;

namespace autodiff {

static bool ReturnIsActive(const DiffRequest &r) {
  // The request parser sets return_tangent, in both modes, when the return
  // carries a derivative and no marker made it constant.
  return r.return_tangent;
}

/// Whether the derivative takes `dret`, the seed of the return: an active
/// return of floats. (An active pointer return, possible for the halves of
/// a split derivative, has a shadow instead.)
static bool TakesReturnSeed(const DiffRequest &r) {
  return r.return_tangent && !ContainsPointer(r.fn->getReturnType());
}

FunctionType *ReverseDerivativeType(const DiffRequest &r) {
  FunctionType *fty = r.fn->getFunctionType();
  SmallVector<Type *, 8> params;
  SmallVector<Type *, 5> leaves;
  Type *ret = fty->getReturnType();
  if (r.return_primal)
    leaves.push_back(ret);
  // enzyme_width N: N shadows, seeds and gradients (ReverseWidth.cpp).
  for (unsigned i = 0; i < fty->getNumParams(); ++i) {
    params.push_back(fty->getParamType(i));
    if (r.args[i] == ArgActivity::Dup || r.args[i] == ArgActivity::DupNoNeed)
      params.append(r.width, fty->getParamType(i));
    if (r.args[i] == ArgActivity::Out)
      leaves.append(r.width, fty->getParamType(i));
  }
  if (TakesReturnSeed(r))
    params.append(r.width, ret);
  Type *rt = leaves.empty()       ? Type::getVoidTy(fty->getContext())
             : leaves.size() == 1 ? leaves[0]
                                  : StructType::get(fty->getContext(), leaves);
  return FunctionType::get(rt, params, /*isVarArg=*/false);
}

/// Whether the augmented half also returns the shadow of the result: an
/// active pointer result.
static bool TakesShadowReturn(const DiffRequest &r) {
  return r.return_tangent && r.fn->getReturnType()->isPointerTy();
}

/// The primal parameters, each followed by its shadow when duplicated.
static SmallVector<Type *, 8> PrimalAndShadowParams(const DiffRequest &r) {
  FunctionType *fty = r.fn->getFunctionType();
  SmallVector<Type *, 8> params;
  for (unsigned i = 0; i < fty->getNumParams(); ++i) {
    params.push_back(fty->getParamType(i));
    if (r.args[i] == ArgActivity::Dup || r.args[i] == ArgActivity::DupNoNeed)
      params.push_back(fty->getParamType(i));
  }
  return params;
}

FunctionType *AugmentedType(const DiffRequest &r) {
  LLVMContext &c = r.fn->getContext();
  Type *tape = PointerType::getUnqual(c);
  Type *ret = r.fn->getReturnType();
  Type *rt = ret->isVoidTy() ? tape
             : TakesShadowReturn(r)
                 ? StructType::get(c, {tape, ret, ret})
                 : StructType::get(c, {tape, ret});
  SmallVector<Type *, 8> params = PrimalAndShadowParams(r);
  if (r.tape_in_buffer)
    params.push_back(tape); // The caller's buffer.
  return FunctionType::get(rt, params, /*isVarArg=*/false);
}

FunctionType *SplitReverseType(const DiffRequest &r) {
  DiffRequest combined = r;
  combined.mode = Mode::Reverse;
  combined.return_primal = false;
  FunctionType *c = ReverseDerivativeType(combined);
  SmallVector<Type *, 8> params(c->params());
  params.push_back(PointerType::getUnqual(r.fn->getContext()));
  return FunctionType::get(c->getReturnType(), params, /*isVarArg=*/false);
}

absl::Status CheckReverseRequest(const DiffRequest &r) {
  std::string fn = "`" + r.fn->getName().str() + "`";
  if (r.width != 1 && r.mode != Mode::Reverse)
    return absl::UnimplementedError(
        "enzyme_width in split reverse mode is not yet supported; "
        "requested for " + fn);
  FunctionType *fty = r.fn->getFunctionType();
  for (unsigned i = 0; i < fty->getNumParams(); ++i) {
    Type *t = fty->getParamType(i);
    bool dup = r.args[i] == ArgActivity::Dup ||
               r.args[i] == ArgActivity::DupNoNeed;
    if (dup && !ContainsPointer(t))
      return absl::InvalidArgumentError(
          "parameter " + std::to_string(i) + " of " + fn +
          " is passed by value with " +
          (r.args[i] == ArgActivity::Dup ? "enzyme_dup" : "enzyme_dupnoneed") +
          "; in reverse mode a scalar "
          "is enzyme_out (its gradient is returned) or enzyme_const");
  }
  return absl::OkStatus();
}

ReverseEmitter::ReverseEmitter(const DiffRequest &r, Function &out,
                               DerivativeCache &cache, bool split)
    : req_(r), out_(out), cache_(cache), split_(split), fb_(out.getContext()),
      rb_(out.getContext()) {
  rb_.setFastMathFlags(cache.derivative_fmf());
}

ReverseEmitter::~ReverseEmitter() = default;

absl::Status ReverseEmitter::Run() {
  cloned_ = ClonePrimalBody(req_, out_);
  active_return_ = ReturnIsActive(req_);
  if (TakesReturnSeed(req_)) {
    dret_ = out_.getArg(out_.arg_size() - 1);
    dret_->setName("dret");
  }
  AD_RETURN_IF_ERROR(Prepare());
  AD_RETURN_IF_ERROR(CheckGpuCalls(out_, /*reverse=*/true));
  CreateLoopTapes();
  AD_RETURN_IF_ERROR(BuildShadows());
  AD_RETURN_IF_ERROR(BuildReverseBlocks());
  FinishTapes();
  EmitSharedArgumentChecks();
  if (llvm::raw_ostream *log = cache_.tape_log())
    PrintTape(*log);
  EraseDeferredFrees();
  ReplaceAugmentedCalls();
  TagDispatchArms(false);
  return absl::OkStatus();
}

absl::Status EmitReverseDerivative(const DiffRequest &r, Function &out,
                                   DerivativeCache &cache) {
  AD_RETURN_IF_ERROR(CheckReverseRequest(r));
  if (r.width > 1)
    return EmitWideReverseDerivative(r, out, cache);
  return RunExcludingFailedCandidates(
      out, [&](const ExcludedCandidates &excluded) {
        ReverseEmitter e(r, out, cache);
        e.ExcludeCandidates(excluded);
        return e.Run();
      });
}

// ---------------------------------------------------------------------------
// Preparation.

/// Whether `f` may call something every thread of a warp or block must
/// reach together: a barrier, a warp shuffle or vote, inline assembly, a
/// function without a body other than libdevice's math (clang marks every
/// CUDA call convergent, so the attribute alone says little).
static bool HasConvergentCalls(const Function &f, unsigned depth = 0) {
  for (const BasicBlock &bb : f)
    for (const Instruction &i : bb) {
      const auto *call = dyn_cast<CallBase>(&i);
      if (!call)
        continue;
      const Function *callee = call->getCalledFunction();
      if (!callee)
        return true;
      if (callee->isIntrinsic()) {
        if (callee->isConvergent())
          return true;
        continue;
      }
      if (callee->isDeclaration()) {
        if (!callee->getName().starts_with("__nv_"))
          return true;
        continue;
      }
      if (callee != &f && (depth > 4 || HasConvergentCalls(*callee, depth + 1)))
        return true;
    }
  return false;
}

absl::Status ReverseEmitter::Prepare() {
  // Calls through function pointers become direct calls in a dispatch
  // (ReverseIndirectCalls.cpp), whose callees are then inlined in turn.
  constexpr unsigned kDispatchRounds = 4;
  for (unsigned round = 0;; ++round) {
    PrepareBody();
    if (round == kDispatchRounds || !DispatchIndirectCalls())
      break;
  }
  TagDispatchArms(true);
  // Loads of one argument that a write through another may change are
  // read again instead of cached when, at run time, the two do not
  // overlap (DisjointArguments.cpp). Split halves cache caller memory
  // anyway. On a GPU the check may differ between threads (the ranges
  // of `x[i]` depend on the thread), so only code without convergent
  // operations (barriers, warp votes and shuffles), which threads may
  // run on different paths, is versioned.
  if (!split_ && (!gpu_ || !HasConvergentCalls(out_)))
    versioned_on_ =
        VersionOnDisjointArguments(out_, {*tli_, *ac_, *dt_, *li_, *se_});
  if (!versioned_on_.empty()) {
    SimplifyLoops();
    ComputeAnalyses();
    ComputeActivity();
  }
  // A retreating edge that is not a loop's backedge: a jump into the
  // middle of a loop, which has no single header to count iterations at.
  DenseMap<BasicBlock *, unsigned> order;
  for (BasicBlock *bb : blocks_)
    order[bb] = order.size();
  for (BasicBlock *bb : blocks_)
    for (BasicBlock *succ : successors(bb)) {
      if (order.lookup(succ) > order.lookup(bb))
        continue;
      Loop *l = li_->getLoopFor(bb);
      while (l && l->getHeader() != succ)
        l = l->getParentLoop();
      if (!l)
        return Unsupported(*bb->getTerminator(),
                           "irreducible control flow (a jump into the "
                           "middle of a loop, which then has no single "
                           "entry)");
    }
  for (Loop *l : li_->getLoopsInPreorder())
    if (!l->getLoopPreheader() || !l->getLoopLatch())
      return Unsupported(*l->getHeader()->getTerminator(),
                         "a loop that cannot be put in simplified form "
                         "(one preheader, one latch)");
  FindReloadableLoads();
  if (cache_.tape_log())
    NameForReport(out_);
  return absl::OkStatus();
}

/// Vector lanes the primal leaves poison (a shufflevector mask's poison
/// element, an insertelement into a poison vector) are dead there, but the
/// reverse sweep multiplies whole vectors: a zero adjoint times a poison
/// lane is poison, which reaches real adjoints (NaN gradients). Such lanes
/// are given defined values instead, a refinement of the primal. A
/// shuffle's such lanes stay dead for the reverse sweep: their adjoints
/// (0 * inf, say) go nowhere (kDeadLanesMetadata names them).
static void DefineVectorLanes(Function &f) {
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      if (auto *sv = dyn_cast<ShuffleVectorInst>(&i)) {
        if (isa<UndefValue>(sv->getOperand(0)))
          continue;
        SmallVector<int, 8> mask(sv->getShuffleMask());
        SmallVector<Metadata *, 8> dead;
        IntegerType *i32 = Type::getInt32Ty(f.getContext());
        for (unsigned lane = 0; lane < mask.size(); ++lane)
          if (mask[lane] == PoisonMaskElem) {
            mask[lane] = 0;
            dead.push_back(
                ConstantAsMetadata::get(ConstantInt::get(i32, lane)));
          }
        if (!dead.empty()) {
          sv->setShuffleMask(mask);
          sv->setMetadata(kDeadLanesMetadata,
                          MDNode::get(f.getContext(), dead));
        }
      } else if (auto *ie = dyn_cast<InsertElementInst>(&i)) {
        if (isa<UndefValue>(ie->getOperand(0)) &&
            ie->getType()->getElementType()->isFloatingPointTy())
          ie->setOperand(0, Constant::getNullValue(ie->getType()));
      }
    }
}

/// Fields read back out of an aggregate built by insertvalue (a `{ptr,
/// i64}` slice returned by an inlined callee at -O0) become the inserted
/// values, so that the analyses see the pointer itself.
static void FoldExtractsOfInserts(Function &f) {
  SmallVector<ExtractValueInst *, 16> extracts;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (auto *ev = dyn_cast<ExtractValueInst>(&i))
        extracts.push_back(ev);
  for (ExtractValueInst *ev : extracts) {
    Value *in = FindInsertedValue(ev->getAggregateOperand(), ev->getIndices());
    if (in && in != ev && in->getType() == ev->getType()) {
      ev->replaceAllUsesWith(in);
      ev->eraseFromParent();
    }
  }
}

/// SROA over `f` alone, keeping its control flow.
static void ScalarReplaceSlots(Function &f) {
  PassBuilder pb;
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  FunctionPassManager fpm;
  fpm.addPass(SROAPass(SROAOptions::PreserveCFG));
  fpm.run(f, fam);
  FoldExtractsOfInserts(f);
  SplitUnpackedLoads(f);
  SplitPackedStores(f);
  // Slots that held a struct the ABI packs into an integer (`{float;
  // int}` returned as i64, kept in a local at -O0) become integer shifts,
  // truncations and bitcasts of a float's bits; InstCombine folds the
  // packing and unpacking away, leaving the float.
  bool reinterprets = false;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (auto *bc = dyn_cast<BitCastInst>(&i))
        reinterprets |= bc->getSrcTy()->isFPOrFPVectorTy() !=
                        bc->getDestTy()->isFPOrFPVectorTy();
  if (!reinterprets)
    return;
  FunctionPassManager fold;
  fold.addPass(InstCombinePass());
  fold.run(f, fam);
  // What InstCombine leaves: the packed word chosen by phis, or repacked
  // by a funnel shift; and the words InstCombine left packed for a store.
  FoldFloatPacking(f);
  SplitPackedStores(f);
}

/// Inlining, promotion of stack slots, loops in simplified and LCSSA form,
/// then the analyses and activity of the result.
/// Invokes that become plain calls: those of module functions whose bodies
/// cannot unwind (exact: the landing pad was unreachable), and allocations
/// and inactive calls (C++'s operator new, say: should one throw, the
/// exception leaves the derivative without running the primal's cleanup
/// code).
static void ChangeInvokesToCalls(Function &f) {
  SmallVector<InvokeInst *, 8> invokes;
  for (BasicBlock &bb : f)
    if (auto *inv = dyn_cast<InvokeInst>(bb.getTerminator())) {
      Function *callee = CalledFunction(*inv);
      // A throw always unwinds: its landing pad is where it goes.
      if (callee && (callee->getName() == "__cxa_throw" ||
                     callee->getName() == "__cxa_rethrow"))
        continue;
      if (IsInactiveCall(*inv) ||
          ClassifyAllocation(*inv) != AllocKind::None ||
          (callee && !callee->isDeclaration() && CannotUnwind(*callee)))
        invokes.push_back(inv);
    }
  for (InvokeInst *inv : invokes)
    changeToCall(inv);
  removeUnreachableBlocks(f);
}

void ReverseEmitter::PrepareBody() {
  // Before inlining, so that a `noinline` callee that cannot unwind stays
  // out of line as in the primal; after, for the invokes inlining brought.
  ChangeInvokesToCalls(out_);
  InlineModuleCalls();
  MarkReadOnlyModuleCalls();
  ChangeInvokesToCalls(out_);
  // Stack slots stay alive until the reverse sweep is done with them: the
  // copy's lifetime markers go (the reverse sweep may read a slot again
  // after the primal's scope of it ended).
  SmallVector<IntrinsicInst *, 16> lifetimes;
  for (BasicBlock &bb : out_)
    for (Instruction &i : bb)
      if (auto *ii = dyn_cast<IntrinsicInst>(&i))
        if (ii->isLifetimeStartOrEnd())
          lifetimes.push_back(ii);
  for (IntrinsicInst *ii : lifetimes)
    ii->eraseFromParent();
  // Stack slots become values (scalar replacement promotes what mem2reg
  // would, and also slots accessed as another type than their own, such as
  // rustc -O0's `[8 x i8]` allocas read and written as i64 or double), so
  // they need no shadow, tape or type analysis.
  ScalarReplaceSlots(out_);
  PutAddressesInBase(out_);
  RemoveSelfCopies(out_);
  RetypeFloatBitCopies(out_);
  if (!IsGpuModule(*out_.getParent()))
    MoveDynamicAllocasToHeap(out_);
  DefineVectorLanes(out_);
  SimplifyLoops();
  ComputeAnalyses();
  ComputeActivity();
}

void ReverseEmitter::ComputeActivity() {
  SmallVector<const Argument *, 8> active(cloned_.active.begin(),
                                          cloned_.active.end());
  activity_.emplace(ActivityInfo::Compute(out_, active, active_return_));
  gpu_ = IsGpuModule(*out_.getParent());
  if (gpu_)
    thread_private_ = FindThreadPrivateAccesses(out_, *req_.fn);
}

/// Whether `f` can call itself, directly or through other functions of
/// the module; with `through_pointers`, also through calls by function
/// pointer, which may reach any address-taken function of their type.
static bool IsRecursive(Function &f, bool through_pointers = true) {
  SmallPtrSet<Function *, 16> seen;
  SmallVector<Function *, 16> work = {&f};
  while (!work.empty()) {
    Function *g = work.pop_back_val();
    for (BasicBlock &bb : *g)
      for (Instruction &i : bb) {
        auto *call = dyn_cast<CallBase>(&i);
        if (!call || call->isInlineAsm())
          continue;
        // A call through a pointer (a virtual call of a recursive
        // structure's node) may reach any candidate of its type.
        SmallVector<Function *, 4> callees;
        if (Function *callee = CalledFunction(*call))
          callees.push_back(callee);
        else if (through_pointers &&
                 !isa<Function>(call->getCalledOperand()->stripPointerCasts())) {
          callees = CallCandidates(*call);
        }
        for (Function *callee : callees) {
          if (callee->isDeclaration())
            continue;
          if (callee == &f)
            return true;
          if (seen.insert(callee).second)
            work.push_back(callee);
        }
      }
  }
  return false;
}

/// Whether `f` jumps through block addresses (`goto *p`): inlined, its
/// label table would send the jumps back into `f`.
static bool HasComputedGoto(const Function &f) {
  return any_of(f, [](const BasicBlock &bb) {
    return isa<IndirectBrInst>(bb.getTerminator());
  });
}

/// Whether `f` may move the raw bits of its callers' doubles as integers:
/// it returns an integer it loaded, stores an integer parameter, or reads
/// or writes a pointer parameter's memory only as integers (a generic swap
/// or copy through `long *` or `unsigned char *`). Kept out of line, its
/// own analysis would take that memory for integers and the doubles moved
/// through it would lose or keep the wrong adjoints; inlined, the caller's
/// analysis sees what the memory holds (FloatBitCopies.h), or reports the
/// arithmetic on bits it cannot differentiate.
static bool MovesIntegerBits(const Function &f, unsigned depth = 0) {
  auto wide = [](const Type *t) {
    return t->isIntOrIntVectorTy() && t->getScalarSizeInBits() >= 8;
  };
  // Floats' bits crossing the call as integers: an integer parameter or
  // result (a double encoded as `uint64_t`, `struct {float; int;}` that the
  // C ABI packs into one i64) beside a reinterpretation between integers
  // and floats in the body.
  auto holdsWide = [&](Type *t) {
    SmallVector<Type *, 4> work = {t};
    while (!work.empty()) {
      Type *x = work.pop_back_val();
      if (wide(x) && x->getScalarSizeInBits() >= 16)
        return true;
      if (auto *st = dyn_cast<StructType>(x))
        work.append(st->element_begin(), st->element_end());
      else if (auto *at = dyn_cast<ArrayType>(x))
        work.push_back(at->getElementType());
    }
    return false;
  };
  bool intInterface = holdsWide(f.getReturnType()) ||
                      any_of(f.args(), [&](const Argument &a) {
                        return holdsWide(a.getType());
                      });
  if (intInterface)
    for (const BasicBlock &bb : f)
      for (const Instruction &i : bb) {
        if (const auto *bc = dyn_cast<BitCastInst>(&i))
          if (bc->getSrcTy()->isFPOrFPVectorTy() !=
              bc->getDestTy()->isFPOrFPVectorTy())
            return true;
        // Passing on such bits from a callee that moves them (a fold
        // calling `Acc step(Acc, float)` in a loop, {float; int} in an
        // i64 all along).
        const auto *call = dyn_cast<CallBase>(&i);
        const Function *g = call ? call->getCalledFunction() : nullptr;
        if (g && g != &f && !g->isDeclaration() && depth < 3 &&
            holdsWide(g->getReturnType()) &&
            MovesIntegerBits(*g, depth + 1) &&
            f.getReturnType()->isIntegerTy() &&
            MayReturnFloatBits(f, 0,
                               int64_t(f.getDataLayout().getTypeStoreSize(
                                   f.getReturnType()))))
          return true;
      }
  SmallPtrSet<const Argument *, 4> intAccess, floatAccess;
  for (const BasicBlock &bb : f)
    for (const Instruction &i : bb) {
      if (const auto *ret = dyn_cast<ReturnInst>(&i)) {
        const Value *v = ret->getReturnValue();
        if (v && wide(v->getType()) && isa<LoadInst>(v))
          return true;
        continue;
      }
      if (const auto *st = dyn_cast<StoreInst>(&i)) {
        const Value *v = st->getValueOperand();
        if (isa<Argument>(v) && wide(v->getType()))
          return true;
      }
      const Value *ptr = getLoadStorePointerOperand(&i);
      if (!ptr)
        continue;
      const auto *arg = dyn_cast<Argument>(getUnderlyingObject(ptr));
      if (!arg)
        continue;
      Type *t = getLoadStoreType(&i);
      if (HoldsFloat(t))
        floatAccess.insert(arg);
      else if (wide(t))
        intAccess.insert(arg);
    }
  return any_of(intAccess,
                [&](const Argument *a) { return !floatAccess.count(a); });
}

/// Whether `ptr` points into a stack slot whose declared type has a float
/// where an access of type `t` reads or writes.
static bool SlotDeclaresFloat(const Value *ptr, Type *t) {
  const Function *f = isa<Instruction>(ptr)
                          ? cast<Instruction>(ptr)->getFunction()
                          : nullptr;
  if (!f)
    return false;
  const DataLayout &dl = f->getDataLayout();
  Place p = LocatePlace(ptr, dl);
  const auto *slot = dyn_cast_or_null<AllocaInst>(p.obj);
  int64_t size = int64_t(dl.getTypeStoreSize(t).getKnownMinValue());
  return slot && p.off >= 0 &&
         FloatLeafIn(slot->getAllocatedType(), p.off, p.off + size, dl);
}

/// Whether integer `v` is built from a float's bits (`zext(bitcast f)`,
/// shifted, masked, or-ed with other fields: the ABI's packing of `struct
/// {float; int}`), through phis and selects.
static bool BuiltFromFloatBits(const Value *v, unsigned depth = 0) {
  if (depth > 8)
    return false;
  if (const auto *bc = dyn_cast<BitCastInst>(v))
    return bc->getSrcTy()->isFPOrFPVectorTy();
  // -O0: the word loaded from the struct's own stack slot.
  if (const auto *ld = dyn_cast<LoadInst>(v))
    return SlotDeclaresFloat(ld->getPointerOperand(), ld->getType());
  const auto *i = dyn_cast<Instruction>(v);
  if (!i || !v->getType()->isIntOrIntVectorTy() ||
      !(isa<CastInst>(i) || isa<BinaryOperator>(i) || isa<PHINode>(i) ||
        isa<SelectInst>(i) || isa<FreezeInst>(i)))
    return false;
  for (const Value *op : i->operands())
    if (op->getType()->isIntOrIntVectorTy() &&
        BuiltFromFloatBits(op, depth + 1))
      return true;
  return false;
}

/// Whether integer `v` becomes a float again (`bitcast(trunc(v))`, after
/// shifts and masks that select a field).
static bool UnpackedToFloat(const Value *v, unsigned depth = 0) {
  if (depth > 8)
    return false;
  for (const User *u : v->users()) {
    if (const auto *bc = dyn_cast<BitCastInst>(u))
      if (bc->getDestTy()->isFPOrFPVectorTy())
        return true;
    // -O0: stored into the struct's own stack slot.
    if (const auto *st = dyn_cast<StoreInst>(u))
      if (st->getValueOperand() == v &&
          SlotDeclaresFloat(st->getPointerOperand(), v->getType()))
        return true;
    const auto *i = dyn_cast<Instruction>(u);
    if (i && i->getType()->isIntOrIntVectorTy() &&
        (isa<CastInst>(i) || isa<BinaryOperator>(i) || isa<PHINode>(i) ||
         isa<SelectInst>(i) || isa<FreezeInst>(i)) &&
        UnpackedToFloat(i, depth + 1))
      return true;
  }
  return false;
}

/// Whether a call passes a float's bits packed in an integer argument, or
/// returns an integer the caller unpacks into a float: kept out of line,
/// the callee's integer interface would hide the float from reverse mode
/// (`pick(a, b) { return a.i > b.i ? a : b; }` on `struct {float; int}`).
static bool PassesFloatBits(const CallBase &call) {
  for (const Value *a : call.args())
    if (a->getType()->isIntegerTy() && a->getType()->getIntegerBitWidth() >= 32 &&
        BuiltFromFloatBits(a))
      return true;
  return call.getType()->isIntegerTy() &&
         call.getType()->getIntegerBitWidth() >= 32 && UnpackedToFloat(&call);
}

/// Whether `t` holds floating-point data beside data of other types.
static bool MixesFloats(Type *t) {
  bool floats = false, others = false;
  SmallVector<Type *, 8> work = {t};
  while (!work.empty()) {
    Type *x = work.pop_back_val();
    if (auto *st = dyn_cast<StructType>(x))
      work.append(st->element_begin(), st->element_end());
    else if (auto *at = dyn_cast<ArrayType>(x))
      work.push_back(at->getElementType());
    else if (auto *vt = dyn_cast<VectorType>(x))
      work.push_back(vt->getElementType());
    else
      (x->isFloatingPointTy() ? floats : others) = true;
  }
  return floats && others;
}

/// Whether a call the primal keeps out of line (`noinline` on the callee
/// or the call) stays a call in the derivative, through the callee's split
/// derivative: the derivative is not given more inlining than the primal
/// pipeline would allow. Calls the split derivatives cannot take yet
/// (invoke, byval/sret/inalloca parameters, variadic callees, aggregates
/// holding pointers returned) are inlined instead.
static bool KeptOutOfLine(const CallBase &call, const Function &callee) {
  if (!call.isNoInline() && !callee.hasFnAttribute(Attribute::NoInline))
    return false;

  if (!isa<CallInst>(call) || callee.isVarArg() || MovesIntegerBits(callee) ||
      PassesFloatBits(call))
    return false;
  for (unsigned k = 0; k < callee.arg_size(); ++k)
    if (callee.hasParamAttribute(k, Attribute::ByVal) ||
        callee.hasParamAttribute(k, Attribute::StructRet) ||
        callee.hasParamAttribute(k, Attribute::InAlloca) ||
        callee.hasParamAttribute(k, Attribute::Preallocated))
      return false;
  // A struct on the caller's stack that mixes floats with other fields,
  // filled or read by the callee: inlined, so the caller's scalar
  // replacement and type analysis see the callee's accesses (kept out of
  // line, its copies' fields could not be told apart).
  for (const Value *a : call.args())
    if (const auto *slot = dyn_cast<AllocaInst>(getUnderlyingObject(a)))
      if (MixesFloats(slot->getAllocatedType()))
        return false;
  Type *rt = callee.getReturnType();
  return !ContainsPointer(rt) || rt->isPointerTy();
}

/// Calls to functions defined in the module are inlined into the copy, so
/// the reverse sweep sees one body. Calls to recursive functions stay
/// (ReverseModuleCalls.cpp); so do inactive ones, and calls the primal
/// keeps out of line (KeptOutOfLine).
void ReverseEmitter::InlineModuleCalls() {
  DenseMap<Function *, bool> recursive, recursive_directly;
  constexpr unsigned kRounds = 16;
  for (unsigned round = 0; round < kRounds; ++round) {
    SmallVector<CallBase *, 16> calls;
    for (BasicBlock &bb : out_)
      for (Instruction &i : bb) {
        auto *call = dyn_cast<CallBase>(&i);
        if (!call || isa<CallBrInst>(call) || IsInactiveCall(*call))
          continue;
        Function *callee = CalledFunction(*call);
        if (!callee || callee->isDeclaration() || callee->isVarArg() ||
            callee == req_.fn || callee == &out_ ||
            callee->getFunctionType() != call->getFunctionType() ||
            RegisteredReverseRule(*callee) || HasBuiltinReverseRule(*callee) ||
            FindRule(*call) || // libdevice linked in: its rule, not its body.
            HasComputedGoto(*callee)) // Its own derivative (ClonePrimal).
          continue;
        // An invoke cannot stay a call (no split derivative takes one):
        // it is inlined unless the callee calls itself directly. Calls by
        // pointer inside it stay, dispatched over their candidates (a
        // std::function's call operator reaches, through its handler's
        // pointer, every function of that type whose address is taken).
        bool direct = isa<InvokeInst>(call);
        auto known = (direct ? recursive_directly : recursive)
                         .try_emplace(callee, false);
        if (known.second)
          known.first->second = IsRecursive(*callee, !direct);
        if (known.first->second ||
            (cache_.respect_noinline() && !inline_noinline_ &&
             KeptOutOfLine(*call, *callee)))
          continue;
        calls.push_back(call);
      }
    if (calls.empty())
      return;
    for (CallBase *call : calls) {
      InlineFunctionInfo info;
      (void)InlineFunction(*call, info);
    }
  }
}

void ReverseEmitter::SimplifyLoops() {
  DominatorTree dt(out_);
  LoopInfo li(dt);
  for (Loop *l : li.getLoopsInPreorder())
    simplifyLoop(l, &dt, &li, nullptr, nullptr, nullptr,
                 /*PreserveLCSSA=*/false);
  for (Loop *l : li)
    formLCSSARecursively(*l, dt, &li, nullptr);
}

void ReverseEmitter::ComputeAnalyses() {
  se_.reset();
  activity_.reset();
  discardable_.reset();
  blocks_.clear();
  primal_insts_.clear();
  loop_of_.clear();
  returns_.clear();
  dt_ = std::make_unique<DominatorTree>(out_);
  li_ = std::make_unique<LoopInfo>(*dt_);
  tlii_ = std::make_unique<TargetLibraryInfoImpl>(
      out_.getParent()->getTargetTriple());
  tli_ = std::make_unique<TargetLibraryInfo>(*tlii_, &out_);
  ac_ = std::make_unique<AssumptionCache>(out_);
  se_ = std::make_unique<ScalarEvolution>(out_, *tli_, *ac_, *dt_, *li_);
  ReversePostOrderTraversal<Function *> rpo(&out_);
  for (BasicBlock *bb : rpo) {
    blocks_.push_back(bb);
    for (Instruction &i : *bb)
      if (!i.isTerminator()) // Returns are replaced.
        primal_insts_[bb].push_back(&i);
    loop_of_[bb] = li_->getLoopFor(bb);
    if (auto *ret = dyn_cast<ReturnInst>(bb->getTerminator()))
      returns_.push_back(ret);
  }
  FindDiscardable(); // On the primal's control flow alone.
}

absl::Status ReverseEmitter::Unsupported(Instruction &i,
                                         const std::string &what) {
  return ErrorAt(absl::StatusCode::kUnimplemented, i,
                 "reverse mode does not yet support " + what);
}

} // namespace autodiff
