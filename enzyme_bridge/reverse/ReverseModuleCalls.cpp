//===- enzyme_bridge/reverse/ReverseModuleCalls.cpp - Calls kept as calls --===//
//
// Calls to functions of the module are inlined during preparation, except
// recursive ones. A call that stays a call and touches active data uses
// the callee's split derivative (ReverseSplit.cpp), requested through the
// derivative cache with the call site's activities (so a function calling
// itself gets one pair that calls itself): the forward sweep calls the
// augmented half instead of the callee (the primal's side effects happen
// there, once) and keeps its tape like any other value the reverse sweep
// needs; the call's adjoint calls the reverse half with that tape.
//
// Calls to functions that write no memory their caller can see are marked
// read-only on the copy, which lets the caller's loads around them be read
// again instead of cached (ReverseReloads.cpp).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/requests/CallerTypes.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/reverse/ReverseMode.h"
#include "enzyme_bridge/rules/BlasRules.h"
#include "enzyme_bridge/rules/Rules.h"
#include "support/StatusMacros.h"

#include "llvm/Analysis/ValueTracking.h"
#include "absl/status/statusor.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Whether writing through `ptr` only touches a stack slot of `f`.
bool WritesLocal(const Value *ptr, const Function &f) {
  auto *a = dyn_cast<AllocaInst>(getUnderlyingObject(ptr));
  return a && a->getFunction() == &f;
}

bool InstructionReadOnlyForCaller(const Instruction &i, const Function &f,
                                  SmallPtrSetImpl<const Function *> &seen);

/// Whether `f` (and what it calls) writes no memory that outlives its call
/// and has no other side effect: only its own stack slots, and errno
/// through math functions.
bool ReadOnlyForCaller(const Function &f,
                       SmallPtrSetImpl<const Function *> &seen) {
  if (!seen.insert(&f).second)
    return true; // Recursion: decided by the rest of the cycle.
  if (f.isDeclaration() || f.isVarArg())
    return false;
  for (const BasicBlock &bb : f)
    for (const Instruction &i : bb)
      if (!InstructionReadOnlyForCaller(i, f, seen))
        return false;
  return true;
}

bool InstructionReadOnlyForCaller(const Instruction &i, const Function &f,
                                  SmallPtrSetImpl<const Function *> &seen) {
  if (i.isAtomic() || isa<InvokeInst>(i) || isa<CallBrInst>(i) ||
      isa<ResumeInst>(i))
    return false;
  if (auto *ld = dyn_cast<LoadInst>(&i))
    return !ld->isVolatile();
  if (auto *st = dyn_cast<StoreInst>(&i))
    return !st->isVolatile() && WritesLocal(st->getPointerOperand(), f);
  auto *call = dyn_cast<CallBase>(&i);
  if (!call)
    return !i.mayWriteToMemory();
  if (auto *mi = dyn_cast<MemIntrinsic>(call))
    return !mi->isVolatile() && WritesLocal(mi->getDest(), f);
  if (auto *ii = dyn_cast<IntrinsicInst>(call))
    if (ii->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(ii) ||
        ii->getIntrinsicID() == Intrinsic::lifetime_start ||
        ii->getIntrinsicID() == Intrinsic::lifetime_end)
      return true;
  if (call->onlyReadsMemory() && !call->mayThrow())
    return true;
  if (FindRule(*call)) // Math functions: errno at most.
    return true;
  // A call that never returns (Rust's overflow and bounds-check panics,
  // abort, __assert_fail): whatever it writes, the caller never goes on,
  // so running the callee again in the reverse sweep cannot observe it.
  if (call->doesNotReturn() && IsInactiveCall(*call))
    return true;
  Function *callee = CalledFunction(*call);
  return callee && !IsInactiveCall(*call) && ReadOnlyForCaller(*callee, seen);
}

} // namespace

void ReverseEmitter::MarkReadOnlyModuleCalls() {
  for (BasicBlock &bb : out_)
    for (Instruction &i : bb) {
      auto *call = dyn_cast<CallInst>(&i);
      Function *callee = call ? CalledFunction(*call) : nullptr;
      if (!callee || callee->isDeclaration() || IsInactiveCall(*call) ||
          call->onlyReadsMemory())
        continue;
      SmallPtrSet<const Function *, 8> seen;
      if (ReadOnlyForCaller(*callee, seen))
        call->setOnlyReadsMemory();
    }
}

