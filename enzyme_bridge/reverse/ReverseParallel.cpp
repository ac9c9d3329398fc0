//===- enzyme_bridge/reverse/ReverseParallel.cpp - Reverse mode on a GPU --===//
//
// A GPU kernel runs the derivative in many threads at once. What several
// threads read in the primal, several threads add adjoints into in the
// reverse sweep: those additions are atomic, except for accesses the
// analysis of GpuKernels.h proves thread-private. Barriers are mirrored, so
// the reverse sweep of a block's phase starts only when every thread has
// finished the reverse sweep of the next phase. Shared-memory shadows are
// zeroed at the entry (shared memory starts undefined).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/reverse/WarpAggregation.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace autodiff {

using namespace llvm;

void ReverseEmitter::AtomicAccumulate(Value *shadow, Value *adjoint,
                                      Align align) {
  Type *t = adjoint->getType();
  if (t->isFloatingPointTy()) {
    auto *pt = cast<PointerType>(shadow->getType());
    if (Function *add = WarpAggregatedAdd(*out_.getParent(), t, pt);
        add && align >= Align(out_.getParent()->getDataLayout()
                                  .getTypeStoreSize(t))) {
      rb_.CreateCall(add, {shadow, adjoint});
      return;
    }
    rb_.CreateAtomicRMW(AtomicRMWInst::FAdd, shadow, adjoint, align,
                        AtomicOrdering::Monotonic);
    return;
  }
  if (auto *vec = dyn_cast<FixedVectorType>(t)) { // Lane by lane.
    Type *element = vec->getElementType();
    Align lane = commonAlignment(
        align, out_.getParent()->getDataLayout().getTypeStoreSize(element));
    for (unsigned k = 0; k < vec->getNumElements(); ++k) {
      Value *at = rb_.CreateConstInBoundsGEP1_32(element, shadow, k);
      rb_.CreateAtomicRMW(AtomicRMWInst::FAdd, at,
                          rb_.CreateExtractElement(adjoint, k), lane,
                          AtomicOrdering::Monotonic);
    }
  }
}

ReverseEmitter::Accumulation
ReverseEmitter::AccumulationFor(const Instruction &access,
                                const Value *ptr) const {
  if (!gpu_ || IsThreadLocalMemory(ptr))
    return Accumulation::Plain;
  if (thread_private_.count(&access))
    // A shared array is the block's own: only the block's shape matters.
    return IsSharedMemory(ptr) ? Accumulation::AtomicUnlessOneDimensionalBlock
                               : Accumulation::AtomicUnlessOneDimensional;
  return Accumulation::Atomic;
}

void ReverseEmitter::ZeroSharedShadows() {
  if (!gpu_)
    return;
  SmallVector<Value *, 4> used;
  for (auto &[primal, shadow] : shadows_) {
    auto *g = dyn_cast<GlobalVariable>(primal);
    if (!g || !IsSharedMemoryShadow(*shadow))
      continue;
    bool usedHere = any_of(g->users(), [&](const User *u) {
      const auto *i = dyn_cast<Instruction>(u);
      return i && i->getFunction() == &out_;
    });
    if (usedHere)
      used.push_back(shadow);
  }
  // In the order of the module's globals, for a deterministic result.
  IRBuilder<> b(&*out_.getEntryBlock().getFirstInsertionPt());
  for (GlobalVariable &g : out_.getParent()->globals())
    if (is_contained(used, &g))
      EmitZeroSharedShadow(b, g);
}

absl::Status ReverseEmitter::MirrorBarrier(CallBase &call) {
  SmallVector<Value *, 2> args;
  for (Value *a : call.args())
    args.push_back(Lookup(a));
  CallInst *mirror =
      rb_.CreateCall(call.getFunctionType(), call.getCalledOperand(), args);
  mirror->setAttributes(call.getAttributes());
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitAtomicRMWInst(AtomicRMWInst &i) {
  Value *v = i.getValOperand();
  if (!HoldsFloat(v->getType()) || !Active(v))
    return visitInstruction(i);
  AtomicRMWInst::BinOp op = i.getOperation();
  if ((op != AtomicRMWInst::FAdd && op != AtomicRMWInst::FSub) ||
      !i.use_empty())
    return Unsupported(i, "an atomic update of active data other than an "
                          "add or subtract whose old value is unused");
  Value *shadow = LookupShadow(i.getPointerOperand());
  if (!shadow)
    return Unsupported(i, "an atomic add of active data into memory whose "
                          "shadow is unknown");
  // *p += v: v's adjoint is what reaches *p later, which stays there for
  // the other additions into *p.
  Value *a = rb_.CreateAlignedLoad(v->getType(), shadow, i.getAlign(),
                                   "atomic.adjoint");
  AddAdjoint(v, op == AtomicRMWInst::FAdd ? a : rb_.CreateFNeg(a));
  return absl::OkStatus();
}

} // namespace autodiff
