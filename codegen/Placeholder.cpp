//===- codegen/Placeholder.cpp - Is a target's body a stand-in? -----------===//
//
// Design. A placeholder is recognized by what it cannot do rather than by
// its exact shape, because the stand-ins hosts write differ in form (rustc's
// at -O0 and -O3, C's `return 0;`, a hand-written trap): a body counts as a
// placeholder when nothing it computes can reach its caller. Its returns
// and the stores into its `sret` result are zero or undefined constants,
// every other write goes to its own stack, and every call either cannot
// change what the caller sees (inline assembly and `black_box`, which only
// hide values from the optimizer; read-only functions; intrinsics on the
// function's own stack) or never returns. Calls of the item's source are
// allowed too: rustc's placeholders call it to keep it alive.
//
//===----------------------------------------------------------------------===//
#include "codegen/Placeholder.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

namespace autodiff {
namespace {

/// `0`, `0.0`, `-0.0`, `null`, `zeroinitializer`, `undef`, `poison`, or an
/// aggregate of those.
bool IsZeroOrUndef(const llvm::Constant *c) {
  if (c->isZeroValue() || llvm::isa<llvm::UndefValue>(c))
    return true;
  if (!c->getType()->isAggregateType() && !c->getType()->isVectorTy())
    return false;
  unsigned n = 0;
  if (auto *st = llvm::dyn_cast<llvm::StructType>(c->getType()))
    n = st->getNumElements();
  else if (auto *at = llvm::dyn_cast<llvm::ArrayType>(c->getType()))
    n = at->getNumElements();
  else if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(c->getType()))
    n = vt->getNumElements();
  else
    return false;
  for (unsigned i = 0; i < n; ++i) {
    const llvm::Constant *e = c->getAggregateElement(i);
    if (!e || !IsZeroOrUndef(e))
      return false;
  }
  return true;
}

enum class Memory { Local, SretResult, Other };

/// What `ptr` points into: the function's own stack, its `sret` result, or
/// memory the caller can see.
Memory MemoryOf(const llvm::Value *ptr) {
  const llvm::Value *base = llvm::getUnderlyingObject(ptr);
  if (llvm::isa<llvm::AllocaInst>(base))
    return Memory::Local;
  if (auto *arg = llvm::dyn_cast<llvm::Argument>(base))
    if (arg->hasStructRetAttr())
      return Memory::SretResult;
  return Memory::Other;
}

bool IsHarmlessStore(const llvm::StoreInst &store) {
  switch (MemoryOf(store.getPointerOperand())) {
  case Memory::Local:
    return true;
  case Memory::SretResult: {
    auto *c = llvm::dyn_cast<llvm::Constant>(store.getValueOperand());
    return c && IsZeroOrUndef(c);
  }
  case Memory::Other:
    return false;
  }
  return false;
}

/// An intrinsic that writes at most the function's own stack, or zeros
/// into its `sret` result (`memset(sret, 0, n)`).
bool IsHarmlessIntrinsic(const llvm::CallBase &call) {
  if (call.onlyReadsMemory() || call.onlyAccessesInaccessibleMemory())
    return true;
  if (!call.onlyAccessesArgMemory())
    return false;
  for (unsigned i = 0; i < call.arg_size(); ++i) {
    const llvm::Value *arg = call.getArgOperand(i);
    if (!arg->getType()->isPointerTy() || call.onlyReadsMemory(i))
      continue;
    Memory memory = MemoryOf(arg);
    if (memory == Memory::Local)
      continue;
    auto *memset = llvm::dyn_cast<llvm::MemSetInst>(&call);
    auto *value =
        memset ? llvm::dyn_cast<llvm::Constant>(memset->getValue()) : nullptr;
    if (memory == Memory::SretResult && value && value->isZeroValue())
      continue;
    return false;
  }
  return true;
}

bool IsHarmlessCall(const llvm::CallBase &call, const llvm::Function *source) {
  if (call.isInlineAsm() || call.doesNotReturn() || call.onlyReadsMemory())
    return true;
  const llvm::Function *callee = call.getCalledFunction();
  if (!callee)
    return false;
  if (callee == source || callee->getName().contains("black_box"))
    return true;
  return callee->isIntrinsic() && IsHarmlessIntrinsic(call);
}

bool IsHarmlessInstruction(const llvm::Instruction &inst,
                           const llvm::Function *source) {
  if (auto *ret = llvm::dyn_cast<llvm::ReturnInst>(&inst)) {
    const llvm::Value *v = ret->getReturnValue();
    if (!v)
      return true;
    auto *c = llvm::dyn_cast<llvm::Constant>(v);
    return c && IsZeroOrUndef(c);
  }
  if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
    return IsHarmlessStore(*store);
  if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
    return IsHarmlessCall(*call, source);
  return !inst.mayWriteToMemory();
}

} // namespace

bool IsPlaceholderBody(const llvm::Function &target,
                       const llvm::Function *source) {
  for (const llvm::BasicBlock &bb : target)
    for (const llvm::Instruction &inst : bb)
      if (!IsHarmlessInstruction(inst, source))
        return false;
  return true;
}

} // namespace autodiff