bool ReverseEmitter::StaysModuleCall(CallBase &call) {
  Function *callee = CalledFunction(call);
  if (!callee || !isa<CallInst>(call) || isa<IntrinsicInst>(call) ||
      IsInactiveCall(call))
    return false;
  // A registered reverse rule takes precedence over the body and over the
  // rule table.
  if (RegisteredReverseRule(*callee) || HasBuiltinReverseRule(*callee))
    return TouchesActiveData(call);
  return !callee->isDeclaration() &&
         ClassifyAllocation(call) == AllocKind::None && !FindRule(call) &&
         TouchesActiveData(call);
}

/// What this function's code knows of the memory a call passes with a
/// shadow goes into the callee's request (requests/CallerTypes.h): a
/// callee that only copies it (a struct swap done with memcpy) cannot type
/// it alone.
void ReverseEmitter::AddArgumentTypes(CallBase &call, DiffRequest &r) {
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  const TypeInfo &callee_types = callee_types_.Of(*r.fn);
  for (unsigned k = 0; k < r.args.size() && k < r.fn->arg_size(); ++k) {
    if (r.args[k] != ArgActivity::Dup)
      continue;
    Value *a = call.getArgOperand(k);
    std::string t = CallerPointerType(*types_, {a, JoinedShadow(a)},
                                      callee_types, *r.fn->getArg(k));
    if (t.empty())
      continue;
    r.arg_types.resize(r.fn->arg_size());
    r.arg_types[k] = std::move(t);
  }
}

absl::StatusOr<DiffRequest>
ReverseEmitter::ModuleCallRequest(CallBase &call, Function &callee) {
  std::string name = "`" + callee.getName().str() + "`";
  // Not inlined because it is variadic, not because it recurses.
  if (callee.isVarArg())
    return Unsupported(call, "a call with active arguments to the variadic "
                             "function " + name + " (va_arg on active "
                             "values is not differentiated)");
  DiffRequest r;
  r.fn = &callee;
  r.mode = Mode::Augmented;
  FunctionType *fty = callee.getFunctionType();
  for (unsigned k = 0; k < call.arg_size(); ++k) {
    Value *a = call.getArgOperand(k);
    Type *t = fty->getParamType(k);
    ArgActivity act = ArgActivity::Const;
    if (callee.hasParamAttribute(k, Attribute::ByVal))
      return Unsupported(call, "a call kept as a call (recursive) to " +
                                   name + " with a byval parameter");
    // A pointer whose shadow is the sink (into a constant argument or
    // global, or inactive) is constant for the callee too: passed the
    // sink, a callee following pointers stored in that memory would follow
    // the null shadows loaded from it (a constant tree walked recursively).
    if (t->isPointerTy() && SinkOnly(a))
      act = ArgActivity::Const;
    else if (t->isPointerTy() && JoinedShadow(a))
      act = ArgActivity::Dup;
    else if (HoldsFloat(t) && !ContainsPointer(t) && !isa<Constant>(a) &&
             Active(a))
      act = ArgActivity::Out;
    else if (ContainsPointer(t) && !isa<Constant>(a) && Active(a))
      return Unsupported(call, "a call kept as a call (recursive) to " +
                                   name +
                                   " passing active memory without a shadow");
    r.args.push_back(act);
  }
  Type *rt = call.getType();
  if (ContainsPointer(rt) && !rt->isPointerTy() && Active(&call))
    return Unsupported(call, "a call kept as a call (recursive) to " + name +
                                 " whose result is an aggregate holding an "
                                 "active pointer");
  // An active pointer result: the augmented half returns its shadow too.
  r.return_tangent = (HoldsFloat(rt) || rt->isPointerTy()) && Active(&call);
  AD_RETURN_IF_ERROR(CheckReverseRequest(r));
  AddArgumentTypes(call, r);
  return r;
}

