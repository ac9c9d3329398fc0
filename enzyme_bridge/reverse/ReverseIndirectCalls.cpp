//===- enzyme_bridge/reverse/ReverseIndirectCalls.cpp - Function pointers --===//
//
// A call through a function pointer that touches active data (a callback
// passed enzyme_const, an entry of a table of functions) becomes, in the
// derivative's copy of the primal, a dispatch: the pointer is compared with
// each function of the module that has the call's type and whose address
// is taken, and the matching one is called directly. Direct calls are then
// inlined (or, for recursive callees, differentiated as calls) like any
// other, and math functions with a derivative rule are candidates too. A
// pointer matching none of them stops the program (llvm.trap): its callee
// was not in the module, so it could not have been differentiated.
//
// Any function of the call's type whose address is taken is a candidate,
// even one the pointer never holds (a finite-difference wrapper passed to
// a checker). When differentiating fails at an instruction inlined from a
// candidate, the derivative is built again with that candidate's arm
// stopping the program, with the reason, should the pointer ever hold it.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/ActivityAnalysis.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/rules/Rules.h"

#include "enzyme_bridge/ClonePrimal.h"
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/RuntimeAbort.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Whether `f`'s address is used as data: anything but being called, or
/// being the function a request differentiates.
bool AddressUsedAsData(const Function &f) {
  for (const Use &u : f.uses()) {
    auto *call = dyn_cast<CallBase>(u.getUser());
    if (call && call->isCallee(&u))
      continue;
    Function *callee = call ? call->getCalledFunction() : nullptr;
    if (callee && callee->getName().starts_with("__enzyme_") &&
        u.getOperandNo() == 0)
      continue;
    return true;
  }
  return false;
}

/// Metadata kind on the terminators of a dispatch arm's blocks, naming the
/// candidate whose inlined body they hold.
constexpr const char *kCandidateMetadata = "autodiff.candidate";

/// The candidate whose dispatch arm `bb` belongs to (as tagged by
/// ReverseEmitter::TagDispatchArms), or null.
Function *ArmCandidate(const BasicBlock &bb) {
  const Instruction *term = bb.getTerminator();
  MDNode *md = term ? term->getMetadata(kCandidateMetadata) : nullptr;
  return md ? dyn_cast<Function>(
                  cast<ValueAsMetadata>(md->getOperand(0))->getValue())
            : nullptr;
}

/// Replaces `call` by `if (fp == c1) c1(args) else if ... else trap`. An
/// `invoke` (a virtual call or a std::function call while an object with
/// a destructor is alive) becomes invokes of the candidates, all unwinding
/// to its landing pad. The arm of a candidate in `excluded` stops the
/// program with the reason. Each arm's block and candidate go to `arms`.
void Dispatch(CallBase &call, ArrayRef<Function *> candidates,
              const std::string &primal, const ExcludedCandidates *excluded,
              SmallVectorImpl<std::pair<WeakVH, Function *>> &arms) {
  Function &fn = *call.getFunction();
  LLVMContext &c = fn.getContext();
  BasicBlock *head = call.getParent();
  auto *invoke = dyn_cast<InvokeInst>(&call);
  BasicBlock *join;
  if (invoke) {
    join = BasicBlock::Create(c, "fptr.join", &fn, invoke->getNormalDest());
    BranchInst::Create(invoke->getNormalDest(), join);
    invoke->getNormalDest()->replacePhiUsesWith(head, join);
  } else {
    join = head->splitBasicBlock(call.getIterator(), "fptr.join");
    head->getTerminator()->eraseFromParent();
  }
  BasicBlock *unknown = BasicBlock::Create(c, "fptr.unknown", &fn);
  IRBuilder<> ub(unknown);
  ub.CreateCall(Intrinsic::getOrInsertDeclaration(fn.getParent(),
                                                  Intrinsic::trap));
  ub.CreateUnreachable();
  PHINode *result = nullptr;
  if (!call.getType()->isVoidTy())
    result = PHINode::Create(call.getType(), candidates.size(), "fptr.result",
                             join->begin());
  SmallVector<Value *, 8> args(call.args());
  SmallVector<BasicBlock *, 4> targets;
  BasicBlock *test = head;
  for (Function *cand : candidates) {
    BasicBlock *target =
        BasicBlock::Create(c, "fptr." + cand->getName(), &fn, unknown);
    BasicBlock *next = BasicBlock::Create(c, "fptr.next", &fn, unknown);
    IRBuilder<> tb(test);
    if (test == head && invoke)
      tb.SetInsertPoint(invoke); // Before it: it goes at the end.
    Value *same = tb.CreateICmpEQ(call.getCalledOperand(), cand);
    tb.CreateCondBr(same, target, next);
    IRBuilder<> cb(target);
    if (excluded && excluded->count(cand)) {
      EmitRuntimeAbort(cb, CandidateStopMessage(primal, cand->getName().str(),
                                                excluded->lookup(cand)));
      test = next;
      continue;
    }
    arms.push_back({WeakVH(target), cand});
    CallBase *direct;
    if (invoke) {
      direct = cb.CreateInvoke(cand, join, invoke->getUnwindDest(), args);
    } else {
      direct = cb.CreateCall(cand, args);
      cb.CreateBr(join);
    }
    direct->setDebugLoc(call.getDebugLoc());
    direct->setCallingConv(cand->getCallingConv());
    direct->setAttributes(call.getAttributes());
    if (result)
      result->addIncoming(direct, target);
    targets.push_back(target);
    test = next;
  }
  IRBuilder<>(test).CreateBr(unknown);
  if (invoke)
    for (PHINode &phi : invoke->getUnwindDest()->phis()) {
      Value *in = phi.getIncomingValueForBlock(head);
      phi.removeIncomingValue(head, /*DeletePHIIfEmpty=*/false);
      for (BasicBlock *target : targets)
        phi.addIncoming(in, target);
    }
  if (result) {
    result->takeName(&call);
    call.replaceAllUsesWith(result);
  }
  call.eraseFromParent();
}

} // namespace

