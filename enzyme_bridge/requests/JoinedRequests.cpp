//===- enzyme_bridge/requests/JoinedRequests.cpp - One call, several fns ---===//
//
// `if (k == 0) __enzyme_autodiff(f0, ...); else __enzyme_autodiff(f1, ...)`
// is one call at -O1 and above: clang merges the two into a call whose
// function operand is `select %c, @f0, @f1`, a phi of functions, or a load
// from a constant table of them. Such a call is split back into one request
// per function the operand can be, chosen by comparing the operand with
// each (the last one taken when the others do not match).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/requests/JoinedRequests.h"

#include "enzyme_bridge/requests/CallSite.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Adds to `out` every function a constant may hold (a function, or an
/// array or struct of them); false if it holds anything else.
bool FunctionsIn(Constant *c, SetVector<Function *> &out) {
  c = c->stripPointerCasts();
  if (auto *f = dyn_cast<Function>(c)) {
    out.insert(f);
    return true;
  }
  if (isa<ConstantArray>(c) || isa<ConstantStruct>(c)) {
    for (Use &op : c->operands())
      if (!FunctionsIn(cast<Constant>(op.get()), out))
        return false;
    return true;
  }
  return false;
}

/// Adds to `out` every function `v` may be: through selects, phis and
/// loads from constant tables of functions. False when `v` may be
/// something else (a pointer from the caller, a writable table).
bool FunctionsOf(Value *v, SetVector<Function *> &out,
                 SmallPtrSetImpl<Value *> &seen) {
  v = v->stripPointerCasts();
  if (!seen.insert(v).second)
    return true;
  if (auto *f = dyn_cast<Function>(v)) {
    out.insert(f);
    return true;
  }
  if (auto *sel = dyn_cast<SelectInst>(v))
    return FunctionsOf(sel->getTrueValue(), out, seen) &&
           FunctionsOf(sel->getFalseValue(), out, seen);
  if (auto *phi = dyn_cast<PHINode>(v))
    return all_of(phi->incoming_values(),
                  [&](Value *in) { return FunctionsOf(in, out, seen); });
  if (auto *ld = dyn_cast<LoadInst>(v)) {
    auto *table = dyn_cast<GlobalVariable>(
        getUnderlyingObject(ld->getPointerOperand()));
    return table && table->isConstant() &&
           table->hasDefinitiveInitializer() &&
           FunctionsIn(table->getInitializer(), out);
  }
  return false;
}

/// Replaces `call` by `if (op == f1) call(f1, ...) else if ... else
/// call(fn, ...)`.
void SplitRequest(CallInst &call, ArrayRef<Function *> fns) {
  Function &host = *call.getFunction();
  LLVMContext &c = host.getContext();
  BasicBlock *head = call.getParent();
  BasicBlock *join = head->splitBasicBlock(call.getIterator(), "request.join");
  head->getTerminator()->eraseFromParent();
  PHINode *result = nullptr;
  // Only for a result that is used: an unused one may be of a type the
  // derivative does not return (clang declares the entry point `double`).
  if (!call.getType()->isVoidTy() && !call.use_empty())
    result = PHINode::Create(call.getType(), fns.size(), "request.result",
                             join->begin());
  Value *op = call.getArgOperand(0);
  BasicBlock *test = head;
  for (unsigned k = 0; k < fns.size(); ++k) {
    Function *f = fns[k];
    BasicBlock *target =
        BasicBlock::Create(c, "request." + f->getName(), &host, join);
    IRBuilder<> tb(test);
    if (k + 1 < fns.size()) {
      BasicBlock *next = BasicBlock::Create(c, "request.next", &host, join);
      Value *same = tb.CreateICmpEQ(op, f);
      tb.CreateCondBr(same, target, next);
      test = next;
    } else {
      tb.CreateBr(target);
    }
    auto *copy = cast<CallInst>(call.clone());
    copy->setArgOperand(0, f);
    copy->insertInto(target, target->end());
    BranchInst::Create(join, target);
    if (result)
      result->addIncoming(copy, target);
  }
  if (result) {
    result->takeName(&call);
    call.replaceAllUsesWith(result);
  }
  call.eraseFromParent();
}

} // namespace

void SplitJoinedRequests(Module &m) {
  SmallVector<std::pair<CallInst *, SmallVector<Function *, 4>>, 4> todo;
  for (Function &f : m)
    for (BasicBlock &bb : f)
      for (Instruction &i : bb) {
        auto *call = dyn_cast<CallInst>(&i);
        if (!call || !RequestModeOf(*call) || call->arg_size() == 0)
          continue;
        Value *op = call->getArgOperand(0)->stripPointerCasts();
        if (isa<Function>(op))
          continue;
        SetVector<Function *> fns;
        SmallPtrSet<Value *, 8> seen;
        if (FunctionsOf(op, fns, seen) && !fns.empty() && fns.size() <= 16)
          todo.push_back({call, SmallVector<Function *, 4>(fns.begin(),
                                                           fns.end())});
      }
  for (auto &[call, fns] : todo)
    SplitRequest(*call, fns);
}

} // namespace autodiff
