//===- enzyme_bridge/reverse/ReverseSplit.cpp - Split derivatives ---------===//
//
// A split reverse derivative is a pair: the augmented forward sweep, which
// runs the primal (its side effects happen there, once), records what the
// reverse sweep will need and returns it as a tape; and the reverse sweep,
// called later with the same arguments, the seed of the return and the
// tape, which it consumes and frees.
//
// Both halves come from one combined derivative emitted by the same
// ReverseEmitter (in split mode), cut where its forward sweep ends: the
// branches from the primal's returns to the reverse blocks. Everything the
// reverse half uses of the forward half moves into one heap block, the
// tape:
//  - the stack slots both halves use (caches outside loops, loop counters,
//    the slots holding tape arrays, primal stack memory the reverse sweep
//    reads or whose shadow it updates) become fields of the block, so their
//    contents survive the return of the augmented sweep;
//  - SSA values of the forward half that the reverse half uses are stored
//    into fields at each return the value dominates, and loaded back at the
//    start of the reverse half;
//  - with several returns, the index of the one taken, so the reverse half
//    starts at the right reverse block.
// Slots only the reverse half uses (adjoint accumulators), which the
// forward half only initialises with constants, move to the reverse half.
// A function that needs none of this gets a null tape. With a buffer the
// caller provides (`enzyme_allocated, SIZE, enzyme_tape, buf`), the block
// is that buffer, from its first address aligned for the block (the size
// asked for, TapeBytes, has room for the alignment), and neither half
// allocates or frees it.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/reverse/ReverseMode.h"
#include "support/StatusMacros.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <memory>

using namespace llvm;

namespace autodiff {
namespace {

/// One field of the tape: a stack slot moved into it, or an SSA value.
struct TapeField {
  Value *value = nullptr; ///< The slot (AllocaInst) or the value.
  uint64_t offset = 0;
  bool slot = false;
};

/// The cut of a combined derivative into its two halves.
class Splitter {
public:
  Splitter(Function &combined, ArrayRef<SplitPoint> points)
      : c_(combined), points_(points), dl_(combined.getDataLayout()) {}

  absl::Status Analyze();
  void FillAugmented(Function &aug, bool in_buffer);
  void FillReverse(Function &rev, bool in_buffer);
  /// The bytes a caller-provided buffer needs (the block, and room to
  /// align it).
  uint64_t BufferBytes() const {
    return size_ == 0 ? 0 : size_ + align_.value() - 1;
  }

private:
  bool InReverse(const BasicBlock *bb) const { return !forward_.count(bb); }
  /// Whether `a`'s only uses in the forward half are stores of constants
  /// into it in the entry block (initialisation of a reverse-only slot).
  bool OnlyInitialisedForward(AllocaInst &a) const;
  void AddField(Value *v, Type *t, Align align, bool slot);
  Value *FieldAddress(IRBuilder<> &b, Value *tape, const TapeField &f);
  /// The block's address in caller-provided buffer `buf`.
  Value *AlignedBlock(IRBuilder<> &b, Value *buf);

