//===- enzyme_bridge/UnreadVarargs.cpp - Calls to variadics that never read them ===//
#include "enzyme_bridge/UnreadVarargs.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace autodiff {

/// Whether variadic `f` may read its variadic arguments: it starts a
/// va_list, or forwards them (a musttail call).
static bool MayReadVarargs(const Function &f) {
  for (const Instruction &i : instructions(f)) {
    if (const auto *ii = dyn_cast<IntrinsicInst>(&i))
      if (ii->getIntrinsicID() == Intrinsic::vastart)
        return true;
    if (const auto *call = dyn_cast<CallInst>(&i))
      if (call->isMustTailCall())
        return true;
  }
  return false;
}

/// A copy of `f` with its fixed parameters only (made once).
static Function *FixedArityCopy(Function &f) {
  std::string name = (f.getName() + ".fixed").str();
  Module &m = *f.getParent();
  if (Function *known = m.getFunction(name))
    return known;
  FunctionType *fty = f.getFunctionType();
  auto *fixedTy =
      FunctionType::get(fty->getReturnType(), fty->params(), false);
  Function *copy = Function::Create(fixedTy, GlobalValue::InternalLinkage,
                                    name, &m);
  ValueToValueMapTy vm;
  for (unsigned k = 0; k < f.arg_size(); ++k) {
    copy->getArg(k)->setName(f.getArg(k)->getName());
    vm[f.getArg(k)] = copy->getArg(k);
  }
  SmallVector<ReturnInst *, 4> returns;
  CloneFunctionInto(copy, &f, vm, CloneFunctionChangeType::LocalChangesOnly,
                    returns);
  copy->setLinkage(GlobalValue::InternalLinkage);
  copy->setVisibility(GlobalValue::DefaultVisibility);
  copy->setComdat(nullptr);
  return copy;
}

/// Replaces `call` by a call of its callee's fixed-arity copy without the
/// variadic operands; returns the copy.
static Function *CallFixedArity(CallBase &call) {
  Function *fixed = FixedArityCopy(*call.getCalledFunction());
  unsigned n = fixed->arg_size();
  SmallVector<Value *, 8> args(call.arg_begin(), call.arg_begin() + n);
  SmallVector<OperandBundleDef, 1> bundles;
  call.getOperandBundlesAsDefs(bundles);
  IRBuilder<> b(&call);
  CallBase *now;
  if (auto *inv = dyn_cast<InvokeInst>(&call))
    now = b.CreateInvoke(fixed, inv->getNormalDest(), inv->getUnwindDest(),
                         args, bundles);
  else
    now = b.CreateCall(fixed, args, bundles);
  // The fixed parameters' attributes carry over; the variadic ones go.
  AttributeList al = call.getAttributes();
  SmallVector<AttributeSet, 8> params;
  for (unsigned k = 0; k < n; ++k)
    params.push_back(al.getParamAttrs(k));
  now->setAttributes(AttributeList::get(call.getContext(),
                                        al.getFnAttrs(), al.getRetAttrs(),
                                        params));
  now->setCallingConv(call.getCallingConv());
  now->setDebugLoc(call.getDebugLoc());
  if (auto *ci = dyn_cast<CallInst>(&call))
    cast<CallInst>(now)->setTailCallKind(ci->getTailCallKind());
  now->takeName(&call);
  call.replaceAllUsesWith(now);
  call.eraseFromParent();
  return fixed;
}

void DropUnreadVarargs(SetVector<Function *> &functions) {
  DenseMap<Function *, bool> reads;
  // (A copy added while walking is walked in turn: indices stay valid.)
  for (size_t next = 0; next < functions.size(); ++next) {
    SmallVector<CallBase *, 8> calls;
    for (Instruction &i : instructions(*functions[next])) {
      auto *call = dyn_cast<CallBase>(&i);
      Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || !callee->isVarArg() || callee->isDeclaration() ||
          call->getFunctionType() != callee->getFunctionType() ||
          call->isMustTailCall() || isa<CallBrInst>(call))
        continue;
      auto known = reads.try_emplace(callee, false);
      if (known.second)
        known.first->second = MayReadVarargs(*callee);
      if (!known.first->second)
        calls.push_back(call);
    }
    for (CallBase *call : calls)
      functions.insert(CallFixedArity(*call));
  }
}

} // namespace autodiff
