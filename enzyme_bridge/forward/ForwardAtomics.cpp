//===- enzyme_bridge/ForwardAtomics.cpp - Tangents of atomic operations ---===//
//
// Atomic operations on active memory update the shadow with the matching
// atomic operation, so tangents stay right when threads add into the same
// location:
//  - atomic loads and stores: the same atomic access on the shadow;
//  - atomicrmw xchg, fadd, fsub: the same operation on the shadow with the
//    value's tangent; the old value's tangent is what the shadow held;
//  - atomicrmw fmax/fmin/fmaximum/fminimum, and cmpxchg: the new tangent
//    depends on the primal outcome, so the old tangent is read and the new
//    one installed with a compare-exchange on the shadow (a no-op when the
//    primal did not write; it leaves a tangent written concurrently by
//    another thread in place);
//  - integer read-modify-write of an active value's bits: a diagnostic.
// Each tangent uses the primal's ordering and synchronization scope.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/forward/ForwardEmitter.h"
#include "support/StatusMacros.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace autodiff {

/// The diagnostic for an active value stored where no shadow exists.
static absl::Status NoShadowForStore(const Instruction &i, const Value &ptr) {
  return ErrorAt(absl::StatusCode::kInvalidArgument, i,
                 "the stored value is active but the destination has no "
                 "shadow memory (it is not derived from a duplicated "
                 "argument, a local variable or a heap allocation); " +
                     NoShadowAdvice(ptr));
}

/// Whether storing `val` where there is no shadow would drop a tangent: an
/// active float or pointer, or an integer holding a float's bits.
bool ForwardEmitter::LosesTangent(Value *val) {
  if (!HasT(val))
    return false;
  if (CarriesDerivative(val->getType()))
    return Active(val);
  return val->getType()->isIntOrIntVectorTy() && IsFloatBits(val, 0);
}

Lanes ForwardEmitter::PerShadowLane(
    Value *ptr, function_ref<Value *(Value *shadow, unsigned lane)> make) {
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    Value *sp = T(ptr, k);
    lanes.push_back(sp ? make(sp, k) : nullptr);
  }
  return lanes;
}