  Function &c_;
  ArrayRef<SplitPoint> points_;
  const DataLayout &dl_;
  SmallPtrSet<const BasicBlock *, 32> forward_;
  SmallVector<BasicBlock *, 32> reverse_blocks_;
  SmallVector<TapeField, 16> fields_;
  SmallSetVector<AllocaInst *, 8> moved_slots_;
  std::optional<TapeField> index_;
  uint64_t size_ = 0;
  Align align_ = Align(1);
};

bool Splitter::OnlyInitialisedForward(AllocaInst &a) const {
  for (User *u : a.users()) {
    auto *i = cast<Instruction>(u);
    if (InReverse(i->getParent()))
      continue;
    auto *st = dyn_cast<StoreInst>(i);
    if (!st || st->getPointerOperand() != &a ||
        !isa<Constant>(st->getValueOperand()) ||
        st->getParent() != &c_.getEntryBlock())
      return false;
  }
  return true;
}

void Splitter::AddField(Value *v, Type *t, Align align, bool slot) {
  TapeField f;
  f.value = v;
  f.slot = slot;
  f.offset = alignTo(size_, align);
  size_ = f.offset + dl_.getTypeAllocSize(t);
  align_ = std::max(align_, align);
  if (v)
    fields_.push_back(f);
  else
    index_ = f;
}

/// Whether a pointer derived from `a` is one of `live` or leaves the
/// function's view (stored as a value, passed to a call, made an integer).
static bool AddressEscapes(AllocaInst &a, const SetVector<Instruction *> &live) {
  SmallPtrSet<Value *, 16> seen = {&a};
  SmallVector<Value *, 16> work = {&a};
  while (!work.empty()) {
    Value *p = work.pop_back_val();
    for (User *u : p->users()) {
      auto *i = cast<Instruction>(u);
      if (auto *ld = dyn_cast<LoadInst>(i)) {
        if (ld->getPointerOperand() != p)
          return true;
        continue;
      }
      if (auto *st = dyn_cast<StoreInst>(i)) {
        if (st->getValueOperand() == p)
          return true;
        continue;
      }
      if (isa<MemIntrinsic>(i))
        continue;
      if (isa<GetElementPtrInst>(i) || isa<BitCastInst>(i) ||
          isa<AddrSpaceCastInst>(i) || isa<PHINode>(i) ||
          isa<SelectInst>(i)) {
        if (live.count(i))
          return true;
        if (seen.insert(i).second)
          work.push_back(i);
        continue;
      }
      return true;
    }
  }
  return false;
}

absl::Status Splitter::Analyze() {
  SmallPtrSet<const Instruction *, 4> cuts;
  for (const SplitPoint &p : points_)
    cuts.insert(p.branch);
  SmallVector<BasicBlock *, 32> work = {&c_.getEntryBlock()};
  while (!work.empty()) {
    BasicBlock *bb = work.pop_back_val();
    if (!forward_.insert(bb).second || cuts.count(bb->getTerminator()))
      continue;
    for (BasicBlock *succ : successors(bb))
      work.push_back(succ);
  }
  SetVector<Instruction *> live;
  SetVector<AllocaInst *> slots;
  for (BasicBlock &bb : c_) {
    if (!InReverse(&bb))
      continue;
    reverse_blocks_.push_back(&bb);
    for (BasicBlock *succ : successors(&bb))
      if (!InReverse(succ))
        return ErrorAt(absl::StatusCode::kInternal, *bb.getTerminator(),
                       "internal error: the reverse sweep branches back "
                       "into the forward sweep");
    for (Instruction &i : bb)
      for (Value *op : i.operands()) {
        auto *oi = dyn_cast<Instruction>(op);
        if (!oi || InReverse(oi->getParent()))
          continue;
        if (auto *a = dyn_cast<AllocaInst>(oi))
          slots.insert(a);
        else
          live.insert(oi);
      }
  }
  for (const SplitPoint &p : points_)
    if (isa<PHINode>(p.branch->getSuccessor(0)->front()))
      return ErrorAt(absl::StatusCode::kInternal, *p.branch,
                     "internal error: the reverse sweep starts at a phi");
  // Stack slots of the forward half whose address reaches the reverse half
  // through values (a slot's element pointer, say) or escapes into memory
  // or calls: their memory must outlive the augmented sweep too.
  for (Instruction &i : c_.getEntryBlock())
    if (auto *a = dyn_cast<AllocaInst>(&i); a && !slots.count(a))
      if (AddressEscapes(*a, live))
        slots.insert(a);
  if (points_.size() > 1)
    AddField(nullptr, Type::getInt32Ty(c_.getContext()), Align(4), false);
  for (AllocaInst *a : slots) {
    if (a->getParent() != &c_.getEntryBlock() || !a->isStaticAlloca())
      return ErrorAt(absl::StatusCode::kUnimplemented, *a,
                     "a split reverse derivative does not yet support a "
                     "stack allocation of variable size whose memory the "
                     "reverse sweep uses");
    if (InReverse(a->getParent()))
      continue;
    if (OnlyInitialisedForward(*a)) {
      moved_slots_.insert(a);
      continue;
    }
    std::optional<TypeSize> bytes = a->getAllocationSize(dl_);
    Type *t = ArrayType::get(Type::getInt8Ty(c_.getContext()),
                             bytes ? bytes->getFixedValue() : 0);
    AddField(a, t, std::max(a->getAlign(), Align(1)), true);
  }
  for (Instruction *i : live)
    AddField(i, i->getType(), dl_.getABITypeAlign(i->getType()), false);
  size_ = alignTo(size_, align_);
  return absl::OkStatus();
}

Value *Splitter::FieldAddress(IRBuilder<> &b, Value *tape,
                              const TapeField &f) {
  return b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), tape, f.offset);
}

