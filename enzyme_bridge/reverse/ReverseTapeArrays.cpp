//===- enzyme_bridge/reverse/ReverseTapeArrays.cpp - Loop tape arrays -----===//
//
// The arrays that cache a loop's values, one per cached value, all with the
// same capacity in elements. The forward sweep reserves room with
// `reserve(capacity, need, slots...)`, which grows them geometrically
// (realloc); the end of the reverse sweep hands them to
// `release(capacity, slots...)`.
//
// Between calls the arrays of one loop tape wait in a pool (one internal
// global per loop tape of each derivative) instead of being freed: the next
// call's first reserve takes them, so a gradient called in a loop neither
// reallocates its tape nor touches fresh pages (the C library returns large
// freed blocks to the kernel, which zeroes them again on the next touch).
// The pool is taken and refilled with atomic exchanges, so concurrent calls
// are safe: a call that finds it empty allocates its own arrays, and a call
// that finds it full when giving back frees the arrays it replaces. Arrays
// larger than kMaxPooledBytes in all are freed, not kept.
//
// Each pool is a node {ptr block, ptr next, i32 listed}; the block is
// {i64 capacity, i64 count, ptr array...}. A node joins the program-wide
// list `__autodiff_tape_pools` the first time it holds arrays, and
// `void __autodiff_release_tapes(void)` (emitted with the pools, one copy
// kept by the linker) frees what every listed pool holds: a program calls
// it when it is done computing gradients and wants the memory back. Both it
// and a release that replaces a pool's block free blocks with the shared
// `__autodiff_free_tape_block`.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/RuntimeAbort.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace autodiff {

/// The arrays of a loop tape kept between calls, at most (bytes, all arrays
/// together).
static constexpr uint64_t kMaxPooledBytes = uint64_t(256) << 20;

/// {ptr block, ptr next, i32 listed}.
static StructType *PoolNodeType(LLVMContext &c) {
  auto *ptr = PointerType::getUnqual(c);
  return StructType::get(c, {ptr, ptr, Type::getInt32Ty(c)});
}

static constexpr const char *kPoolList = "__autodiff_tape_pools";
static constexpr const char *kReleaseAll = "__autodiff_release_tapes";

/// A program-wide definition that every module emitting it shares: the
/// linker keeps one (weak_odr, kept by the optimizer although nothing in
/// the module calls it, in a comdat of its own name).
template <typename T> static T *ShareAcrossModules(Module &m, T *g) {
  g->setLinkage(GlobalValue::WeakODRLinkage);
  g->setVisibility(GlobalValue::DefaultVisibility);
  if (Triple(m.getTargetTriple()).supportsCOMDAT())
    g->setComdat(m.getOrInsertComdat(g->getName()));
  return g;
}

static constexpr const char *kFreeBlock = "__autodiff_free_tape_block";

/// A shared function `void NAME(...)` of `fty`, or null when this module
/// already defines it (then nothing is to be emitted).
static Function *NewSharedFunction(Module &m, const char *name,
                                   FunctionType *fty) {
  Function *f = m.getFunction(name);
  if (f && !f->isDeclaration())
    return nullptr;
  if (!f)
    f = Function::Create(fty, GlobalValue::ExternalLinkage, name, &m);
  return ShareAcrossModules(m, f);
}

