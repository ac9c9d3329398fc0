//===- enzyme_bridge/reverse/ReverseAdjoints.cpp - Adjoints of instructions ===//
//
// Each active value has an adjoint accumulator (a stack slot of its type,
// zero at entry, promoted to registers by the optimizer). Visiting an
// instruction in the reverse sweep takes (reads and clears) its adjoint and
// adds the adjoint's share to each active operand: through the rule table
// for arithmetic and math calls, by routing for selects, casts and
// aggregates, and through shadow memory for loads (the adjoint is added to
// the shadow) and stores (the shadow's adjoint moves to the stored value
// and the shadow is cleared, the memory having been overwritten).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/DeclaredLayout.h"
#include "enzyme_bridge/analysis/FloatBytes.h"
#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/rules/RuleExpr.h"
#include "enzyme_bridge/rules/Rules.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"
#include "enzyme_bridge/reverse/MixedBitCopies.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "support/StatusMacros.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {
bool HoldsFloat(Type *t) {
  if (t->isFPOrFPVectorTy())
    return true;
  if (auto *st = dyn_cast<StructType>(t))
    return any_of(st->elements(), HoldsFloat);
  if (auto *at = dyn_cast<ArrayType>(t))
    return HoldsFloat(at->getElementType());
  return false;
}

namespace {

/// Marks in `used` the operands (index) and result (index `n`) that `e`
/// reads.
void CollectUses(const RuleExpr *e, unsigned n, SmallVectorImpl<bool> &used) {
  if (!e)
    return;
  if (e->kind == RuleExpr::Kind::Operand || e->kind == RuleExpr::Kind::IntToFP)
    used[e->index] = true;
  if (e->kind == RuleExpr::Kind::Result)
    used[n] = true;
  for (const RuleExpr *a : e->args)
    CollectUses(a, n, used);
}

} // namespace

AllocaInst *ReverseEmitter::AdjointSlot(Value *v) {
  if (isa<Constant>(v) || !HoldsFloat(v->getType()))
    return nullptr;
  if (auto *a = dyn_cast<Argument>(v)) {
    if (!is_contained(cloned_.active, a))
      return nullptr;
  } else if (!Active(v)) {
    return nullptr;
  }
  // Created on first mention, whichever of the reverse blocks (emitted in
  // any order) mentions it first.
  AllocaInst *&slot = adjoints_[v];
  if (!slot) {
    IRBuilder<> eb(&*out_.getEntryBlock().getFirstInsertionPt());
    slot = eb.CreateAlloca(v->getType(), nullptr, v->getName() + ".adj");
    eb.CreateStore(Constant::getNullValue(v->getType()), slot);
  }
  return slot;
}

bool ReverseEmitter::HasAdjoint(Value *v) { return AdjointSlot(v); }

void ReverseEmitter::AddAdjoint(Value *v, Value *adjoint) {
  AllocaInst *slot = adjoint ? AdjointSlot(v) : nullptr;
  if (!slot)
    return;
  Value *sum = AddValues(rb_.CreateLoad(v->getType(), slot), adjoint);
  rb_.CreateStore(sum, slot);
}

Value *ReverseEmitter::TakeAdjoint(Value *v) {
  AllocaInst *slot = AdjointSlot(v);
  if (!slot)
    return Constant::getNullValue(v->getType());
  Value *a = rb_.CreateLoad(v->getType(), slot, v->getName() + ".adjoint");
  rb_.CreateStore(Constant::getNullValue(v->getType()), slot);
  return a;
}

Value *ReverseEmitter::AddValues(Value *a, Value *b) {
  Type *t = a->getType();
  if (t->isFPOrFPVectorTy())
    return rb_.CreateFAdd(a, b);
  unsigned n = 0;
  if (auto *st = dyn_cast<StructType>(t))
    n = st->getNumElements();
  else if (auto *at = dyn_cast<ArrayType>(t))
    n = at->getNumElements();
  for (unsigned k = 0; k < n; ++k) {
    Value *x = rb_.CreateExtractValue(a, {k});
    if (!HoldsFloat(x->getType()))
      continue;
    Value *y = rb_.CreateExtractValue(b, {k});
    a = rb_.CreateInsertValue(a, AddValues(x, y), {k});
  }
  return a;
}

