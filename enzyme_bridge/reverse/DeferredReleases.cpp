//===- enzyme_bridge/reverse/DeferredReleases.cpp - Outermost releases ----===//
//
// A callee kept as a call (noinline, recursive) may free memory that an
// enclosing derivative allocated (a destructor function `vec_free(v)`, a
// `release(p)`, a recursive `free_tree(t)`). The primal memory is freed by
// the callee's augmented forward sweep, as the program says; the shadow
// must outlive the enclosing reverse sweeps, which run on after the
// callee's reverse sweep is done and may still add into it. So the
// callee's reverse sweep puts the shadow on a per-thread list:
//  - `__autodiff_deferred_releases`: a thread-local growable list of
//    entries of five words: a release function, the shadow, up to two
//    more arguments of the release (an alignment, Rust's size and align),
//    and whether the outermost derivative releases it when unclaimed;
//  - claims: where a reverse sweep reaches a heap allocation (after every
//    use of its memory, in every derivative), the entries of its shadow
//    leave the list, and the shadow is released there (or by the
//    allocation's own release, for a shadow released there anyway);
//  - `__autodiff_derivatives_running`: a thread-local count. Every
//    derivative adds one where it starts (in split mode, the augmented
//    sweep) and takes one away where its reverse sweep ends; the one that
//    brings it back to zero releases the unclaimed entries marked so and
//    empties the list. A derivative nested in another's sweeps (a custom
//    rule that calls __enzyme_autodiff) leaves the list to the outer one.
// A pointer the callee read from its caller's memory (a struct's buffer)
// is released at the end when unclaimed, as the outermost derivative
// releases what its own frees of such memory free; one it got as an
// argument is released only by a claim: unclaimed, it is the user's
// buffer (freed by the function), whose shadow stays the user's.
// The calls are made in every derivative and removed at the end when no
// derivative of the module deferred a release (FinishDeferredReleases), so
// code that needs none pays nothing. GPU code (no thread-local storage)
// defers nothing: there such a shadow is not released. A user's augmented
// forward sweep run without its reverse sweep leaves the count raised in
// that thread: the deferred shadows are then not released (a leak, never
// a use after free).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/DeferredReleases.h"
#include "enzyme_bridge/ShadowArenas.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace autodiff {

static constexpr const char *kListName = "__autodiff_deferred_releases";
static constexpr const char *kCountName = "__autodiff_derivatives_running";
static constexpr const char *kEnterName = "__autodiff_enter_derivative";
static constexpr const char *kLeaveName = "__autodiff_leave_derivative";
static constexpr const char *kClaimName = "__autodiff_claim_deferred";
/// Words per entry: release function, shadow, two more arguments, and
/// whether the outermost derivative releases it if no allocation claims it.
static constexpr unsigned kEntryWords = 5;

Function *RecordReleaseHelper(Module &m) {
  const char *name = "__autodiff_record_release";
  if (Function *f = m.getFunction(name))
    return f;
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c), *i64 = Type::getInt64Ty(c);
  auto *f = Function::Create(
      FunctionType::get(Type::getVoidTy(c), {ptr, ptr, i64}, false),
      GlobalValue::InternalLinkage, name, &m);
  Value *list = f->getArg(0), *words = f->getArg(1), *n = f->getArg(2);
  auto *entry = BasicBlock::Create(c, "entry", f);
  auto *grow = BasicBlock::Create(c, "grow", f);
  auto *append = BasicBlock::Create(c, "append", f);
  IRBuilder<> b(entry);
  auto *listTy = StructType::get(c, {ptr, i64, i64});
  Value *lenAt = b.CreateStructGEP(listTy, list, 1);
  Value *capAt = b.CreateStructGEP(listTy, list, 2);
  Value *len = b.CreateLoad(i64, lenAt);
  Value *cap = b.CreateLoad(i64, capAt);
  Value *need = b.CreateAdd(len, n);
  b.CreateCondBr(b.CreateICmpUGT(need, cap), grow, append);
  b.SetInsertPoint(grow);
  Value *twice = b.CreateShl(cap, 1);
  Value *atLeast = b.CreateSelect(b.CreateICmpUGT(need, twice), need, twice);
  Value *newCap =
      b.CreateSelect(b.CreateICmpULT(atLeast, b.getInt64(16)), b.getInt64(16),
                     atLeast);
  Value *bytes = b.CreateMul(newCap, b.getInt64(8));
  Value *old = b.CreateLoad(ptr, list);
  Value *data = b.CreateCall(
      m.getOrInsertFunction("realloc", ptr, ptr, i64), {old, bytes});
  b.CreateStore(data, list);
  b.CreateStore(newCap, capAt);
  b.CreateBr(append);
  b.SetInsertPoint(append);
  Value *base = b.CreateLoad(ptr, list);
  Value *at = b.CreateGEP(i64, base, len);
  b.CreateMemCpy(at, MaybeAlign(8), words, MaybeAlign(8),
                 b.CreateMul(n, b.getInt64(8)));
  b.CreateStore(need, lenAt);
  b.CreateRetVoid();
  return f;
}