/// `void __autodiff_free_tape_block(ptr block)`: frees a pool's block,
/// {i64 capacity, i64 count, ptr array...}, and its arrays.
static FunctionCallee FreeTapeBlock(Module &m) {
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Type *i64 = Type::getInt64Ty(c);
  auto *fty = FunctionType::get(Type::getVoidTy(c), {ptr}, false);
  if (Function *f = NewSharedFunction(m, kFreeBlock, fty)) {
    FunctionCallee freeFn =
        m.getOrInsertFunction("free", Type::getVoidTy(c), ptr);
    auto *entry = BasicBlock::Create(c, "entry", f);
    auto *array = BasicBlock::Create(c, "array", f);
    auto *freed = BasicBlock::Create(c, "freed", f);
    IRBuilder<> b(entry);
    Value *block = f->getArg(0);
    Value *count = b.CreateLoad(i64, b.CreateConstGEP1_64(i64, block, 1));
    b.CreateCondBr(b.CreateICmpEQ(count, b.getInt64(0)), freed, array);
    b.SetInsertPoint(array);
    PHINode *k = b.CreatePHI(i64, 2, "k");
    k->addIncoming(b.getInt64(0), entry);
    Value *slot = b.CreateGEP(i64, block, b.CreateAdd(k, b.getInt64(2)));
    b.CreateCall(freeFn, {b.CreateLoad(ptr, slot)});
    Value *k1 = b.CreateAdd(k, b.getInt64(1));
    k->addIncoming(k1, array);
    b.CreateCondBr(b.CreateICmpULT(k1, count), array, freed);
    b.SetInsertPoint(freed);
    b.CreateCall(freeFn, {block});
    b.CreateRetVoid();
  }
  return m.getOrInsertFunction(kFreeBlock, fty);
}