void ReverseEmitter::AccumulateInto(Value *shadow, Value *adjoint,
                                    Align align, Accumulation how) {
  Type *t = adjoint->getType();
  if (how == Accumulation::Atomic && t->isFPOrFPVectorTy()) {
    AtomicAccumulate(shadow, adjoint, align);
    return;
  }
  if (how == Accumulation::AtomicUnlessOneDimensional ||
      how == Accumulation::AtomicUnlessOneDimensionalBlock) {
    // Both arms use only values made before the branch.
    Value *plain = EmitOneDimensionalLaunch(
        rb_, how == Accumulation::AtomicUnlessOneDimensionalBlock);
    Function *f = rb_.GetInsertBlock()->getParent();
    LLVMContext &c = f->getContext();
    auto *plainBB = BasicBlock::Create(c, "accumulate.plain", f);
    auto *atomicBB = BasicBlock::Create(c, "accumulate.atomic", f);
    auto *join = BasicBlock::Create(c, "accumulated", f);
    rb_.CreateCondBr(plain, plainBB, atomicBB);
    rb_.SetInsertPoint(atomicBB);
    AtomicAccumulate(shadow, adjoint, align);
    rb_.CreateBr(join);
    rb_.SetInsertPoint(plainBB);
    AccumulateInto(shadow, adjoint, align, Accumulation::Plain);
    rb_.CreateBr(join);
    rb_.SetInsertPoint(join);
    return;
  }
  if (t->isFPOrFPVectorTy()) {
    // The primal access's alignment: a vector load of x + 4 is not aligned
    // to the vector's size.
    Value *old = rb_.CreateAlignedLoad(t, shadow, align);
    rb_.CreateAlignedStore(rb_.CreateFAdd(old, adjoint), shadow, align);
    return;
  }
  unsigned n = 0;
  if (auto *st = dyn_cast<StructType>(t))
    n = st->getNumElements();
  else if (auto *at = dyn_cast<ArrayType>(t))
    n = at->getNumElements();
  for (unsigned k = 0; k < n; ++k) {
    Value *leaf = rb_.CreateExtractValue(adjoint, {k});
    if (HoldsFloat(leaf->getType()))
      AccumulateInto(rb_.CreateConstInBoundsGEP2_32(t, shadow, 0, k), leaf,
                     Align(1), how);
  }
}

absl::Status ReverseEmitter::visitInstruction(Instruction &i) {
  if (HasAdjoint(&i))
    return Unsupported(i, DescribeOperation(i) + " on active data");
  return absl::OkStatus();
}