/// A returned value or shadow in the augmented half: a value of the
/// forward half or an argument (mapped), or a constant (itself).
static Value *Mapped(ValueToValueMapTy &vm, Value *v) {
  if (isa<Constant>(v))
    return v;
  return vm[v];
}

/// The halves return other types than the combined derivative; an `sret`
/// parameter (a recursive function returning a struct through memory) is
/// an ordinary pointer for them, since they return their tape.
static void DropReturnAttributes(Function &f) {
  AttributeList al = f.getAttributes();
  SmallVector<AttributeSet, 8> params;
  for (unsigned k = 0; k < f.arg_size(); ++k)
    params.push_back(
        al.getParamAttrs(k).removeAttribute(f.getContext(), Attribute::StructRet));
  f.setAttributes(AttributeList::get(f.getContext(), al.getFnAttrs(),
                                     AttributeSet(), params));
}

/// The augmented forward sweep: the combined derivative's forward half,
/// whose returns store the live values into the tape and return it.
Value *Splitter::AlignedBlock(IRBuilder<> &b, Value *buf) {
  if (align_ == Align(1))
    return buf;
  Value *at = b.CreatePtrToInt(buf, b.getInt64Ty());
  Value *mask = b.getInt64(align_.value() - 1);
  Value *skip = b.CreateAnd(b.CreateSub(b.getInt64(0), at), mask);
  return b.CreateGEP(b.getInt8Ty(), buf, skip, "tape");
}