/// `void __autodiff_release_tapes(void)`: frees the arrays every listed
/// pool holds.
static void DefineReleaseAll(Module &m, GlobalVariable *list) {
  LLVMContext &c = m.getContext();
  Function *f = NewSharedFunction(
      m, kReleaseAll, FunctionType::get(Type::getVoidTy(c), false));
  if (!f)
    return;
  Type *ptr = PointerType::getUnqual(c);
  FunctionCallee freeBlock = FreeTapeBlock(m);
  auto *entry = BasicBlock::Create(c, "entry", f);
  auto *node = BasicBlock::Create(c, "node", f);
  auto *held = BasicBlock::Create(c, "held", f);
  auto *next = BasicBlock::Create(c, "next", f);
  auto *done = BasicBlock::Create(c, "done", f);
  IRBuilder<> b(entry);
  LoadInst *head = b.CreateAlignedLoad(ptr, list, Align(8));
  head->setAtomic(AtomicOrdering::Acquire);
  b.CreateCondBr(b.CreateIsNull(head), done, node);
  b.SetInsertPoint(node);
  PHINode *at = b.CreatePHI(ptr, 2, "pool");
  at->addIncoming(head, entry);
  Value *block = b.CreateAtomicRMW(AtomicRMWInst::Xchg, at,
                                   ConstantPointerNull::get(b.getPtrTy()),
                                   MaybeAlign(8), AtomicOrdering::AcquireRelease);
  b.CreateCondBr(b.CreateIsNull(block), next, held);
  b.SetInsertPoint(held);
  b.CreateCall(freeBlock, {block});
  b.CreateBr(next);
  b.SetInsertPoint(next);
  Value *following = b.CreateLoad(
      ptr, b.CreateStructGEP(PoolNodeType(c), at, 1));
  at->addIncoming(following, next);
  b.CreateCondBr(b.CreateIsNull(following), done, node);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

/// The program-wide list of pools (and the function that empties them).
static GlobalVariable *PoolList(Module &m) {
  auto *ptr = PointerType::getUnqual(m.getContext());
  GlobalVariable *list = m.getGlobalVariable(kPoolList);
  if (!list)
    list = ShareAcrossModules(
        m, new GlobalVariable(m, ptr, /*isConstant=*/false,
                              GlobalValue::WeakODRLinkage,
                              ConstantPointerNull::get(ptr), kPoolList));
  DefineReleaseAll(m, list);
  return list;
}

void DefineTapeRelease(Module &m) { PoolList(m); }

void ReverseEmitter::UseLocalTapeBuffers(LoopTape &t) {
  Instruction *at = out_.getEntryBlock().getTerminator();
  IRBuilder<> b(at);
  for (auto &[slot, element] : t.caches) {
    AllocaInst *buffer = b.CreateAlloca(
        ArrayType::get(element, kLocalTapeElements), nullptr,
        slot->getName() + ".local");
    buffer->setAlignment(TapeAlign(element));
    b.CreateStore(buffer, slot);
  }
  b.CreateStore(b.getInt64(kLocalTapeElements), t.capacity);
}

GlobalVariable *ReverseEmitter::TapePool(unsigned number) {
  Module &m = *out_.getParent();
  StructType *node = PoolNodeType(m.getContext());
  return new GlobalVariable(m, node, /*isConstant=*/false,
                            GlobalValue::InternalLinkage,
                            Constant::getNullValue(node),
                            out_.getName() + ".tape.pool." + Twine(number));
}

/// An internal helper `void NAME(params...)` of the derivative's tape.
static Function *TapeHelper(Module &m, const Twine &name,
                            ArrayRef<Type *> params) {
  auto *fty = FunctionType::get(Type::getVoidTy(m.getContext()), params,
                                /*isVarArg=*/false);
  return Function::Create(fty, GlobalValue::InternalLinkage, name, &m);
}

/// Frees `arrays`, the heap arrays of a tape of `capacity` elements. A GPU
/// tape still in its local buffers (capacity `kLocalTapeElements`, which
/// growth never gives) has none: the call is branched around, not made
/// with null (a device `free` is a call every thread would make).
static void FreeHeapArrays(IRBuilder<> &b, ArrayRef<Value *> arrays,
                           Value *capacity) {
  Module &m = *b.GetInsertBlock()->getModule();
  FunctionCallee freeFn =
      m.getOrInsertFunction("free", b.getVoidTy(), b.getPtrTy());
  if (!IsGpuModule(m)) {
    for (Value *array : arrays)
      b.CreateCall(freeFn, {array});
    return;
  }
  Function *f = b.GetInsertBlock()->getParent();
  LLVMContext &c = m.getContext();
  auto *heap = BasicBlock::Create(c, "free.heap", f);
  auto *freed = BasicBlock::Create(c, "freed", f);
  b.CreateCondBr(b.CreateICmpEQ(capacity, b.getInt64(kLocalTapeElements)),
                 freed, heap);
  b.SetInsertPoint(heap);
  for (Value *array : arrays)
    b.CreateCall(freeFn, {array});
  b.CreateBr(freed);
  b.SetInsertPoint(freed);
}

/// Stops the program with a message when the tape cannot be allocated.
static void CheckAllocated(IRBuilder<> &b, Value *array, Function *f) {
  Module &m = *f->getParent();
  LLVMContext &c = m.getContext();
  auto *fail = BasicBlock::Create(c, "out.of.memory", f);
  auto *ok = BasicBlock::Create(c, "allocated", f);
  b.CreateCondBr(b.CreateIsNull(array), fail, ok);
  IRBuilder<> fb(fail);
  EmitRuntimeAbort(fb, "autodiff: out of memory for the tape of a derivative\n");
  b.SetInsertPoint(ok);
}

/// realloc(old, bytes); in GPU device code, which has malloc and free
/// but no realloc, a new array holding the old one's `old_count` elements
/// of `element_bytes`. Stops the program with a message when the memory
/// is not there (checked before the copy into it: after it, the optimizer
/// takes the copied-into pointer for non-null and drops the check).
static Value *Reallocate(IRBuilder<> &b, Value *old, Value *old_count,
                         Value *element_bytes, Value *bytes) {
  Module &m = *b.GetInsertBlock()->getModule();
  Function *f = b.GetInsertBlock()->getParent();
  Type *ptr = b.getPtrTy(), *i64 = b.getInt64Ty();
  if (!IsGpuModule(m)) {
    Value *array = b.CreateCall(
        m.getOrInsertFunction("realloc", ptr, ptr, i64), {old, bytes});
    CheckAllocated(b, array, f);
    return array;
  }
  Value *array =
      b.CreateCall(m.getOrInsertFunction("malloc", ptr, i64), {bytes});
  CheckAllocated(b, array, f);
  // Copying 0 bytes from null is allowed.
  Value *oldBytes = b.CreateMul(old_count, element_bytes);
  b.CreateMemCpy(array, MaybeAlign(), old, MaybeAlign(), oldBytes);
  FreeHeapArrays(b, {old}, old_count);
  return array;
}

/// `void reserve(ptr capacity, i64 need, ptr slot...)`: makes room for
/// `need` elements in each array; the first time in a call (capacity 0),
/// from the pool's arrays if it has some, then by geometric growth.
Function *ReverseEmitter::ReserveFunction(LoopTape &t, unsigned number,
                                          GlobalVariable *pool) {
  Module &m = *out_.getParent();
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Type *i64 = Type::getInt64Ty(c);
  unsigned n = t.caches.size();
  SmallVector<Type *, 6> params = {ptr, i64};
  params.append(n, ptr);
  Function *f =
      TapeHelper(m, out_.getName() + ".tape.reserve." + Twine(number), params);
  Value *capacity = f->getArg(0), *need = f->getArg(1);
  auto *entry = BasicBlock::Create(c, "entry", f);
  auto *first = BasicBlock::Create(c, "first", f);
  auto *grow = BasicBlock::Create(c, "grow", f);
  auto *done = BasicBlock::Create(c, "done", f);
  IRBuilder<> b(entry);
  Value *cap = b.CreateLoad(i64, capacity);
  b.CreateCondBr(b.CreateICmpULE(need, cap), done, first);
  b.SetInsertPoint(first);
  if (!pool) {
    b.CreateBr(grow);
  } else {
    auto *take = BasicBlock::Create(c, "take", f, grow);
    auto *adopt = BasicBlock::Create(c, "adopt", f, grow);
    b.CreateCondBr(b.CreateICmpEQ(cap, b.getInt64(0)), take, grow);
    // The pool's block: {i64 capacity, i64 count, ptr array...}.
    b.SetInsertPoint(take);
    Value *block = b.CreateAtomicRMW(
        AtomicRMWInst::Xchg, pool, ConstantPointerNull::get(b.getPtrTy()),
        MaybeAlign(8), AtomicOrdering::AcquireRelease);
    b.CreateCondBr(b.CreateIsNull(block), grow, adopt);
    b.SetInsertPoint(adopt);
    Value *pooled = b.CreateLoad(i64, block);
    b.CreateStore(pooled, capacity);
    for (unsigned k = 0; k < n; ++k)
      b.CreateStore(
          b.CreateLoad(ptr, b.CreateConstGEP1_64(i64, block, 2 + k)),
          f->getArg(2 + k));
    b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), ptr), {block});
    b.CreateCondBr(b.CreateICmpULE(need, pooled), done, grow);
  }

  b.SetInsertPoint(grow);
  Value *now = b.CreateLoad(i64, capacity);
  Value *doubled = b.CreateShl(now, 1);
  Value *room = b.CreateSelect(b.CreateICmpUGT(doubled, need), doubled, need);
  room = b.CreateSelect(b.CreateICmpULT(room, b.getInt64(16)), b.getInt64(16),
                        room);
  b.CreateStore(room, capacity);
  const DataLayout &dl = m.getDataLayout();
  for (unsigned k = 0; k < n; ++k) {
    Value *slot = f->getArg(2 + k);
    Value *old = b.CreateLoad(ptr, slot);
    Value *size = b.getInt64(dl.getTypeAllocSize(t.caches[k].second));
    Value *bytes = b.CreateMul(room, size);
    Value *array = Reallocate(b, old, now, size, bytes);
    b.CreateStore(array, slot);
  }
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return f;
}

