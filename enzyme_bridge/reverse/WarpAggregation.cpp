//===- enzyme_bridge/reverse/WarpAggregation.cpp - Fewer atomics on a GPU -===//
#include "enzyme_bridge/reverse/WarpAggregation.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {
namespace {

constexpr int kFullMask = -1;
/// shfl.sync's clamp operand for the idx and bfly forms: the whole warp.
constexpr int kClamp = 0x1f;

/// Lane `lane_or_mask`'s value (idx) or the value of this lane XOR it
/// (bfly), for an i32, float or double.
Value *Shuffle(IRBuilder<> &b, Intrinsic::ID i32_form, Intrinsic::ID f32_form,
               Value *v, unsigned lane_or_mask) {
  Value *mask = b.getInt32(kFullMask), *lane = b.getInt32(lane_or_mask),
        *clamp = b.getInt32(kClamp);
  Type *t = v->getType();
  if (t->isIntegerTy(32))
    return b.CreateIntrinsic(i32_form, {}, {mask, v, lane, clamp});
  if (t->isFloatTy())
    return b.CreateIntrinsic(f32_form, {}, {mask, v, lane, clamp});
  // 64 bits: two halves.
  Value *bits = t->isIntegerTy(64) ? v : b.CreateBitCast(v, b.getInt64Ty());
  Value *lo = b.CreateTrunc(bits, b.getInt32Ty());
  Value *hi = b.CreateTrunc(b.CreateLShr(bits, 32), b.getInt32Ty());
  Value *slo = b.CreateIntrinsic(i32_form, {}, {mask, lo, lane, clamp});
  Value *shi = b.CreateIntrinsic(i32_form, {}, {mask, hi, lane, clamp});
  // Named before use: the IR must not depend on the order in which the
  // C++ compiler evaluates arguments.
  Value *low = b.CreateZExt(slo, b.getInt64Ty());
  Value *high = b.CreateShl(b.CreateZExt(shi, b.getInt64Ty()), 32);
  Value *joined = b.CreateOr(low, high);
  return t->isIntegerTy(64) ? joined : b.CreateBitCast(joined, t);
}

} // namespace

Function *WarpAggregatedAdd(Module &m, Type *t, PointerType *ptr_type) {
  if (!m.getTargetTriple().isNVPTX() ||
      !(t->isFloatTy() || t->isDoubleTy()))
    return nullptr;
  std::string name = std::string("__autodiff_warp_fadd.") +
                     (t->isFloatTy() ? "f32" : "f64") + ".p" +
                     std::to_string(ptr_type->getAddressSpace());
  if (Function *f = m.getFunction(name))
    return f;
  LLVMContext &c = m.getContext();
  auto *fty = FunctionType::get(Type::getVoidTy(c), {ptr_type, t}, false);
  Function *f = Function::Create(fty, GlobalValue::InternalLinkage, name, &m);
  f->addFnAttr(Attribute::Convergent);
  f->addFnAttr(Attribute::AlwaysInline);
  f->addFnAttr(Attribute::NoUnwind);
  Value *p = f->getArg(0), *v = f->getArg(1);
  auto *entry = BasicBlock::Create(c, "entry", f);
  auto *check = BasicBlock::Create(c, "whole.warp", f);
  auto *reduce = BasicBlock::Create(c, "same.address", f);
  auto *leader = BasicBlock::Create(c, "leader", f);
  auto *single = BasicBlock::Create(c, "each.lane", f);
  auto *done = BasicBlock::Create(c, "done", f);
  Align align(m.getDataLayout().getTypeStoreSize(t));

  IRBuilder<> b(entry);
  Value *active = b.CreateIntrinsic(Intrinsic::nvvm_activemask, ArrayRef<Value *>());
  b.CreateCondBr(b.CreateICmpEQ(active, b.getInt32(kFullMask)), check, single);

  // Every lane is here: do all add to lane 0's address?
  b.SetInsertPoint(check);
  Value *addr = b.CreatePtrToInt(p, b.getInt64Ty());
  Value *first = Shuffle(b, Intrinsic::nvvm_shfl_sync_idx_i32,
                         Intrinsic::nvvm_shfl_sync_idx_f32, addr, 0);
  Value *all = b.CreateIntrinsic(Intrinsic::nvvm_vote_all_sync, {},
                                 {b.getInt32(kFullMask),
                                  b.CreateICmpEQ(addr, first)});
  b.CreateCondBr(all, reduce, single);

  // A butterfly sum: every lane ends with the warp's total.
  b.SetInsertPoint(reduce);
  Value *sum = v;
  for (unsigned step = 16; step >= 1; step /= 2)
    sum = b.CreateFAdd(sum, Shuffle(b, Intrinsic::nvvm_shfl_sync_bfly_i32,
                                    Intrinsic::nvvm_shfl_sync_bfly_f32, sum,
                                    step));
  Value *lane = b.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_laneid,
                                  ArrayRef<Value *>());
  b.CreateCondBr(b.CreateICmpEQ(lane, b.getInt32(0)), leader, done);
  b.SetInsertPoint(leader);
  b.CreateAtomicRMW(AtomicRMWInst::FAdd, p, sum, align,
                    AtomicOrdering::Monotonic);
  b.CreateBr(done);

  b.SetInsertPoint(single);
  b.CreateAtomicRMW(AtomicRMWInst::FAdd, p, v, align,
                    AtomicOrdering::Monotonic);
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return f;
}

} // namespace autodiff