void Splitter::FillAugmented(Function &aug, bool in_buffer) {
  ValueToValueMapTy vm;
  for (unsigned k = 0; k < c_.arg_size() && k < aug.arg_size(); ++k)
    aug.getArg(k)->setName(c_.getArg(k)->getName());
  for (unsigned k = 0; k < c_.arg_size(); ++k)
    vm[c_.getArg(k)] = k < aug.arg_size()
                           ? static_cast<Value *>(aug.getArg(k))
                           : PoisonValue::get(c_.getArg(k)->getType());
  SmallVector<ReturnInst *, 4> returns;
  CloneFunctionInto(&aug, &c_, vm, CloneFunctionChangeType::LocalChangesOnly,
                    returns);
  DropReturnAttributes(aug);
  Module &m = *aug.getParent();
  IRBuilder<> b(&*aug.getEntryBlock().getFirstInsertionPt());
  Type *ptr = b.getPtrTy(), *i64 = b.getInt64Ty();
  Value *tape = ConstantPointerNull::get(b.getPtrTy());
  if (in_buffer) {
    Argument *buf = aug.getArg(aug.arg_size() - 1);
    buf->setName("tape.buffer");
    if (size_ > 0)
      tape = AlignedBlock(b, buf);
  } else if (size_ > 0) {
    if (align_ > Align(16))
      tape = b.CreateCall(
          m.getOrInsertFunction("aligned_alloc", ptr, i64, i64),
          {b.getInt64(align_.value()), b.getInt64(size_)}, "tape");
    else
      tape = b.CreateCall(m.getOrInsertFunction("malloc", ptr, i64),
                          {b.getInt64(size_)}, "tape");
  }
  SmallVector<AllocaInst *, 8> replaced;
  for (const TapeField &f : fields_)
    if (f.slot) {
      auto *a = cast<AllocaInst>(vm[f.value]);
      a->replaceAllUsesWith(FieldAddress(b, tape, f));
      replaced.push_back(a); // Erased after: `b` may point at one.
    }
  for (AllocaInst *a : replaced)
    a->eraseFromParent();
  DominatorTree dt(c_);
  for (unsigned k = 0; k < points_.size(); ++k) {
    const SplitPoint &p = points_[k];
    auto *br = cast<BranchInst>(vm[p.branch]);
    IRBuilder<> rb(br);
    if (index_)
      rb.CreateStore(rb.getInt32(k), FieldAddress(rb, tape, *index_));
    for (const TapeField &f : fields_)
      if (!f.slot && dt.dominates(cast<Instruction>(f.value), p.branch))
        rb.CreateAlignedStore(Mapped(vm, f.value), FieldAddress(rb, tape, f),
                              dl_.getABITypeAlign(f.value->getType()));
    Type *rt = aug.getReturnType();
    if (rt->isPointerTy()) {
      rb.CreateRet(tape);
    } else {
      Value *result = p.result ? Mapped(vm, p.result) : PoisonValue::get(
                                                    rt->getStructElementType(1));
      Value *agg = rb.CreateInsertValue(PoisonValue::get(rt), tape, {0});
      agg = rb.CreateInsertValue(agg, result, {1});
      if (rt->getStructNumElements() == 3)
        agg = rb.CreateInsertValue(agg, p.shadow ? Mapped(vm, p.shadow)
                                                 : PoisonValue::get(
                                                       rt->getStructElementType(2)),
                                   {2});
      rb.CreateRet(agg);
    }
    br->eraseFromParent();
  }
  removeUnreachableBlocks(aug);
  // Slots only the reverse half reads are left with their initial stores.
  for (AllocaInst *a : moved_slots_) {
    auto *clone = cast<AllocaInst>(vm[a]);
    SmallVector<Instruction *, 2> users;
    for (User *u : clone->users())
      users.push_back(cast<Instruction>(u));
    for (Instruction *u : users)
      u->eraseFromParent();
    clone->eraseFromParent();
  }
}