absl::Status ForwardEmitter::visitStoreInst(StoreInst &i) {
  Value *val = i.getValueOperand();
  Value *ptr = i.getPointerOperand();
  if (!HasT(ptr)) {
    // Memory declared inactive (__enzyme_inactive_global) keeps no tangent.
    // Through null (a path never taken): the primal store faults first.
    if (LosesTangent(val) && !InInactiveGlobal(ptr) &&
        !NeverMapped(ptr, i.getDataLayout()))
      return NoShadowForStore(i, *ptr);
    return absl::OkStatus();
  }
  if (absl::Status st = CheckUntrackedBitsStore(i); !st.ok())
    return st;
  AD_RETURN_IF_ERROR(CheckFloatPlacement(i));
  AD_RETURN_IF_ERROR(CheckPartialFloatWrite(i));
  // Integer bits computed into memory that may be read as a float.
  if (HasT(val) && val->getType()->isIntegerTy() &&
      (isa<BinaryOperator>(val) || isa<CastInst>(val) ||
       isa<IntrinsicInst>(val))) {
    if (!types_)
      types_.emplace(TypeInfo::Compute(out_));
    MemoryTypes mt = types_->TypesAt(ptr);
    uint64_t size = out_.getDataLayout().getTypeStoreSize(val->getType());
    if (mt.AccessMayHoldFloat(size)) {
      // A word the size of a float where one may be read is taken for one.
      BaseType first = mt.Lookup(0);
      Type *as = first.kind == BaseType::Float ? first.fp : nullptr;
      if (first.kind == BaseType::Anything && size <= 16)
        as = Type::getFloatingPointTy(val->getContext(),
                                      size == 2   ? APFloat::IEEEhalf()
                                      : size == 4 ? APFloat::IEEEsingle()
                                      : size == 8 ? APFloat::IEEEdouble()
                                                  : APFloat::IEEEquad());
      AD_RETURN_IF_ERROR(CheckWholeFloatBytes(i, val, as));
    }
  }
  for (unsigned k = 0; k < width_; ++k) {
    Value *sp = T(ptr, k);
    if (!sp)
      continue;
    StoreInst *s = b_.CreateAlignedStore(TOrZero(val, k), sp, i.getAlign(),
                                         i.isVolatile());
    s->setAtomic(i.getOrdering(), i.getSyncScopeID());
  }
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitLoadInst(LoadInst &i) {
  Value *ptr = i.getPointerOperand();
  if (!HasT(ptr) || !Active(&i))
    return absl::OkStatus();
  AD_RETURN_IF_ERROR(CheckFloatPlacement(i));
  // A float read from a local that copies filled in parts.
  if (i.getType()->isFloatingPointTy() &&
      isa<AllocaInst>(getUnderlyingObject(ptr)))
    AD_RETURN_IF_ERROR(CheckWholeFloatBytes(i, &i, i.getType()));
  SetT(&i, PerShadowLane(ptr, [&](Value *sp, unsigned) {
         LoadInst *l = b_.CreateAlignedLoad(i.getType(), sp, i.getAlign(),
                                            i.isVolatile(), i.getName() + "'");
         l->setAtomic(i.getOrdering(), i.getSyncScopeID());
         return l;
       }));
  return absl::OkStatus();
}

/// Whether the new value of `op` is its operand when `old` held `oldv` and
/// `v` was applied: the comparison that decides a float max/min.
static Value *TakesOperand(IRBuilder<> &b, AtomicRMWInst::BinOp op,
                           Value *oldv, Value *v) {
  bool isMax = op == AtomicRMWInst::FMax || op == AtomicRMWInst::FMaximum;
  Value *better = isMax ? b.CreateFCmpOGT(v, oldv) : b.CreateFCmpOLT(v, oldv);
  // maxnum/minnum take the operand when the old value is NaN.
  return b.CreateOr(better, b.CreateFCmpUNO(oldv, oldv));
}

/// Installs `tnew` in the shadow `sp` if it still holds `told` (both of
/// type `ty`); floats go through integers of the same width.
static void ReplaceShadow(IRBuilder<> &b, Value *sp, Value *told, Value *tnew,
                          Align align, SyncScope::ID scope) {
  Type *ty = told->getType();
  if (ty->isFloatingPointTy()) {
    Type *bits = b.getIntNTy(ty->getPrimitiveSizeInBits());
    Value *oldBits = b.CreateBitCast(told, bits);
    Value *newBits = b.CreateBitCast(tnew, bits);
    told = oldBits;
    tnew = newBits;
  }
  b.CreateAtomicCmpXchg(sp, told, tnew, align, AtomicOrdering::Monotonic,
                        AtomicOrdering::Monotonic, scope);
}

absl::Status ForwardEmitter::visitAtomicRMWInst(AtomicRMWInst &i) {
  Value *ptr = i.getPointerOperand(), *val = i.getValOperand();
  if (!HasT(ptr)) {
    if (LosesTangent(val))
      return NoShadowForStore(i, *ptr);
    return absl::OkStatus();
  }
  AtomicRMWInst::BinOp op = i.getOperation();
  bool isFloatOp = AtomicRMWInst::isFPOperation(op);
  if (!isFloatOp && op != AtomicRMWInst::Xchg) {
    // Integer arithmetic on the bits of an active value has no derivative.
    if (HasT(val) && Active(&i))
      return ErrorAt(absl::StatusCode::kUnimplemented, i,
                     std::string("integer atomic `") +
                         AtomicRMWInst::getOperationName(op).str() +
                         "` on memory that holds active floating-point data "
                         "cannot be differentiated");
    return absl::OkStatus();
  }
  SetT(&i, PerShadowLane(ptr, [&](Value *sp, unsigned k) -> Value * {
         Value *tv = TOrZero(val, k);
         if (op == AtomicRMWInst::Xchg || op == AtomicRMWInst::FAdd ||
             op == AtomicRMWInst::FSub)
           return b_.CreateAtomicRMW(op, sp, tv, i.getAlign(), i.getOrdering(),
                                     i.getSyncScopeID());
         // max/min: the new tangent is the operand's if the operand won.
         LoadInst *told = b_.CreateAlignedLoad(i.getType(), sp, i.getAlign(),
                                               i.getName() + "'old");
         told->setAtomic(AtomicOrdering::Monotonic, i.getSyncScopeID());
         Value *takes = TakesOperand(b_, op, &i, val);
         Value *tnew = b_.CreateSelect(takes, tv, told);
         ReplaceShadow(b_, sp, told, tnew, i.getAlign(), i.getSyncScopeID());
         return told;
       }));
  return absl::OkStatus();
}

/// cmpxchg returns {old, success}; on success the new value is stored, so
/// its tangent is; the old value's tangent is what the shadow held.
absl::Status ForwardEmitter::visitAtomicCmpXchgInst(AtomicCmpXchgInst &i) {
  Value *ptr = i.getPointerOperand(), *val = i.getNewValOperand();
  if (!HasT(ptr)) {
    if (LosesTangent(val))
      return NoShadowForStore(i, *ptr);
    return absl::OkStatus();
  }
  Type *ty = val->getType();
  Value *success = b_.CreateExtractValue(&i, 1, i.getName() + ".ok");
  SetT(&i, PerShadowLane(ptr, [&](Value *sp, unsigned k) {
         LoadInst *told = b_.CreateAlignedLoad(ty, sp, i.getAlign(),
                                               i.getName() + "'old");
         told->setAtomic(AtomicOrdering::Monotonic, i.getSyncScopeID());
         Value *tval = TOrZero(val, k);
         Value *tnew = b_.CreateSelect(success, tval, told);
         ReplaceShadow(b_, sp, told, tnew, i.getAlign(), i.getSyncScopeID());
         Value *agg =
             b_.CreateInsertValue(PoisonValue::get(i.getType()), told, 0);
         return b_.CreateInsertValue(agg, success, 1);
       }));
  return absl::OkStatus();
}

} // namespace autodiff