/// The release helper's path that gives the arrays to `pool` (the caller
/// adds `drop`, which frees them, and `done`): arrays too large to keep,
/// or a failed allocation of the pool's block, go to `drop`.
static void GiveToPool(IRBuilder<> &b, LoopTape &t, GlobalVariable *pool,
                       BasicBlock *drop, BasicBlock *done) {
  Function *f = b.GetInsertBlock()->getParent();
  Module &m = *f->getParent();
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Type *i64 = Type::getInt64Ty(c);
  unsigned n = t.caches.size();
  FunctionCallee mallocFn = m.getOrInsertFunction("malloc", ptr, i64);
  const DataLayout &dl = m.getDataLayout();
  uint64_t elementBytes = 0;
  for (auto &cache : t.caches)
    elementBytes += dl.getTypeAllocSize(cache.second);
  auto *keep = BasicBlock::Create(c, "keep", f, drop);
  auto *replaced = BasicBlock::Create(c, "replaced", f, drop);
  Value *cap = b.CreateLoad(i64, f->getArg(0));
  Value *small = b.CreateICmpULE(
      cap, b.getInt64(kMaxPooledBytes / std::max<uint64_t>(elementBytes, 1)));
  b.CreateCondBr(b.CreateAnd(b.CreateICmpNE(cap, b.getInt64(0)), small), keep,
                 drop);
  b.SetInsertPoint(keep);
  Value *block = b.CreateCall(mallocFn, {b.getInt64(8 * (2 + n))});
  b.CreateCondBr(b.CreateIsNull(block), drop, replaced);
  b.SetInsertPoint(replaced);
  b.CreateStore(cap, block);
  b.CreateStore(b.getInt64(n), b.CreateConstGEP1_64(i64, block, 1));
  for (unsigned k = 0; k < n; ++k) {
    // Named before use: the IR must not depend on the order in which the
    // C++ compiler evaluates arguments.
    Value *array = b.CreateLoad(ptr, f->getArg(1 + k));
    Value *at = b.CreateConstGEP1_64(i64, block, 2 + k);
    b.CreateStore(array, at);
  }
  Value *old = b.CreateAtomicRMW(AtomicRMWInst::Xchg, pool, block,
                                 MaybeAlign(8), AtomicOrdering::AcquireRelease);
  // The first time the pool holds arrays, it joins the list.
  StructType *node = PoolNodeType(c);
  auto *join = BasicBlock::Create(c, "join", f);
  auto *push = BasicBlock::Create(c, "push", f);
  auto *given = BasicBlock::Create(c, "given", f);
  auto *freeOld = BasicBlock::Create(c, "free.old", f);
  Value *listed = b.CreateAtomicCmpXchg(
      b.CreateStructGEP(node, pool, 2), b.getInt32(0), b.getInt32(1),
      MaybeAlign(4), AtomicOrdering::AcquireRelease, AtomicOrdering::Acquire);
  b.CreateCondBr(b.CreateExtractValue(listed, 1), join, given);
  b.SetInsertPoint(join);
  GlobalVariable *list = PoolList(m);
  b.CreateBr(push);
  b.SetInsertPoint(push);
  LoadInst *head = b.CreateAlignedLoad(ptr, list, Align(8));
  head->setAtomic(AtomicOrdering::Acquire);
  b.CreateStore(head, b.CreateStructGEP(node, pool, 1));
  Value *swapped = b.CreateAtomicCmpXchg(list, head, pool, MaybeAlign(8),
                                         AtomicOrdering::AcquireRelease,
                                         AtomicOrdering::Acquire);
  b.CreateCondBr(b.CreateExtractValue(swapped, 1), given, push);
  b.SetInsertPoint(given);
  b.CreateCondBr(b.CreateIsNull(old), done, freeOld);
  b.SetInsertPoint(freeOld);
  b.CreateCall(FreeTapeBlock(m), {old});
  b.CreateBr(done);
}