static StructType *ListType(LLVMContext &c) {
  Type *i64 = Type::getInt64Ty(c);
  return StructType::get(c, {PointerType::getUnqual(c), i64, i64});
}

/// A thread-local internal global of `type`, zero at first.
static GlobalVariable *ThreadGlobal(Module &m, const char *name, Type *type) {
  if (GlobalVariable *g = m.getNamedGlobal(name))
    return g;
  auto *g = new GlobalVariable(m, type, false, GlobalValue::InternalLinkage,
                               Constant::getNullValue(type), name);
  g->setThreadLocal(true);
  return g;
}

/// `void thunk(ptr words)`: calls `release` with the shadow in words[0]
/// and the kept arguments of `site` in words[1..].
static Function *ReleaseThunk(Module &m, CallBase &site,
                              FunctionCallee release, ArrayRef<unsigned> kept) {
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c), *i64 = Type::getInt64Ty(c);
  auto *f = Function::Create(
      FunctionType::get(Type::getVoidTy(c), {ptr}, false),
      GlobalValue::InternalLinkage, "__autodiff_release_deferred", &m);
  IRBuilder<> b(BasicBlock::Create(c, "entry", f));
  SmallVector<Value *, 3> args = {
      b.CreateIntToPtr(b.CreateLoad(i64, f->getArg(0)), ptr)};
  for (unsigned k = 0; k < kept.size(); ++k) {
    Value *w = b.CreateLoad(i64, b.CreateConstGEP1_64(i64, f->getArg(0), k + 1));
    Type *t = site.getArgOperand(kept[k])->getType();
    args.push_back(t->isPointerTy() ? b.CreateIntToPtr(w, t)
                                    : b.CreateZExtOrTrunc(w, t));
  }
  ReleaseUnlessArena(b, release, args);
  b.CreateRetVoid();
  return f;
}

void ReleaseUnlessArena(IRBuilder<> &b, FunctionCallee release,
                        ArrayRef<Value *> args) {
  Function *f = b.GetInsertBlock()->getParent();
  LLVMContext &c = f->getContext();
  // (One statement each: the order of the instructions must not depend
  // on the compiler that built the tool.)
  Value *inSink = InArena(b, args[0], ArenaKind::Sink);
  Value *inZero = InArena(b, args[0], ArenaKind::Zero);
  Value *arena = b.CreateOr(inSink, inZero);
  auto *call = BasicBlock::Create(c, "release", f);
  auto *after = BasicBlock::Create(c, "released", f);
  b.CreateCondBr(arena, after, call);
  b.SetInsertPoint(call);
  b.CreateCall(release, args);
  b.CreateBr(after);
  b.SetInsertPoint(after);
}

bool DeferRelease(IRBuilder<> &b, Function &out, CallBase &site,
                  FunctionCallee release, ArrayRef<unsigned> kept,
                  ArrayRef<Value *> words, bool release_at_end) {
  Module &m = *out.getParent();
  // GPU code has no thread-local storage: the shadow is not released.
  const Triple &target = m.getTargetTriple();
  if (words.size() > kEntryWords - 2 || target.isNVPTX() ||
      target.isAMDGPU() || target.isSPIRV())
    return false;
  LLVMContext &c = m.getContext();
  Type *i64 = Type::getInt64Ty(c);
  GlobalVariable *list = ThreadGlobal(m, kListName, ListType(c));
  Function *thunk = ReleaseThunk(m, site, release, kept);
  IRBuilder<> eb(&*out.getEntryBlock().getFirstInsertionPt());
  auto *entryTy = ArrayType::get(i64, kEntryWords);
  AllocaInst *buf = eb.CreateAlloca(entryTy, nullptr, "deferred.release");
  SmallVector<Value *, kEntryWords> all = {b.CreatePtrToInt(thunk, i64)};
  all.append(words.begin(), words.end());
  all.resize(kEntryWords - 1, b.getInt64(0));
  all.push_back(b.getInt64(release_at_end));
  for (unsigned k = 0; k < kEntryWords; ++k)
    b.CreateStore(all[k], b.CreateConstGEP2_64(entryTy, buf, 0, k));
  Value *at = b.CreateThreadLocalAddress(list);
  b.CreateCall(RecordReleaseHelper(m), {at, buf, b.getInt64(kEntryWords)});
  return true;
}