/// The functions a call through a pointer of type `type` may reach: those
/// of the module whose address is used as data (a table, a vtable, a
/// stored callback) or that have a rule.
SmallVector<Function *, 4> Candidates(Module &m, FunctionType *type) {
  SmallVector<Function *, 4> found;
  for (Function &f : m) {
    if (f.getFunctionType() != type ||
        f.getName().starts_with("__enzyme") || f.isIntrinsic())
      continue;
    if (f.isDeclaration() && !FindRuleByName(f.getName()))
      continue;
    if (AddressUsedAsData(f))
      found.push_back(&f);
  }
  return found;
}

namespace {

/// The constant at byte `offset` of `init` (a vtable's initializer: a
/// struct of arrays of pointers), or null.
const Constant *ConstantAt(const Constant *init, uint64_t offset,
                           const DataLayout &dl) {
  for (unsigned depth = 0; init && depth < 8; ++depth) {
    Type *t = init->getType();
    if (auto *st = dyn_cast<StructType>(t)) {
      const StructLayout *sl = dl.getStructLayout(st);
      if (offset >= sl->getSizeInBytes())
        return nullptr;
      unsigned k = sl->getElementContainingOffset(offset);
      offset -= sl->getElementOffset(k);
      init = init->getAggregateElement(k);
    } else if (auto *at = dyn_cast<ArrayType>(t)) {
      uint64_t size = dl.getTypeAllocSize(at->getElementType());
      if (!size || offset / size >= at->getNumElements())
        return nullptr;
      init = init->getAggregateElement(unsigned(offset / size));
      offset %= size;
    } else {
      return offset == 0 ? init : nullptr;
    }
  }
  return nullptr;
}

/// The functions a virtual call may reach, or nullopt when `call` is not
/// one: its pointer is loaded `slot` bytes past a pointer loaded from
/// memory (the object's vtable pointer), and each vtable of the module
/// holds, `slot` bytes past each of its address points (the constants
/// pointing into it that constructors store), the function that slot
/// holds for its class.
std::optional<SmallPtrSet<Function *, 8>> VirtualSlotTargets(
    const CallBase &call) {
  const auto *fp = dyn_cast<LoadInst>(call.getCalledOperand());
  if (!fp)
    return std::nullopt;
  const Module &m = *call.getModule();
  const DataLayout &dl = m.getDataLayout();
  APInt slot(dl.getIndexTypeSizeInBits(fp->getPointerOperandType()), 0);
  const Value *vptr = fp->getPointerOperand()->stripAndAccumulateConstantOffsets(
      dl, slot, /*AllowNonInbounds=*/true);
  if (!isa<LoadInst>(vptr) || slot.isNegative())
    return std::nullopt;
  SmallPtrSet<Function *, 8> targets;
  for (const GlobalVariable &g : m.globals()) {
    if (!g.hasDefinitiveInitializer() ||
        !g.getValueType()->isAggregateType())
      continue;
    for (const User *u : g.users()) {
      const auto *ce = dyn_cast<ConstantExpr>(u);
      if (!ce)
        continue;
      APInt point(dl.getIndexTypeSizeInBits(g.getType()), 0);
      if (ce->stripAndAccumulateConstantOffsets(dl, point, true) != &g ||
          point.isNegative())
        continue;
      const Constant *at = ConstantAt(
          g.getInitializer(), point.getZExtValue() + slot.getZExtValue(), dl);
      if (auto *f = dyn_cast_or_null<Function>(
              at ? at->stripPointerCasts() : nullptr))
        targets.insert(const_cast<Function *>(f));
    }
  }
  if (targets.empty())
    return std::nullopt;
  return targets;
}

} // namespace