/// `void release(ptr capacity, ptr slot...)`: gives the arrays to the pool
/// (freeing what it held) or, when they are too large to keep, frees them.
Function *ReverseEmitter::ReleaseFunction(LoopTape &t, unsigned number,
                                          GlobalVariable *pool) {
  Module &m = *out_.getParent();
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Type *i64 = Type::getInt64Ty(c);
  unsigned n = t.caches.size();
  SmallVector<Type *, 6> params = {ptr};
  params.append(n, ptr);
  Function *f =
      TapeHelper(m, out_.getName() + ".tape.release." + Twine(number), params);
  auto *entry = BasicBlock::Create(c, "entry", f);
  auto *drop = BasicBlock::Create(c, "drop", f);
  auto *done = BasicBlock::Create(c, "done", f);
  IRBuilder<> b(entry);
  if (pool)
    GiveToPool(b, t, pool, drop, done);
  else
    b.CreateBr(drop); // A derivative another request differentiates.
  b.SetInsertPoint(drop);
  SmallVector<Value *, 6> arrays;
  for (unsigned k = 0; k < n; ++k)
    arrays.push_back(b.CreateLoad(ptr, f->getArg(1 + k)));
  FreeHeapArrays(b, arrays, b.CreateLoad(i64, f->getArg(0)));
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return f;
}

} // namespace autodiff