/// A declaration of `void name()`, inactive for a derivative made of the
/// derivative (higher order).
static FunctionCallee Marker(Module &m, const char *name) {
  FunctionCallee f =
      m.getOrInsertFunction(name, Type::getVoidTy(m.getContext()));
  auto *fn = cast<Function>(f.getCallee());
  fn->addFnAttr(Attribute::NoUnwind);
  fn->addFnAttr("enzyme_inactive");
  return f;
}

void EmitClaimDeferred(IRBuilder<> &b, Value *shadow, bool release) {
  Module &m = *b.GetInsertBlock()->getModule();
  LLVMContext &c = m.getContext();
  FunctionCallee f = m.getOrInsertFunction(
      kClaimName, Type::getVoidTy(c), PointerType::getUnqual(c),
      Type::getInt1Ty(c));
  auto *fn = cast<Function>(f.getCallee());
  fn->addFnAttr(Attribute::NoUnwind);
  fn->addFnAttr("enzyme_inactive");
  b.CreateCall(f, {shadow, b.getInt1(release)});
}

void EmitEnterDerivative(IRBuilder<> &b) {
  b.CreateCall(Marker(*b.GetInsertBlock()->getModule(), kEnterName));
}

void EmitLeaveDerivative(IRBuilder<> &b) {
  b.CreateCall(Marker(*b.GetInsertBlock()->getModule(), kLeaveName));
}

/// `__autodiff_enter_derivative`: count += 1.
static void DefineEnter(Function &f, GlobalVariable &count) {
  IRBuilder<> b(BasicBlock::Create(f.getContext(), "entry", &f));
  Value *at = b.CreateThreadLocalAddress(&count);
  b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt64Ty(), at), b.getInt64(1)),
                at);
  b.CreateRetVoid();
}

/// The list's data and length (in that order in the IR).
static std::pair<Value *, Value *> ListContents(IRBuilder<> &b,
                                               Value *listAt) {
  Value *data = b.CreateLoad(b.getPtrTy(), listAt);
  Value *len = b.CreateLoad(
      b.getInt64Ty(),
      b.CreateStructGEP(ListType(b.getContext()), listAt, 1));
  return {data, len};
}

/// Calls the release function of the entry at `words` with its shadow
/// and arguments.
static void CallEntry(IRBuilder<> &b, Value *words) {
  Type *ptr = b.getPtrTy(), *i64 = b.getInt64Ty();
  Value *thunk = b.CreateIntToPtr(b.CreateLoad(i64, words), ptr);
  b.CreateCall(FunctionType::get(b.getVoidTy(), {ptr}, false), thunk,
               {b.CreateConstGEP1_64(i64, words, 1)});
}