SmallVector<Function *, 4> CallCandidates(const CallBase &call) {
  SmallVector<Function *, 4> found =
      Candidates(*const_cast<Module *>(call.getModule()),
                 call.getFunctionType());
  std::optional<SmallPtrSet<Function *, 8>> slot = VirtualSlotTargets(call);
  if (!slot)
    return found;
  SmallVector<Function *, 4> narrowed;
  for (Function *f : found)
    if (slot->count(f))
      narrowed.push_back(f);
  return narrowed.empty() ? found : narrowed;
}

bool ReverseEmitter::DispatchIndirectCalls() {
  SmallVector<CallBase *, 4> calls;
  for (BasicBlock &bb : out_)
    for (Instruction &i : bb) {
      auto *call = dyn_cast<CallBase>(&i);
      if (!call || (!isa<CallInst>(call) && !isa<InvokeInst>(call)) ||
          call->isInlineAsm() || CalledFunction(*call))
        continue;
      bool touches = Active(call);
      for (Value *arg : call->args())
        touches |= !isa<Constant>(arg) && Active(arg) &&
                   (HoldsFloat(arg->getType()) ||
                    ContainsPointer(arg->getType()));
      if (touches)
        calls.push_back(call);
    }
  bool changed = false;
  for (CallBase *call : calls) {
    SmallVector<Function *, 4> candidates = CallCandidates(*call);
    if (candidates.empty())
      continue; // The emitter reports it.
    Dispatch(*call, candidates, req_.fn->getName().str(), excluded_,
             dispatch_arms_);
    changed = true;
  }
  return changed;
}

void ReverseEmitter::TagDispatchArms(bool tag) {
  unsigned kind = out_.getContext().getMDKindID(kCandidateMetadata);
  if (!tag) {
    for (BasicBlock &bb : out_)
      if (Instruction *t = bb.getTerminator())
        t->setMetadata(kind, nullptr);
    return;
  }
  if (dispatch_arms_.empty())
    return;
  DominatorTree dt(out_);
  // Innermost arms first (made in later rounds): a failure inside a
  // candidate's own dispatch names the candidate it inlined last.
  for (auto &[arm, cand] : reverse(dispatch_arms_)) {
    auto *first = dyn_cast_or_null<BasicBlock>(arm);
    if (!first || first->getParent() != &out_)
      continue;
    MDNode *md = MDNode::get(out_.getContext(), ValueAsMetadata::get(cand));
    for (BasicBlock &bb : out_)
      if (Instruction *t = bb.getTerminator())
        if (!t->getMetadata(kind) && dt.dominates(first, &bb))
          t->setMetadata(kind, md);
  }
}

Function *ReverseEmitter::DispatchArmCandidate(const Instruction &i) const {
  return ArmCandidate(*i.getParent());
}

void ReverseEmitter::NoteModuleCallCaller(CallBase &call,
                                          Function &derivative) {
  Function *callee = CalledFunction(call);
  bool speculative = callee && DispatchArmCandidate(call) == callee;
  cache_.NoteCaller(derivative, owner_ ? *owner_ : out_, speculative,
                    req_.fn->getName().str());
}

absl::Status RunExcludingFailedCandidates(
    Function &out, function_ref<absl::Status(const ExcludedCandidates &)> attempt) {
  constexpr unsigned kMaxExcluded = 8;
  ExcludedCandidates excluded;
  for (;;) {
    ClearLastProblemInstruction();
    absl::Status st = attempt(excluded);
    if (st.ok() || excluded.size() >= kMaxExcluded)
      return st;
    // The instruction the failure names (not one of an error handled on
    // the way).
    Instruction *at = LastProblemInstruction();
    if (!at || at->getFunction() != &out ||
        st.message().substr(0, DescribePlace(*at).size()) != DescribePlace(*at))
      return st;
    Function *cand = ArmCandidate(*at->getParent());
    if (!cand || excluded.count(cand))
      return st;
    excluded.insert({cand, FirstLine(st)});
    EraseBody(out); // Start again from an empty body.
  }
}

} // namespace autodiff
