//===- enzyme_bridge/ShadowArenas.cpp - Shadows of constant memory --------===//
//
// See ShadowArenas.h.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/ShadowArenas.h"

#include "llvm/IR/Constants.h"

using namespace llvm;

namespace autodiff {

static constexpr uint64_t kArenaSize = uint64_t(1) << 30;

static GlobalVariable *ArenaGlobal(Module &m, ArenaKind kind) {
  const char *name = kind == ArenaKind::Zero ? "__autodiff_zero_arena"
                                             : "__autodiff_sink_arena";
  if (GlobalVariable *gv = m.getNamedGlobal(name))
    return gv;
  auto *ptrTy = PointerType::get(m.getContext(), 0);
  auto *gv = new GlobalVariable(m, ptrTy, false, GlobalValue::LinkOnceODRLinkage,
                                ConstantPointerNull::get(ptrTy), name);
  gv->setVisibility(GlobalValue::HiddenVisibility);
  return gv;
}

Function *ArenaShadowHelper(Module &m, ArenaKind kind) {
  const char *name = kind == ArenaKind::Zero ? "__autodiff_zero_shadow"
                                             : "__autodiff_sink_shadow";
  if (Function *f = m.getFunction(name))
    return f;
  LLVMContext &ctx = m.getContext();
  auto *ptrTy = PointerType::get(ctx, 0);
  auto *i32 = Type::getInt32Ty(ctx);
  auto *i64 = Type::getInt64Ty(ctx);
  Function *f = Function::Create(FunctionType::get(ptrTy, false),
                                 GlobalValue::LinkOnceODRLinkage, name, &m);
  f->setVisibility(GlobalValue::HiddenVisibility);
  f->addFnAttr(Attribute::NoUnwind);
  GlobalVariable *arena = ArenaGlobal(m, kind);
  FunctionCallee mmap = m.getOrInsertFunction(
      "mmap", FunctionType::get(ptrTy, {ptrTy, i64, i32, i32, i32, i64}, false));
  BasicBlock *entry = BasicBlock::Create(ctx, "entry", f);
  BasicBlock *map = BasicBlock::Create(ctx, "map", f);
  BasicBlock *done = BasicBlock::Create(ctx, "done", f);
  IRBuilder<> b(entry);
  Value *cur = b.CreateLoad(ptrTy, arena);
  b.CreateCondBr(b.CreateIsNull(cur), map, done);
  b.SetInsertPoint(map);
  // PROT_READ (| PROT_WRITE for the sink); MAP_PRIVATE | MAP_ANONYMOUS |
  // MAP_NORESERVE (Linux).
  int prot = kind == ArenaKind::Zero ? 1 : 3;
  Value *mem = b.CreateCall(mmap, {ConstantPointerNull::get(ptrTy),
                                   ConstantInt::get(i64, kArenaSize),
                                   ConstantInt::get(i32, prot),
                                   ConstantInt::get(i32, 0x4022),
                                   ConstantInt::get(i32, -1),
                                   ConstantInt::get(i64, 0)});
  Value *failed = b.CreateICmpEQ(
      mem, b.CreateIntToPtr(ConstantInt::get(i64, -1), ptrTy));
  Value *got = b.CreateSelect(failed, ConstantPointerNull::get(ptrTy), mem);
  b.CreateStore(got, arena);
  b.CreateBr(done);
  b.SetInsertPoint(done);
  PHINode *base = b.CreatePHI(ptrTy, 2);
  base->addIncoming(cur, entry);
  base->addIncoming(got, map);
  Value *mid = b.CreateGEP(b.getInt8Ty(), base,
                           ConstantInt::get(i64, kArenaSize / 2));
  b.CreateRet(b.CreateSelect(b.CreateIsNull(base),
                             ConstantPointerNull::get(ptrTy), mid));
  return f;
}

Value *InArena(IRBuilderBase &b, Value *shadow, ArenaKind kind) {
  Module &m = *b.GetInsertBlock()->getModule();
  Value *base = b.CreateLoad(b.getPtrTy(), ArenaGlobal(m, kind));
  Value *shadowAddr = b.CreatePtrToInt(shadow, b.getInt64Ty());
  Value *baseAddr = b.CreatePtrToInt(base, b.getInt64Ty());
  Value *off = b.CreateSub(shadowAddr, baseAddr);
  Value *mapped = b.CreateIsNotNull(base);
  Value *inside = b.CreateICmpULT(off, b.getInt64(kArenaSize));
  return b.CreateAnd(mapped, inside);
}

CallInst *CreateZeroedMemInfo(IRBuilderBase &b, CallBase &alloc,
                              const Twine &name) {
  SmallVector<Value *, 4> args(alloc.args());
  CallInst *s = b.CreateCall(alloc.getFunctionType(),
                             alloc.getCalledOperand(), args, name);
  s->setAttributes(alloc.getAttributes());
  // Numba 0.56's MemInfo: refct, dtor, dtor_info, data, size, external.
  const DataLayout &dl = alloc.getModule()->getDataLayout();
  Value *dataField =
      b.CreateConstGEP1_64(b.getInt8Ty(), s, 3 * dl.getPointerSize());
  b.CreateMemSet(b.CreateLoad(b.getPtrTy(), dataField), b.getInt8(0), args[0],
                 MaybeAlign());
  return s;
}

} // namespace autodiff