/// The reverse sweep: a new entry block loads the tape, the combined
/// derivative's reverse half follows, and its returns free the tape.
void Splitter::FillReverse(Function &rev, bool in_buffer) {
  ValueToValueMapTy vm;
  for (unsigned k = 0; k < c_.arg_size(); ++k) {
    rev.getArg(k)->setName(c_.getArg(k)->getName());
    vm[c_.getArg(k)] = rev.getArg(k);
  }
  SmallVector<ReturnInst *, 4> returns;
  CloneFunctionInto(&rev, &c_, vm, CloneFunctionChangeType::LocalChangesOnly,
                    returns);
  DropReturnAttributes(rev);
  Value *tape = rev.getArg(rev.arg_size() - 1);
  tape->setName(in_buffer ? "tape.buffer" : "tape");
  SmallPtrSet<const BasicBlock *, 32> reverse;
  for (BasicBlock *bb : reverse_blocks_)
    reverse.insert(cast<BasicBlock>(vm[bb]));
  auto inReverse = [&](Use &u) {
    return reverse.count(cast<Instruction>(u.getUser())->getParent()) > 0;
  };
  BasicBlock *entry = BasicBlock::Create(rev.getContext(), "tape.entry", &rev,
                                         &rev.getEntryBlock());
  IRBuilder<> b(entry);
  if (in_buffer && size_ > 0)
    tape = AlignedBlock(b, tape);
  // Reverse-only slots and their initial stores move here.
  for (AllocaInst *a : moved_slots_) {
    auto *clone = cast<AllocaInst>(vm[a]);
    clone->moveBefore(*entry, entry->end());
    for (User *u : clone->users())
      if (auto *st = dyn_cast<StoreInst>(u); st && !inReverse(*st->op_begin()))
        st->moveBefore(*entry, entry->end());
  }
  for (const TapeField &f : fields_) {
    Value *clone = vm[f.value];
    Value *v = FieldAddress(b, tape, f);
    if (!f.slot)
      v = b.CreateAlignedLoad(f.value->getType(), v,
                              dl_.getABITypeAlign(f.value->getType()),
                              f.value->getName() + ".taped");
    clone->replaceUsesWithIf(v, inReverse);
  }
  auto start = [&](const SplitPoint &p) {
    return cast<BasicBlock>(vm[p.branch->getSuccessor(0)]);
  };
  if (!index_) {
    b.CreateBr(start(points_[0]));
  } else {
    Value *k = b.CreateLoad(b.getInt32Ty(), FieldAddress(b, tape, *index_),
                            "returned.at");
    SwitchInst *sw = b.CreateSwitch(k, start(points_[0]), points_.size() - 1);
    for (unsigned i = 1; i < points_.size(); ++i)
      sw->addCase(b.getInt32(i), start(points_[i]));
  }
  removeUnreachableBlocks(rev);
  if (size_ == 0 || in_buffer)
    return;
  Module &m = *rev.getParent();
  FunctionCallee free = m.getOrInsertFunction("free", b.getVoidTy(),
                                              b.getPtrTy());
  for (BasicBlock &bb : rev)
    if (auto *ret = dyn_cast<ReturnInst>(bb.getTerminator()))
      CallInst::Create(free, {tape}, "", ret->getIterator());
}

constexpr const char *kTapeBytesAttr = "autodiff-tape-bytes";

} // namespace

uint64_t TapeBytes(const Function &aug) {
  uint64_t bytes = 0;
  if (aug.hasFnAttribute(kTapeBytesAttr))
    to_integer(aug.getFnAttribute(kTapeBytesAttr).getValueAsString(), bytes);
  return bytes;
}

absl::Status EmitSplitDerivative(const DiffRequest &r, Function &aug,
                                 Function &rev, DerivativeCache &cache) {
  DiffRequest combined = r;
  combined.mode = Mode::Reverse;
  combined.return_primal = false;
  AD_RETURN_IF_ERROR(CheckReverseRequest(combined));
  Function *c = Function::Create(ReverseDerivativeType(combined),
                                 GlobalValue::InternalLinkage,
                                 aug.getName() + ".combined", aug.getParent());
  c->setCallingConv(aug.getCallingConv());
  absl::Status s = [&]() -> absl::Status {
    std::unique_ptr<ReverseEmitter> e;
    AD_RETURN_IF_ERROR(RunExcludingFailedCandidates(
        *c, [&](const ExcludedCandidates &excluded) {
          e = std::make_unique<ReverseEmitter>(combined, *c, cache,
                                               /*split=*/true);
          e->SetOwner(aug);
          e->ExcludeCandidates(excluded);
          return e->Run();
        }));
    Splitter split(*c, e->split_points());
    AD_RETURN_IF_ERROR(split.Analyze());
    split.FillAugmented(aug, r.tape_in_buffer);
    split.FillReverse(rev, r.tape_in_buffer);
    aug.addFnAttr(kTapeBytesAttr, std::to_string(split.BufferBytes()));
    return absl::OkStatus();
  }();
  c->eraseFromParent();
  if (!s.ok()) {
    aug.deleteBody();
    rev.deleteBody();
  }
  return s;
}

} // namespace autodiff