/// `__autodiff_claim_deferred(shadow, release)`: the entries of `shadow`
/// leave the list; with `release`, the first one's release runs.
static void DefineClaim(Function &f, GlobalVariable &list) {
  LLVMContext &c = f.getContext();
  auto *entry = BasicBlock::Create(c, "entry", &f);
  auto *loop = BasicBlock::Create(c, "loop", &f);
  auto *found = BasicBlock::Create(c, "found", &f);
  auto *call = BasicBlock::Create(c, "release", &f);
  auto *next = BasicBlock::Create(c, "next", &f);
  auto *done = BasicBlock::Create(c, "done", &f);
  IRBuilder<> b(entry);
  Type *i64 = b.getInt64Ty();
  Value *listAt = b.CreateThreadLocalAddress(&list);
  auto [data, len] = ListContents(b, listAt);
  Value *want = b.CreatePtrToInt(f.getArg(0), i64);
  b.CreateCondBr(b.CreateICmpEQ(len, b.getInt64(0)), done, loop);
  b.SetInsertPoint(loop);
  PHINode *i = b.CreatePHI(i64, 2);
  i->addIncoming(b.getInt64(0), entry);
  PHINode *release = b.CreatePHI(b.getInt1Ty(), 2);
  release->addIncoming(f.getArg(1), entry);
  Value *words = b.CreateGEP(i64, data, i);
  Value *shadowAt = b.CreateConstGEP1_64(i64, words, 1);
  Value *mine = b.CreateICmpEQ(b.CreateLoad(i64, shadowAt), want);
  b.CreateCondBr(b.CreateAnd(mine, b.CreateICmpNE(want, b.getInt64(0))),
                 found, next);
  b.SetInsertPoint(found);
  b.CreateCondBr(release, call, next);
  b.SetInsertPoint(call);
  CallEntry(b, words);
  b.CreateBr(next);
  b.SetInsertPoint(next);
  // The entry is spent (released here, or released by the allocation's
  // own release): zero marks it.
  PHINode *still = b.CreatePHI(b.getInt1Ty(), 3);
  still->addIncoming(release, loop);
  still->addIncoming(b.getFalse(), found);
  still->addIncoming(b.getFalse(), call);
  PHINode *matched = b.CreatePHI(b.getInt1Ty(), 3);
  matched->addIncoming(b.getFalse(), loop);
  matched->addIncoming(b.getTrue(), found);
  matched->addIncoming(b.getTrue(), call);
  Value *old = b.CreateLoad(i64, shadowAt);
  b.CreateStore(b.CreateSelect(matched, b.getInt64(0), old), shadowAt);
  Value *after = b.CreateAdd(i, b.getInt64(kEntryWords));
  i->addIncoming(after, next);
  release->addIncoming(still, next);
  b.CreateCondBr(b.CreateICmpULT(after, len), loop, done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

/// `__autodiff_leave_derivative`: count -= 1; at zero, each entry of the
/// list is released and the list emptied.
static void DefineLeave(Function &f, GlobalVariable &count,
                        GlobalVariable &list) {
  LLVMContext &c = f.getContext();
  Module &m = *f.getParent();
  Type *ptr = PointerType::getUnqual(c);
  auto *entry = BasicBlock::Create(c, "entry", &f);
  auto *drain = BasicBlock::Create(c, "drain", &f);
  auto *loop = BasicBlock::Create(c, "loop", &f);
  auto *empty = BasicBlock::Create(c, "empty", &f);
  auto *done = BasicBlock::Create(c, "done", &f);
  IRBuilder<> b(entry);
  Type *i64 = b.getInt64Ty();
  Value *countAt = b.CreateThreadLocalAddress(&count);
  Value *left = b.CreateSub(b.CreateLoad(i64, countAt), b.getInt64(1));
  b.CreateStore(left, countAt);
  b.CreateCondBr(b.CreateICmpEQ(left, b.getInt64(0)), drain, done);
  b.SetInsertPoint(drain);
  StructType *listTy = ListType(c);
  Value *listAt = b.CreateThreadLocalAddress(&list);
  auto [data, len] = ListContents(b, listAt);
  b.CreateCondBr(b.CreateICmpEQ(len, b.getInt64(0)), empty, loop);
  b.SetInsertPoint(loop);
  PHINode *i = b.CreatePHI(i64, 2);
  i->addIncoming(b.getInt64(0), drain);
  Value *words = b.CreateGEP(i64, data, i);
  Value *shadow = b.CreateLoad(i64, b.CreateConstGEP1_64(i64, words, 1));
  Value *atEnd =
      b.CreateLoad(i64, b.CreateConstGEP1_64(i64, words, kEntryWords - 1));
  auto *call = BasicBlock::Create(c, "release", &f);
  auto *next = BasicBlock::Create(c, "next", &f);
  Value *live = b.CreateICmpNE(shadow, b.getInt64(0));
  Value *flagged = b.CreateICmpNE(atEnd, b.getInt64(0));
  b.CreateCondBr(b.CreateAnd(live, flagged), call, next);
  b.SetInsertPoint(call);
  CallEntry(b, words);
  b.CreateBr(next);
  b.SetInsertPoint(next);
  Value *after = b.CreateAdd(i, b.getInt64(kEntryWords));
  i->addIncoming(after, next);
  b.CreateCondBr(b.CreateICmpULT(after, len), loop, empty);
  b.SetInsertPoint(empty);
  b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), ptr), {data});
  b.CreateStore(Constant::getNullValue(listTy), listAt);
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

void FinishDeferredReleases(Module &m) {
  Function *enter = m.getFunction(kEnterName);
  Function *leave = m.getFunction(kLeaveName);
  Function *claim = m.getFunction(kClaimName);
  GlobalVariable *list = m.getNamedGlobal(kListName);
  if (!list) {
    for (Function *f : {enter, leave, claim}) {
      if (!f || !f->isDeclaration())
        continue;
      SmallVector<User *, 8> users(f->users());
      for (User *u : users)
        if (auto *call = dyn_cast<CallInst>(u))
          call->eraseFromParent();
      if (f->use_empty())
        f->eraseFromParent();
    }
    return;
  }
  GlobalVariable *count =
      ThreadGlobal(m, kCountName, Type::getInt64Ty(m.getContext()));
  if (enter && enter->isDeclaration()) {
    DefineEnter(*enter, *count);
    enter->setLinkage(GlobalValue::InternalLinkage);
  }
  if (leave && leave->isDeclaration()) {
    DefineLeave(*leave, *count, *list);
    leave->setLinkage(GlobalValue::InternalLinkage);
  }
  if (claim && claim->isDeclaration()) {
    DefineClaim(*claim, *list);
    claim->setLinkage(GlobalValue::InternalLinkage);
  }
}

} // namespace autodiff