absl::Status ReverseEmitter::ApplyRule(Instruction &i) {
  const DerivativeRule *rule = FindRule(i);
  if (!rule)
    return Unsupported(i, DescribeOperation(i) + " (no derivative rule)");
  auto *call = dyn_cast<CallBase>(&i);
  unsigned n = call ? call->arg_size() : i.getNumOperands();
  auto operand = [&](unsigned k) {
    return call ? call->getArgOperand(k) : i.getOperand(k);
  };
  Value *adjoint = TakeAdjoint(&i);
  // An arm that may be discarded: a zero adjoint contributes zero, even
  // where the partial is not finite (0 * NaN would poison the gradient).
  bool strongZero = NeedsStrongZero(i);
  for (unsigned k = 0; k < n && k < rule->partials.size(); ++k) {
    Value *op = operand(k);
    if (!rule->partials[k] || isa<Constant>(op) || !HoldsFloat(op->getType()))
      continue;
    if (!isa<Argument>(op) && !Active(op))
      continue;
    SmallVector<bool, 4> used(n + 1, false);
    CollectUses(rule->partials[k], n, used);
    SmallVector<Value *, 4> ops;
    for (unsigned j = 0; j < n; ++j)
      ops.push_back(used[j] ? Lookup(operand(j))
                            : PoisonValue::get(operand(j)->getType()));
    Value *result = used[n] ? Lookup(&i) : PoisonValue::get(i.getType());
    Value *scaled = EmitScaledPartial(rb_, *rule, k, ops, result, adjoint);
    if (!scaled)
      continue;
    if (strongZero && scaled->getType() == adjoint->getType()) {
      Value *zero = Constant::getNullValue(adjoint->getType());
      scaled = rb_.CreateSelect(rb_.CreateFCmpOEQ(adjoint, zero), zero, scaled,
                                "strong.zero");
    }
    AddAdjoint(op, scaled);
  }
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitBinaryOperator(BinaryOperator &i) {
  if (!i.getType()->isFPOrFPVectorTy())
    return visitInstruction(i);
  return Active(&i) ? ApplyRule(i) : absl::OkStatus();
}

absl::Status ReverseEmitter::visitUnaryOperator(UnaryOperator &i) {
  return Active(&i) ? ApplyRule(i) : absl::OkStatus();
}

/// Whether `u` only decides something with `v` (a comparison, a switch,
/// an ordering, a select's condition): no bits of `v` pass through it.
static bool IsDecision(const User &u, const Value *v) {
  if (isa<ICmpInst>(u) || isa<SwitchInst>(u))
    return true;
  if (const auto *ii = dyn_cast<IntrinsicInst>(&u))
    if (ii->getIntrinsicID() == Intrinsic::scmp ||
        ii->getIntrinsicID() == Intrinsic::ucmp)
      return true; // An ordering (-1, 0, 1), not the bits.
  const auto *sel = dyn_cast<SelectInst>(&u);
  return sel && sel->getCondition() == v;
}

/// Whether `u` computes an integer from its integer operands.
static bool IsIntegerStep(const User &u) {
  return (isa<BinaryOperator>(u) || isa<TruncInst>(u) || isa<ZExtInst>(u) ||
          isa<SExtInst>(u) || isa<PHINode>(u) || isa<SelectInst>(u) ||
          isa<FreezeInst>(u)) &&
         u.getType()->isIntOrIntVectorTy();
}

/// Whether the integer bits `v` of a float only decide comparisons (Rust's
/// f64::total_cmp: to_bits, shifts and xors, then a compare): no value made
/// from them is stored, returned, passed on or turned back into a float,
/// so no derivative flows through them.
static bool OnlyCompared(const Value *v, SmallPtrSetImpl<const Value *> &seen) {
  if (!seen.insert(v).second)
    return true;
  if (seen.size() > 64)
    return false;
  for (const User *u : v->users()) {
    if (IsDecision(*u, v))
      continue;
    if (!IsIntegerStep(*u) || !OnlyCompared(u, seen))
      return false;
  }
  return true;
}

absl::Status ReverseEmitter::visitCastInst(CastInst &i) {
  Value *op = i.getOperand(0);
  switch (i.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    if (Active(&i))
      AddAdjoint(op, rb_.CreateFPCast(TakeAdjoint(&i), op->getType()));
    return absl::OkStatus();
  case Instruction::SIToFP:
  case Instruction::UIToFP:
  case Instruction::FPToSI:
  case Instruction::FPToUI:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
    return absl::OkStatus(); // No adjoint; a lost shadow is reported at use.
  case Instruction::BitCast:
    if (op->getType()->isFPOrFPVectorTy() &&
        i.getType()->isFPOrFPVectorTy() &&
        op->getType()->getScalarType() == i.getType()->getScalarType()) {
      if (Active(&i))
        AddAdjoint(op, rb_.CreateBitCast(TakeAdjoint(&i), op->getType()));
      return absl::OkStatus();
    }
    if (HoldsFloat(op->getType()) != HoldsFloat(i.getType()) &&
        (Active(&i) || Active(op))) {
      SmallPtrSet<const Value *, 16> seen;
      if (HoldsFloat(op->getType()) && i.getType()->isIntOrIntVectorTy() &&
          OnlyCompared(&i, seen))
        return absl::OkStatus();
      return Unsupported(i, "reinterpreting the bits of active floating-point "
                            "data as another type");
    }
    return visitInstruction(i);
  default:
    return visitInstruction(i);
  }
}

absl::Status ReverseEmitter::visitSelectInst(SelectInst &i) {
  if (!Active(&i) || !HoldsFloat(i.getType()))
    return visitInstruction(i);
  Value *a = TakeAdjoint(&i);
  Value *c = Lookup(i.getCondition());
  Value *zero = Constant::getNullValue(i.getType());
  AddAdjoint(i.getTrueValue(), rb_.CreateSelect(c, a, zero));
  AddAdjoint(i.getFalseValue(), rb_.CreateSelect(c, zero, a));
  return absl::OkStatus();
}

/// Whether `u` is a store that caches `v` for the reverse sweep (one of
/// `cache_stores`): it keeps a copy, and moves `v` nowhere the function
/// can see.
static bool CachesValue(const User *u, const Value *v,
                        const SmallPtrSetImpl<const Instruction *> &cache_stores) {
  const auto *st = dyn_cast<StoreInst>(u);
  return st && st->getValueOperand() == v && cache_stores.contains(st);
}

/// Whether integer `v` is moved (stored, reinterpreted as floating point,
/// passed on by phis and selects) rather than used as a number. The stores
/// that cache it for the reverse sweep (`cache_stores`) move nothing.
static bool IsMovedBits(Value *v,
                        const SmallPtrSetImpl<const Instruction *> &cache_stores,
                        unsigned depth = 0) {
  if (depth > 4)
    return false;
  for (User *u : v->users()) {
    if (CachesValue(u, v, cache_stores))
      continue;
    if (isa<StoreInst>(u) || isa<InsertValueInst>(u) ||
        (isa<BitCastInst>(u) && u->getType()->isFPOrFPVectorTy()))
      return true;
    // Through lane moves too: a swap of two doubles at -O3 is a <2 x i64>
    // load, a shufflevector and a store.
    if ((isa<PHINode>(u) || isa<SelectInst>(u) ||
         isa<ShuffleVectorInst>(u) || isa<ExtractElementInst>(u) ||
         isa<InsertElementInst>(u)) &&
        IsMovedBits(u, cache_stores, depth + 1))
      return true;
  }
  return false;
}

/// Whether integer `v` stored to memory is a copy of raw bits (a loaded
/// value or floating-point bits) rather than a computed number.
static bool IsCopiedBits(Value *v, unsigned depth = 0) {
  if (isa<LoadInst>(v) || isa<ExtractValueInst>(v))
    return true;
  if (auto *bc = dyn_cast<BitCastInst>(v))
    return bc->getSrcTy()->isFPOrFPVectorTy();
  if (depth >= 4)
    return false;
  if (auto *phi = dyn_cast<PHINode>(v))
    return any_of(phi->incoming_values(),
                  [&](Value *in) { return IsCopiedBits(in, depth + 1); });
  if (isa<ShuffleVectorInst>(v) || isa<InsertElementInst>(v) ||
      isa<ExtractElementInst>(v) || isa<SelectInst>(v))
    return any_of(cast<Instruction>(v)->operands(), [&](Value *in) {
      return in->getType()->isIntOrIntVectorTy() &&
             IsCopiedBits(in, depth + 1);
    });
  return false;
}

const TypeInfo &ReverseEmitter::StrictTypes() {
  if (!strict_types_)
    strict_types_.emplace(TypeInfo::Compute(out_, /*guess_copies=*/false));
  return *strict_types_;
}

bool ReverseEmitter::StrictlyInteger(const Value *ptr, int64_t size) {
  MemoryTypes strict = StrictTypes().TypesAt(ptr);
  for (int64_t off = 0; off < size; ++off)
    if (strict.KindOfAccessedByte(off) != BaseType::Integer)
      return false;
  return size > 0;
}

absl::Status ReverseEmitter::CheckNoFloatBits(Instruction &i, Value *ptr,
                                              Type *ty) {
  if (!ty->isIntOrIntVectorTy() || !shadows_.count(ptr))
    return absl::OkStatus();
  // The integer fields and padding of a record copy cut field by field:
  // the cut found which bytes hold floats.
  if (IsRecordIntegerBytes(i))
    return absl::OkStatus();
  bool copy = isa<LoadInst>(i) ? IsMovedBits(&i, cache_stores_)
                               : IsCopiedBits(cast<StoreInst>(i).getValueOperand());
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  if (!copy)
    return IntegerOverFloats(i, ptr, ty);
  MemoryTypes mt = types_->TypesAt(ptr);
  int64_t size = out_.getDataLayout().getTypeStoreSize(ty);
  bool known = false;
  for (int64_t off = 0; off < size; ++off) {
    BaseType::Kind kind = mt.KindOfAccessedByte(off);
    known |= kind != BaseType::Unknown;
    if (kind == BaseType::Float || kind == BaseType::Anything)
      return Unsupported(i, "an integer access to memory that holds active "
                            "floating-point data (type analysis: " +
                                mt.ToString() + ")");
  }
  // A field the record type declares integer (an `int id` nothing here
  // reads, copied with its neighbours at -O0) holds no float.
  const DataLayout &dl = out_.getDataLayout();
  bool declared = size >= 4 && DeclaredIntegerBytes(ptr, size, dl);
  // A pointer walking an object (a phi over `gep %p, 8`): the access itself
  // says Integer, but the object it walks may hold floats anywhere (unless
  // it walks records whose type declares these bytes integer, or whose
  // integer field here is used as a number: a sort key compared, which
  // the analysis sees without counting copies).
  SmallVector<const Value *, 4> objects;
  if (!declared && !StrictlyInteger(ptr, size))
    getUnderlyingObjects(ptr, objects);
  for (const Value *o : objects) {
    // Null (an empty std::vector's begin) holds nothing.
    if (o == getUnderlyingObject(ptr) || IsNoObject(o) ||
        isa<UndefValue>(o))
      continue;
    MemoryTypes whole = types_->TypesAt(o);
    if (any_of(whole.at, [](auto &e) {
          return e.second.kind == BaseType::Float ||
                 e.second.kind == BaseType::Anything;
        }))
    {
      std::string name;
      raw_string_ostream os(name);
      o->printAsOperand(os, /*PrintType=*/false);
      return Unsupported(i, "an integer access to memory that holds active "
                            "floating-point data (through a pointer that "
                            "walks " + name + ", type analysis: " +
                                whole.ToString() + ")");
    }
  }
  // An integer type that came only from the copy itself (a `uint64_t *`
  // view of memory nothing here uses otherwise) is no evidence: the words
  // may be a caller's doubles.
  if (known && size >= 4) {
    MemoryTypes strict = StrictTypes().TypesAt(ptr);
    known = false;
    for (int64_t off = 0; off < size; ++off)
      known |= strict.KindOfAccessedByte(off) != BaseType::Unknown;
  }
  known |= declared;
  // Raw bits moved through active memory of unknown type may be
  // floating-point bits: their adjoint would be dropped without a word.
  if (!known && size >= 4)
    return Unsupported(i, "an integer copy through a pointer to active "
                          "memory whose type the type analysis cannot "
                          "deduce (it may move floating-point bits, whose "
                          "adjoint would be lost); access floating-point data "
                          "with its floating-point type, or pass memory that "
                          "holds none as enzyme_const");
  return absl::OkStatus();
}

static bool IsNullShadow(const Value *s, unsigned depth = 0);

/// Whether integer `v`, through integer arithmetic, may be stored,
/// returned, passed on, or turned into a float or a pointer: used as an
/// index, a bound or in a comparison, it carries nothing back. Nor does
/// a store that caches it for the reverse sweep (`cache_stores`).
static bool MayReachMemoryOrFloat(
    const Value *v, SmallPtrSetImpl<const Value *> &seen,
    const SmallPtrSetImpl<const Instruction *> &cache_stores) {
  if (!seen.insert(v).second)
    return false;
  if (seen.size() > 64)
    return true;
  for (const User *u : v->users()) {
    if (IsDecision(*u, v) || isa<GetElementPtrInst>(u) || isa<SIToFPInst>(u) ||
        isa<UIToFPInst>(u))
      continue;
    if (CachesValue(u, v, cache_stores))
      continue;
    if (!IsIntegerStep(*u) || MayReachMemoryOrFloat(u, seen, cache_stores))
      return true;
  }
  return false;
}

/// An integer load or store that is not a copy of raw bits, on memory that
/// holds (or may hold) active floating-point data. A constant stored there
/// replaces the float: its adjoint is cleared. Bits read and computed with
/// (a sign flip by xor, an exponent increment) or an integer of unknown
/// origin stored there have derivatives the core does not know: a
/// diagnostic, not a dropped or leaked adjoint.
absl::Status ReverseEmitter::IntegerOverFloats(Instruction &i, Value *ptr,
                                               Type *ty) {
  MemoryTypes mt = types_->TypesAt(ptr);
  if (!mt.AccessMayHoldFloat(out_.getDataLayout().getTypeStoreSize(ty)))
    return absl::OkStatus();
  if (auto *load = dyn_cast<LoadInst>(&i)) {
    SmallPtrSet<const Value *, 16> seen;
    if (!MayReachMemoryOrFloat(load, seen, cache_stores_))
      return absl::OkStatus();
    return Unsupported(i, "integer arithmetic on the bits of memory that "
                          "holds active floating-point data (type analysis: " +
                              mt.ToString() + ")");
  }
  auto &store = cast<StoreInst>(i);
  if (!isa<Constant>(store.getValueOperand()))
    return Unsupported(i, "storing a computed integer over memory that "
                          "holds active floating-point data (type analysis: " +
                              mt.ToString() + ")");
  Value *shadow = LookupShadow(ptr);
  if (shadow && !IsNullShadow(shadows_.lookup(ptr)))
    rb_.CreateAlignedStore(Constant::getNullValue(ty), shadow,
                           store.getAlign());
  return absl::OkStatus();
}

/// Whether shadow pointer `s` (a forward-sweep value) is null by
/// construction: the placeholder of an inactive pointer field, or an
/// address computed from one. Adjoints must never go through it.
static bool IsNullShadow(const Value *s, unsigned depth) {
  if (isa<ConstantPointerNull>(s))
    return true;
  if (depth > 12)
    return false;
  if (const auto *gep = dyn_cast<GEPOperator>(s))
    return IsNullShadow(gep->getPointerOperand(), depth + 1);
  if (const auto *ev = dyn_cast<ExtractValueInst>(s)) {
    const Value *agg = ev->getAggregateOperand();
    while (const auto *iv = dyn_cast<InsertValueInst>(agg)) {
      if (iv->getIndices() == ev->getIndices())
        return IsNullShadow(iv->getInsertedValueOperand(), depth + 1);
      agg = iv->getAggregateOperand();
    }
    if (const auto *c = dyn_cast<Constant>(agg))
      if (const Constant *e = c->getAggregateElement(ev->getIndices()[0]))
        return ev->getNumIndices() == 1 && e->isNullValue();
  }
  return false;
}

/// A load, store or copy at a place that cuts through a float (eight
/// bytes read from byte 4 of a double array): its adjoint would be spread
/// over parts of two floats.
absl::Status ReverseEmitter::CheckFloatPlacement(Instruction &access) {
  std::string problem = MisplacedFloatProblem(access, types_, out_);
  if (problem.empty())
    return absl::OkStatus();
  return ErrorAt(absl::StatusCode::kUnimplemented, access, problem);
}

absl::Status ReverseEmitter::visitLoadInst(LoadInst &i) {
  if (!HoldsFloat(i.getType()))
    return CheckNoFloatBits(i, i.getPointerOperand(), i.getType());
  if (!Active(&i))
    return absl::OkStatus();
  AD_RETURN_IF_ERROR(CheckFloatPlacement(i));
  // A volatile load's value is cached, never loaded again (clobbers_); its
  // adjoint goes to the shadow like any load's (the warp-synchronous end
  // of a CUDA reduction reads shared memory through volatile).
  if (i.isAtomic())
    return Unsupported(i, "an atomic load of active data");
  Value *known = shadows_.lookup(i.getPointerOperand());
  if (known && IsNullShadow(known))
    return Unsupported(i, "a load of active data through a pointer that was "
                          "taken for inactive (its shadow is a null "
                          "placeholder)");
  Value *a = TakeAdjoint(&i);
  Value *shadow = LookupShadow(i.getPointerOperand());
  // A load of a constant argument's memory that the activity analysis,
  // which does not tell apart the objects a joined pointer may reach
  // (`p = c ? x : table`), counts as active: the caller declared the
  // memory constant, so the adjoint is dropped (stores of active data
  // into it are a diagnostic, or stopped at run time through the sink).
  if (!shadow && InConstantArgument(i.getPointerOperand()))
    return absl::OkStatus();
  if (!shadow)
    return Unsupported(i, "a load of active data through a pointer whose "
                          "shadow is unknown; " +
                          NoShadowAdvice(*i.getPointerOperand()));
  AccumulateInto(shadow, a, i.getAlign(),
                 AccumulationFor(i, i.getPointerOperand()));
  return absl::OkStatus();
}

/// A pointer stored into a stack slot that also holds floats at other
/// times (optimized Numba code reuses an array struct's slot for the
/// float a BLAS dot product writes): the forward sweep left the shadow
/// pointer in the slot's shadow, where the float's adjoint would be
/// accumulated on top of its bits (a gradient scaled by whatever those
/// bits read as). Going backwards past the store, the slot held what was
/// there before it: its shadow starts from zero.
void ReverseEmitter::ClearReusedSlot(StoreInst &st) {
  Value *ptr = st.getPointerOperand();
  Type *t = st.getValueOperand()->getType();
  if (!t->isPtrOrPtrVectorTy() || !shadows_.count(ptr) ||
      !isa<AllocaInst>(getUnderlyingObject(ptr)))
    return;
  Value *shadow = LookupShadow(ptr);
  if (!shadow || IsNullShadow(shadows_.lookup(ptr)))
    return;
  if (MemoryMayHold(ptr, t, BaseType::Float))
    rb_.CreateAlignedStore(Constant::getNullValue(t), shadow, st.getAlign());
}

absl::Status ReverseEmitter::visitStoreInst(StoreInst &i) {
  UndoStore(i);
  Value *v = i.getValueOperand();
  Value *ptr = i.getPointerOperand();
  if (!HoldsFloat(v->getType())) {
    ClearReusedSlot(i);
    return CheckNoFloatBits(i, ptr, v->getType());
  }
  if (i.isAtomic())
    return Unsupported(i, "an atomic store of floating-point data");
  if (Active(v))
    AD_RETURN_IF_ERROR(CheckFloatPlacement(i));
  Value *shadow = shadows_.count(ptr) || isa<GlobalValue>(ptr)
                      ? LookupShadow(ptr)
                      : nullptr;
  if (!shadow) {
    // Into memory declared inactive (__enzyme_inactive_global): the
    // stored value's derivative goes nowhere. Through null (a path the
    // program never takes, left by inlining: `std::vector`'s growth
    // constructing into an allocation of zero elements): the primal
    // store faults before any adjoint could matter.
    if (Active(v) && !InInactiveGlobal(ptr) &&
        !NeverMapped(ptr, i.getDataLayout()))
      return ErrorAt(absl::StatusCode::kUnimplemented, i,
                     "storing an active value into memory whose shadow is "
                     "unknown; " + NoShadowAdvice(*ptr));
    return absl::OkStatus();
  }
  if (IsNullShadow(shadows_.lookup(ptr))) {
    if (!Active(v) || NeverMapped(ptr, i.getDataLayout()))
      return absl::OkStatus(); // Inactive memory: nothing to give back.
    return Unsupported(i, "a store of active data through a pointer that "
                          "was taken for inactive (its shadow is a null "
                          "placeholder)");
  }
  Type *t = v->getType();
  if (Active(v))
    CheckNotSink(shadow);
  Value *a = rb_.CreateAlignedLoad(t, shadow, i.getAlign(), "stored.adjoint");
  rb_.CreateAlignedStore(Constant::getNullValue(t), shadow, i.getAlign());
  AddAdjoint(v, a);
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitExtractValueInst(ExtractValueInst &i) {
  if (!Active(&i) || !HoldsFloat(i.getType()))
    return absl::OkStatus();
  Value *agg = i.getAggregateOperand();
  Value *a = TakeAdjoint(&i);
  AddAdjoint(agg, rb_.CreateInsertValue(
                      Constant::getNullValue(agg->getType()), a, i.getIndices()));
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitInsertValueInst(InsertValueInst &i) {
  if (!Active(&i) || !HoldsFloat(i.getType()))
    return absl::OkStatus();
  Value *a = TakeAdjoint(&i);
  Value *part = i.getInsertedValueOperand();
  if (HoldsFloat(part->getType()))
    AddAdjoint(part, rb_.CreateExtractValue(a, i.getIndices()));
  Value *cleared = rb_.CreateInsertValue(
      a, Constant::getNullValue(part->getType()), i.getIndices());
  AddAdjoint(i.getAggregateOperand(), cleared);
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitExtractElementInst(ExtractElementInst &i) {
  if (!Active(&i) || !HoldsFloat(i.getType()))
    return absl::OkStatus();
  Value *vec = i.getVectorOperand();
  Value *a = TakeAdjoint(&i);
  Value *index = Lookup(i.getIndexOperand());
  AddAdjoint(vec, rb_.CreateInsertElement(
                      Constant::getNullValue(vec->getType()), a, index));
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitInsertElementInst(InsertElementInst &i) {
  if (!Active(&i) || !HoldsFloat(i.getType()))
    return absl::OkStatus();
  Value *a = TakeAdjoint(&i);
  Value *index = Lookup(i.getOperand(2));
  Value *part = i.getOperand(1);
  AddAdjoint(part, rb_.CreateExtractElement(a, index));
  AddAdjoint(i.getOperand(0),
             rb_.CreateInsertElement(
                 a, Constant::getNullValue(part->getType()), index));
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitShuffleVectorInst(ShuffleVectorInst &i) {
  if (!Active(&i) || !HoldsFloat(i.getType()))
    return absl::OkStatus();
  Value *a = TakeAdjoint(&i);
  auto *inTy = cast<FixedVectorType>(i.getOperand(0)->getType());
  unsigned n = inTy->getNumElements();
  Value *d[2] = {Constant::getNullValue(inTy), Constant::getNullValue(inTy)};
  ArrayRef<int> mask = i.getShuffleMask();
  // Lanes the primal left poison (DefineVectorLanes gave them lane 0 of
  // the first operand): dead, their adjoints dropped.
  SmallVector<bool, 16> dead = DeadShuffleLanes(i);
  for (unsigned lane = 0; lane < mask.size(); ++lane) {
    if (mask[lane] < 0 || dead[lane])
      continue;
    unsigned src = unsigned(mask[lane]) / n, at = unsigned(mask[lane]) % n;
    Value *e = rb_.CreateExtractElement(a, lane);
    Value *old = rb_.CreateExtractElement(d[src], at);
    d[src] = rb_.CreateInsertElement(d[src], rb_.CreateFAdd(old, e), at);
  }
  AddAdjoint(i.getOperand(0), d[0]);
  AddAdjoint(i.getOperand(1), d[1]);
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitFreezeInst(FreezeInst &i) {
  if (Active(&i))
    AddAdjoint(i.getOperand(0), TakeAdjoint(&i));
  return absl::OkStatus();
}

} // namespace autodiff
