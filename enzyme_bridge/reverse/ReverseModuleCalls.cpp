//===- enzyme_bridge/reverse/ReverseModuleCalls.cpp - Calls kept as calls --===//
//
// Calls to functions of the module are inlined during preparation, except
// recursive ones. A recursive call stays a call in the forward sweep (its
// side effects happen there, once); its adjoint is a call, in the reverse
// sweep, to the callee's own combined reverse derivative, requested through
// the derivative cache (so a function calling itself gets one derivative
// that calls itself). That derivative runs the callee again before its
// reverse sweep, which is right only when the callee writes no memory its
// caller can see and nothing written after the call changes what it reads:
// both are checked (ReadOnlyForCaller here, the alias queries of
// ReverseReloads.cpp), and anything else is a diagnostic. The price of
// running the callee again is time, not memory: a recursion n deep costs
// O(n^2) instead of O(n).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/reverse/ReverseMode.h"
#include "enzyme_bridge/rules/Rules.h"
#include "support/StatusMacros.h"

#include "llvm/Analysis/ValueTracking.h"
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

absl::Status ReverseEmitter::VisitModuleCall(CallBase &call,
                                             Function &callee) {
  std::string name = "`" + callee.getName().str() + "`";
  // Not inlined because it is variadic, not because it recurses.
  if (callee.isVarArg())
    return Unsupported(call, "a call with active arguments to the variadic "
                             "function " + name + " (va_arg on active "
                             "values is not differentiated)");
  if (!call.onlyReadsMemory())
    return Unsupported(call, "a recursive call to " + name +
                                 ", which writes memory its caller can see "
                                 "(only recursion that does not is "
                                 "supported yet)");
  if (!Reloadable(call))
    return Unsupported(call, "a recursive call to " + name +
                                 " whose memory is written after it returns");
  DiffRequest r;
  r.fn = &callee;
  r.mode = Mode::Reverse;
  FunctionType *fty = callee.getFunctionType();
  for (unsigned k = 0; k < call.arg_size(); ++k) {
    Value *a = call.getArgOperand(k);
    Type *t = fty->getParamType(k);
    ArgActivity act = ArgActivity::Const;
    if (callee.hasParamAttribute(k, Attribute::ByVal) ||
        callee.hasParamAttribute(k, Attribute::StructRet))
      return Unsupported(call, "a recursive call to " + name +
                                   " with a byval or sret parameter");
    if (t->isPointerTy() && shadows_.count(a))
      act = ArgActivity::Dup;
    else if (HoldsFloat(t) && !ContainsPointer(t) && !isa<Constant>(a) &&
             Active(a))
      act = ArgActivity::Out;
    else if (ContainsPointer(t) && !isa<Constant>(a) && Active(a))
      return Unsupported(call, "a recursive call to " + name +
                                   " passing active memory without a shadow");
    r.args.push_back(act);
  }
  r.return_tangent = HoldsFloat(call.getType()) &&
                     !ContainsPointer(call.getType()) && Active(&call);
  AD_RETURN_IF_ERROR(CheckReverseRequest(r));
  absl::StatusOr<Function *> df = cache_.Get(r);
  if (!df.ok())
    return ErrorAt(df.status().code(), call, std::string(df.status().message()));
  SmallVector<Value *, 8> args;
  for (unsigned k = 0; k < call.arg_size(); ++k) {
    Value *a = call.getArgOperand(k);
    args.push_back(Lookup(a));
    if (r.args[k] == ArgActivity::Dup)
      args.push_back(LookupShadow(a));
  }
  if (r.return_tangent)
    args.push_back(TakeAdjoint(&call));
  CallInst *d = rb_.CreateCall(*df, args);
  d->setDebugLoc(call.getDebugLoc());
  // The derivative keeps the primal's calling convention (fastcc, for an
  // internal function after GlobalOpt): a mismatched call is undefined.
  CopyAbiParamAttrs(*d, **df);
  unsigned outs = count(r.args, ArgActivity::Out);
  unsigned leaf = 0;
  for (unsigned k = 0; k < call.arg_size(); ++k)
    if (r.args[k] == ArgActivity::Out)
      AddAdjoint(call.getArgOperand(k),
                 outs == 1 ? d : rb_.CreateExtractValue(d, leaf++));
  return absl::OkStatus();
}

} // namespace autodiff