absl::Status ReverseEmitter::AugmentModuleCall(CallBase &call) {
  Function &callee = *CalledFunction(call);
  if (std::optional<ReverseRule> rule = RegisteredReverseRule(callee))
    return AugmentRuleCall(call, callee, *rule);
  if (HasBuiltinReverseRule(callee))
    return AugmentRuleCall(call, callee, *BuiltinReverseRule(callee));
  absl::StatusOr<DiffRequest> r = ModuleCallRequest(call, callee);
  if (!r.ok())
    return r.status();
  absl::StatusOr<Function *> aug = cache_.Get(*r);
  if (!aug.ok())
    return ErrorAt(aug.status().code(), call,
                   std::string(aug.status().message()));
  NoteModuleCallCaller(call, **aug);
  fb_.SetInsertPoint(&call);
  SmallVector<Value *, 8> args;
  AugmentedCall &info = augmented_[&call];
  info.request = *r;
  for (unsigned k = 0; k < call.arg_size(); ++k) {
    Value *a = call.getArgOperand(k);
    args.push_back(a);
    info.shadows.push_back(r->args[k] == ArgActivity::Dup ? JoinedShadow(a)
                                                          : nullptr);
    if (info.shadows.back())
      args.push_back(info.shadows.back());
  }
  CallInst *ac = fb_.CreateCall(*aug, args, call.getName() + ".aug");
  ac->setDebugLoc(call.getDebugLoc());
  // The halves keep the primal's calling convention (fastcc, for an
  // internal function after GlobalOpt): a mismatched call is undefined.
  CopyAbiParamAttrs(*ac, **aug);
  info.tape = ac->getType()->isPointerTy()
                  ? static_cast<Instruction *>(ac)
                  : cast<Instruction>(fb_.CreateExtractValue(ac, 0, "tape"));
  if (!call.getType()->isVoidTy())
    info.result = fb_.CreateExtractValue(ac, 1, call.getName() + ".primal");
  if (call.getType()->isPointerTy() && r->return_tangent)
    shadows_[&call] = fb_.CreateExtractValue(ac, 2, call.getName() + "'");
  tape_of_call_[info.tape] = &call;
  return absl::OkStatus();
}

absl::Status ReverseEmitter::VisitModuleCall(CallBase &call,
                                             Function &callee) {
  auto it = augmented_.find(&call);
  if (it == augmented_.end()) {
    absl::StatusOr<DiffRequest> r = ModuleCallRequest(call, callee);
    if (!r.ok())
      return r.status();
    return Unsupported(call, "a call to `" + callee.getName().str() +
                                 "` that could not be inlined");
  }
  AugmentedCall &info = it->second;
  if (info.rule)
    return ReverseRuleCall(call, info);
  DiffRequest r = info.request;
  r.mode = Mode::SplitReverse;
  absl::StatusOr<Function *> rev = cache_.Get(r);
  if (!rev.ok())
    return ErrorAt(rev.status().code(), call,
                   std::string(rev.status().message()));
  NoteModuleCallCaller(call, **rev);
  SmallVector<Value *, 8> args = ReverseCallArgs(call, info);
  if (r.return_tangent && !call.getType()->isPointerTy())
    args.push_back(TakeAdjoint(&call));
  args.push_back(LookupTape(info));
  CallInst *d = rb_.CreateCall(*rev, args);
  d->setDebugLoc(call.getDebugLoc());
  CopyAbiParamAttrs(*d, **rev);
  unsigned outs = count(r.args, ArgActivity::Out);
  unsigned leaf = 0;
  for (unsigned k = 0; k < call.arg_size(); ++k)
    if (r.args[k] == ArgActivity::Out)
      AddAdjoint(call.getArgOperand(k),
                 outs == 1 ? d : rb_.CreateExtractValue(d, leaf++));
  return absl::OkStatus();
}

SmallVector<Value *, 8>
ReverseEmitter::ReverseCallArgs(CallBase &call, const AugmentedCall &info) {
  SmallVector<Value *, 8> args;
  for (unsigned k = 0; k < call.arg_size(); ++k) {
    args.push_back(Lookup(call.getArgOperand(k)));
    if (info.shadows[k])
      args.push_back(Lookup(info.shadows[k]));
  }
  return args;
}

Value *ReverseEmitter::LookupTape(const AugmentedCall &info) {
  if (Value *t = memo_.lookup(info.tape))
    return t;
  Value *t = LoadFromCache(*info.tape);
  memo_[info.tape] = t;
  return t;
}

void ReverseEmitter::ReplaceAugmentedCalls() {
  for (auto &[call, info] : augmented_) {
    // A split point may return the call's result (`return g(x);`).
    for (SplitPoint &p : split_points_)
      if (p.result == call)
        p.result = info.result;
    if (info.result)
      call->replaceAllUsesWith(info.result);
    call->eraseFromParent();
  }
  augmented_.clear();
}

} // namespace autodiff
