//===- enzyme_bridge/ActivityAnalysis.cpp - What can carry a derivative ---===//
//
// Two fixpoints over the SSA graph and memory:
//  - varied, forward from the active arguments: an instruction is varied if
//    an operand is; a store of a varied value makes the underlying objects
//    of its pointer varied (their memory is active), so loads through them
//    are varied; a call with varied operands makes its pointer arguments'
//    objects varied (the callee may write active data through them).
//    Integer results are varied only where they may move raw bits of
//    active memory (loads, phis, selects, casts from pointers).
//  - useful, backward from the active outputs: the return, every store and
//    memory transfer into active memory, and the operands of calls that are
//    not known to be inactive.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/ActivityAnalysis.h"
#include "enzyme_bridge/rules/BlasRules.h"

#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <set>
#include <vector>

using namespace llvm;

namespace autodiff {

/// Whether any scalar leaf of `t` (through structs and arrays) satisfies
/// `leaf`.
template <typename Pred> static bool AnyLeaf(const Type *t, Pred leaf) {
  if (const auto *st = dyn_cast<StructType>(t))
    return any_of(st->elements(),
                  [&](const Type *e) { return AnyLeaf(e, leaf); });
  if (const auto *at = dyn_cast<ArrayType>(t))
    return AnyLeaf(at->getElementType(), leaf);
  return leaf(t);
}

bool CarriesDerivative(const Type *t) {
  return AnyLeaf(t, [](const Type *e) {
    return e->isFPOrFPVectorTy() || e->isPtrOrPtrVectorTy();
  });
}

bool ContainsPointer(const Type *t) {
  return AnyLeaf(t, [](const Type *e) { return e->isPtrOrPtrVectorTy(); });
}

/// Integer results that may carry raw bits of active memory.
static bool MovesRawBits(const Instruction &i) {
  // Sign-bit operations (fabs, fneg, copysign written on the bits).
  if (i.getOpcode() == Instruction::And || i.getOpcode() == Instruction::Or ||
      i.getOpcode() == Instruction::Xor)
    return true;
  // Byte moves (packing floats into integers, as the C ABI does).
  if (i.getOpcode() == Instruction::Shl || i.getOpcode() == Instruction::LShr ||
      isa<TruncInst>(i) || isa<ZExtInst>(i))
    return true;
  return isa<LoadInst>(i) || isa<PHINode>(i) || isa<SelectInst>(i) ||
         isa<PtrToIntInst>(i) || isa<BitCastInst>(i) ||
         isa<ExtractValueInst>(i) || isa<ExtractElementInst>(i) ||
         isa<InsertValueInst>(i) || isa<InsertElementInst>(i) ||
         isa<ShuffleVectorInst>(i) ||
         isa<FreezeInst>(i) || isa<AtomicRMWInst>(i) ||
         isa<AtomicCmpXchgInst>(i);
}

static bool IsAddressInteger(const Value *v, bool offsets_only,
                             SmallPtrSetImpl<const Value *> &seen,
                             unsigned depth) {
  if (isa<PtrToIntInst>(v))
    return true;
  // Each value once (`seen`); chains of dozens of adds are common after
  // unrolling (Numba's loops at -O3 step an address that way).
  if (depth > 512 || !seen.insert(v).second)
    return false;
  // An address carried round a loop (`p += 8` on the integer).
  if (const auto *phi = dyn_cast<PHINode>(v))
    return any_of(phi->incoming_values(), [&](const Value *in) {
      return IsAddressInteger(in, offsets_only, seen, depth + 1);
    });
  const auto *bo = dyn_cast<BinaryOperator>(v);
  if (!bo)
    return false;
  unsigned op = bo->getOpcode();
  if (offsets_only && op != Instruction::Add && op != Instruction::Sub &&
      op != Instruction::Or)
    return false;
  // Offsets are added to an address, or subtracted or or-ed into it.
  bool right = !offsets_only || op == Instruction::Add;
  return IsAddressInteger(bo->getOperand(0), offsets_only, seen, depth + 1) ||
         (right &&
          IsAddressInteger(bo->getOperand(1), offsets_only, seen, depth + 1));
}

bool IsAddressInteger(const Value *v, bool offsets_only) {
  SmallPtrSet<const Value *, 16> seen;
  return IsAddressInteger(v, offsets_only, seen, 0);
}

/// The value an atomicrmw or cmpxchg stores; null for other instructions.
static const Value *AtomicStoredValue(const Instruction &i) {
  if (const auto *rmw = dyn_cast<AtomicRMWInst>(&i))
    return rmw->getValOperand();
  if (const auto *cx = dyn_cast<AtomicCmpXchgInst>(&i))
    return cx->getNewValOperand();
  return nullptr;
}

static const Value *AtomicPointer(const Instruction &i) {
  if (const auto *rmw = dyn_cast<AtomicRMWInst>(&i))
    return rmw->getPointerOperand();
  return cast<AtomicCmpXchgInst>(i).getPointerOperand();
}

namespace {

/// Whether a callee may write through (or let escape) the pointer it gets
/// as argument `i`: from attributes and memory effects, else by scanning
/// the callee's body (recursively, a few calls deep). Unknown: yes.
class WriteOracle {
public:
  bool MayWrite(const CallBase &call, unsigned i, unsigned depth = 0) {
    if (call.onlyReadsMemory() || call.onlyReadsMemory(i))
      return false;
    const Function *f = CalledFunction(call);
    if (!f || f->isVarArg() || i >= f->arg_size())
      return true;
    if (f->onlyReadsMemory() || f->hasParamAttribute(i, Attribute::ReadOnly) ||
        f->hasParamAttribute(i, Attribute::ReadNone))
      return false;
    if (f->isDeclaration())
      return !BlasParamReadOnly(*f, i);
    return ArgMayBeWritten(*f->getArg(i), depth);
  }

private:
  bool ArgMayBeWritten(const Argument &a, unsigned depth) {
    auto it = memo_.find(&a);
    if (it != memo_.end())
      return it->second;
    if (depth > 6)
      return true;
    memo_[&a] = false; // Optimistic while in progress (recursion).
    bool writes = DerivedMayBeWritten(&a, depth);
    memo_[&a] = writes;
    return writes;
  }

  bool DerivedMayBeWritten(const Value *root, unsigned depth) {
    SmallVector<const Value *, 8> work = {root};
    SmallPtrSet<const Value *, 16> seen;
    while (!work.empty()) {
      const Value *v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      for (const llvm::Use &u : v->uses()) {
        const auto *i = dyn_cast<Instruction>(u.getUser());
        if (!i)
          return true;
        if (isa<LoadInst>(i) || isa<CmpInst>(i))
          continue;
        if (const auto *st = dyn_cast<StoreInst>(i)) {
          // -O0 code keeps the parameter in a stack slot of its own: what
          // is loaded back from there.
          if (const Value *slot = SlotHolding(*st, v)) {
            for (const User *w : slot->users())
              if (isa<LoadInst>(w))
                work.push_back(w);
            continue;
          }
          // Storing through it, or storing the pointer itself somewhere.
          return true;
        }
        if (isa<GetElementPtrInst>(i) || isa<BitCastInst>(i) ||
            isa<AddrSpaceCastInst>(i) || isa<PHINode>(i) ||
            isa<SelectInst>(i)) {
          work.push_back(i);
          continue;
        }
        if (const auto *call = dyn_cast<CallBase>(i)) {
          if (IsInactiveCall(*call))
            continue;
          if (const auto *mt = dyn_cast<MemTransferInst>(call)) {
            if (u.get() == mt->getRawDest())
              return true;
            continue;
          }
          if (!call->isArgOperand(&u) ||
              MayWrite(*call, call->getArgOperandNo(&u), depth + 1))
            return true;
          continue;
        }
        return true; // Returned, converted to an integer, ...
      }
    }
    return false;
  }

  /// The local `st` stores pointer `v` into, when that local is only
  /// loaded from and given `v` (a parameter's -O0 stack slot).
  static const Value *SlotHolding(const StoreInst &st, const Value *v) {
    const auto *slot = dyn_cast<AllocaInst>(st.getPointerOperand());
    if (st.getValueOperand() != v || !slot || !slot->isStaticAlloca())
      return nullptr;
    for (const User *w : slot->users()) {
      if (isa<LoadInst>(w))
        continue;
      const auto *other = dyn_cast<StoreInst>(w);
      if (!other || other->getValueOperand() != v ||
          other->getPointerOperand() != slot)
        return nullptr;
    }
    return slot;
  }

  DenseMap<const Argument *, bool> memo_;
};

/// Memory that is never written: all the objects under `ptr` are constant
/// globals.
bool IsConstantMemory(const Value *ptr) {
  SmallVector<const Value *, 4> objs;
  getUnderlyingObjects(ptr, objs);
  return !objs.empty() && all_of(objs, [](const Value *o) {
    const auto *gv = dyn_cast<GlobalVariable>(o);
    return gv && gv->isConstant();
  });
}

/// How the field an insertvalue writes relates to field `idx`.
enum class FieldOverlap {
  Disjoint, ///< Another field: look through to the aggregate operand.
  Covers,   ///< The field itself, or a whole around it.
  Within,   ///< A part of the field: the rest comes from the aggregate.
};

static FieldOverlap Overlap(ArrayRef<unsigned> inserted,
                            ArrayRef<unsigned> idx) {
  size_t common = std::min(inserted.size(), idx.size());
  if (inserted.take_front(common) != idx.take_front(common))
    return FieldOverlap::Disjoint;
  return inserted.size() <= idx.size() ? FieldOverlap::Covers
                                       : FieldOverlap::Within;
}

/// The values a phi or select joins (a select's condition left out).
static SmallVector<const Value *, 4> JoinedValues(const Value *v) {
  SmallVector<const Value *, 4> values;
  if (const auto *phi = dyn_cast<PHINode>(v))
    values.append(phi->incoming_values().begin(),
                  phi->incoming_values().end());
  else if (const auto *sel = dyn_cast<SelectInst>(v))
    values = {sel->getTrueValue(), sel->getFalseValue()};
  return values;
}

class Solver {
public:
  Solver(const Function &f, SmallPtrSetImpl<const Value *> &varied,
         SmallPtrSetImpl<const Value *> &useful)
      : f_(f), varied_(varied), useful_(useful) {}

  void Vary(const Value *v) {
    if (isa<Constant>(v) && !isa<GlobalValue>(v))
      return;
    if (varied_.insert(v).second)
      work_.push_back(v);
  }

  /// A callee given `ptr` may load the addresses of this function's
  /// locals and heap blocks stored in `ptr`'s memory and write active data
  /// through them (a lambda's capture struct holding `&acc`): those
  /// objects' memory is active too.
  void VaryLocalsStoredIn(const Value *ptr, unsigned depth = 0) {
    if (depth > 2)
      return;
    SmallVector<const Value *, 4> objs;
    getUnderlyingObjects(ptr, objs);
    for (const Value *o : objs) {
      if (!isa<AllocaInst>(o))
        continue;
      for (const User *u : o->users()) {
        SmallVector<const Value *, 8> work = {u};
        // Stores into the object or a field of it (clang -O0's GEPs).
        while (!work.empty()) {
          const Value *w = work.pop_back_val();
          if (const auto *gep = dyn_cast<GetElementPtrInst>(w)) {
            for (const User *gu : gep->users())
              work.push_back(gu);
            continue;
          }
          const auto *st = dyn_cast<StoreInst>(w);
          if (!st || !st->getValueOperand()->getType()->isPointerTy() ||
              getUnderlyingObject(st->getPointerOperand()) != o)
            continue;
          const Value *stored = getUnderlyingObject(st->getValueOperand());
          if (stored == o)
            continue;
          bool local = isa<AllocaInst>(stored);
          if (const auto *c = dyn_cast<CallBase>(stored))
            local = ClassifyAllocation(*c) != AllocKind::None;
          if (!local || memory_.count(st->getValueOperand()))
            continue;
          VaryMemory(st->getValueOperand());
          VaryLocalsStoredIn(st->getValueOperand(), depth + 1);
        }
      }
    }
  }

  /// Marks the objects `ptr` may point into as holding active data.
  void VaryMemory(const Value *ptr) {
    // Memory the user declared inactive (__enzyme_inactive_global) never
    // holds active data, whatever is stored there.
    if (InInactiveGlobal(ptr) || !memory_.insert(ptr).second)
      return;
    SmallVector<const Value *, 4> objs;
    getUnderlyingObjects(ptr, objs);
    for (const Value *o : objs) {
      Vary(o);
      // A pointer loaded from memory: that memory holds pointers to active
      // data, so it needs a shadow too (to hold the shadow pointers).
      if (const auto *l = dyn_cast<LoadInst>(o))
        VaryMemory(l->getPointerOperand());
      // A pointer taken out of an aggregate (a call returning {ptr, i64}):
      // the aggregate's field carries it.
      if (const auto *ev = dyn_cast<ExtractValueInst>(o))
        VaryField(ev->getAggregateOperand(), ev->getIndices());
      // A pointer returned by a call (a reference into `this`, say) may
      // point into the memory of any pointer it was given.
      if (const auto *call = dyn_cast<CallBase>(o))
        if (ClassifyAllocation(*call) == AllocKind::None &&
            !IsInactiveCall(*call))
          for (const Use &a : call->args())
            if (a->getType()->isPtrOrPtrVectorTy())
              VaryMemory(a.get());
      // A pointer made of an integer: the memory of the pointers whose
      // addresses that integer may carry.
      if (const auto *op = dyn_cast<Operator>(o);
          op && op->getOpcode() == Instruction::IntToPtr) {
        SmallVector<const Value *, 4> sources;
        bool exact = true;
        AddressSources(op->getOperand(0), sources, exact);
        for (const Value *p : sources)
          VaryMemory(p);
      }
    }
    Vary(ptr);
  }

  /// Whether field `idx` of `agg` may hold a varied value, as far as is
  /// known now: through insertvalue chains, phis and selects; any other
  /// aggregate (a load, a call, an argument) as a whole.
  bool FieldMayBeVaried(const Value *agg, ArrayRef<unsigned> idx,
                        SmallPtrSetImpl<const Value *> &seen) {
    if (isa<Constant>(agg))
      return false;
    if (idx.empty())
      return varied_.count(agg) > 0;
    if (const auto *iv = dyn_cast<InsertValueInst>(agg)) {
      switch (Overlap(iv->getIndices(), idx)) {
      case FieldOverlap::Disjoint:
        return FieldMayBeVaried(iv->getAggregateOperand(), idx, seen);
      case FieldOverlap::Covers:
        return FieldMayBeVaried(iv->getInsertedValueOperand(),
                                idx.drop_front(iv->getNumIndices()), seen);
      case FieldOverlap::Within:
        return varied_.count(iv->getInsertedValueOperand()) > 0 ||
               FieldMayBeVaried(iv->getAggregateOperand(), idx, seen);
      }
    }
    if (isa<PHINode>(agg) || isa<SelectInst>(agg)) {
      if (!seen.insert(agg).second)
        return false; // A cycle adds nothing its entries do not bring.
      return any_of(JoinedValues(agg), [&](const Value *in) {
        return FieldMayBeVaried(in, idx, seen);
      });
    }
    return varied_.count(agg) > 0;
  }

  /// Fields that became varied after their extractvalue was looked at:
  /// varied now, and the fixpoint goes on, until nothing changes.
  void RefineFields() {
    for (bool changed = true; changed;) {
      changed = false;
      for (const Instruction &i : instructions(f_)) {
        const auto *ev = dyn_cast<ExtractValueInst>(&i);
        if (!ev || varied_.count(ev) ||
            !varied_.count(ev->getAggregateOperand()))
          continue;
        SmallPtrSet<const Value *, 8> seen;
        if (FieldMayBeVaried(ev->getAggregateOperand(), ev->getIndices(),
                             seen)) {
          Vary(ev);
          changed = true;
        }
      }
      if (changed)
        SolveVaried();
    }
  }

  /// Field `idx` of aggregate `agg` points to active memory: what was
  /// inserted there, through insertvalue chains, phis and selects; other
  /// aggregates (loads, calls) as a whole.
  void VaryField(const Value *agg, ArrayRef<unsigned> idx) {
    if (idx.empty()) {
      VaryAggregate(agg);
      return;
    }
    if (const auto *iv = dyn_cast<InsertValueInst>(agg)) {
      switch (Overlap(iv->getIndices(), idx)) {
      case FieldOverlap::Disjoint:
        VaryField(iv->getAggregateOperand(), idx);
        return;
      case FieldOverlap::Covers:
        VaryField(iv->getInsertedValueOperand(),
                  idx.drop_front(iv->getNumIndices()));
        return;
      case FieldOverlap::Within:
        VaryAggregate(iv->getInsertedValueOperand());
        VaryField(iv->getAggregateOperand(), idx);
        return;
      }
    }
    if (isa<PHINode>(agg) || isa<SelectInst>(agg)) {
      std::vector<unsigned> key(idx.begin(), idx.end());
      if (!fields_.insert({agg, key}).second)
        return;
      Vary(agg);
      for (const Value *in : JoinedValues(agg))
        VaryField(in, idx);
      return;
    }
    VaryAggregate(agg);
  }

  /// Whether `p` points into the memory of an argument not varied (one the
  /// caller passed as constant).
  bool IntoConstantArgument(const Value *p) const {
    if (varied_.count(p))
      return false;
    SmallVector<const Value *, 4> objs;
    getUnderlyingObjects(p, objs);
    return !objs.empty() && all_of(objs, [&](const Value *o) {
      return isa<Argument>(o) && !varied_.count(o);
    });
  }

  /// `v` (a pointer or an aggregate holding pointers) points to memory the
  /// caller treats as active.
  /// With `keep_constant_args`, a pointer that points into a constant
  /// argument's memory stays inactive: the caller declared that memory
  /// inactive (Numba's meminfo and parent beside an array's data).
  void VaryAggregate(const Value *v, bool keep_constant_args = false) {
    if (v->getType()->isPtrOrPtrVectorTy()) {
      if (keep_constant_args && !varied_.count(v) &&
          isa<Argument>(getUnderlyingObject(v)) &&
          !varied_.count(getUnderlyingObject(v)))
        return;
      VaryMemory(v);
      return;
    }
    if (const auto *iv = dyn_cast<InsertValueInst>(v)) {
      VaryAggregate(iv->getInsertedValueOperand(), keep_constant_args);
      VaryAggregate(iv->getAggregateOperand(), keep_constant_args);
      return;
    }
    // Structs joined from several paths (Numba's array structs at -O0):
    // every incoming struct carries the pointers.
    if (isa<PHINode>(v) || isa<SelectInst>(v)) {
      if (!aggregates_.insert(v).second)
        return;
      Vary(v);
      for (const Value *in : JoinedValues(v))
        VaryAggregate(in, keep_constant_args);
      return;
    }
    if (!CarriesDerivative(v->getType()))
      return;
    Vary(v);
    if (const auto *l = dyn_cast<LoadInst>(v))
      VaryMemory(l->getPointerOperand());
  }

  /// The type analysis saw a pointer stored somewhere in `ptr`'s memory.
  bool MayHoldPointers(const Value *ptr) {
    if (!types_)
      types_.emplace(TypeInfo::Compute(f_));
    return any_of(types_->TypesAt(ptr).at, [](const auto &e) {
      return e.second.kind == BaseType::Pointer ||
             e.second.kind == BaseType::Anything;
    });
  }

  void SolveVaried() {
    while (!work_.empty()) {
      const Value *v = work_.pop_back_val();
      for (const User *u : v->users()) {
        const auto *i = dyn_cast<Instruction>(u);
        if (!i || i->getFunction() != &f_)
          continue;
        VisitUserOfVaried(*i, v);
      }
    }
  }

  void VisitUserOfVaried(const Instruction &i, const Value *v) {
    // Atomic read-modify-write and compare-exchange both store and load:
    // a varied value stored makes the memory active, and the old value
    // they return is read from it.
    if (const Value *stored = AtomicStoredValue(i)) {
      if (stored == v)
        VaryMemory(AtomicPointer(i));
      if (v != AtomicPointer(i) && stored != v)
        return; // The compared value: decides, carries nothing.
      Vary(&i);
      return;
    }
    if (const auto *st = dyn_cast<StoreInst>(&i)) {
      Vary(st);
      if (st->getValueOperand() == v)
        VaryMemory(st->getPointerOperand());
      // Memory holding active data that receives a pointer: the pointee is
      // reachable from active memory, so it needs a shadow.
      // So is the memory of every pointer of a struct stored whole.
      if (st->getPointerOperand() == v &&
          ContainsPointer(st->getValueOperand()->getType()))
        VaryAggregate(st->getValueOperand(), /*keep_constant_args=*/true);
      return;
    }
    if (const auto *call = dyn_cast<CallBase>(&i)) {
      if (IsInactiveCall(*call))
        return;
      if (const auto *mt = dyn_cast<MemTransferInst>(call)) {
        // The raw operands: getSource() and getDest() strip zero-offset
        // GEPs (clang -O0's `gep [2 x double], ptr %a, 0, 0`), which are
        // the varied values seen here.
        if (v == mt->getRawSource())
          VaryMemory(mt->getRawDest());
        // Active memory that receives a copy of pointers: the destination's
        // shadow must then hold their shadows, which come from the
        // source's shadow, so the source needs one too. (Floats copied
        // from inactive memory need nothing: their adjoint is dropped.)
        if (v == mt->getRawDest() && !IsConstantMemory(mt->getRawSource()) &&
            MayHoldPointers(mt->getRawSource()))
          VaryMemory(mt->getRawSource());
        return;
      }
      if (isa<MemSetInst>(call))
        return;
      AllocKind ak = ClassifyAllocation(*call);
      if (ak == AllocKind::Free || ak == AllocKind::RefCount)
        return;
      // The callee may store active data through pointers it gets, except
      // into a constant argument's memory: the caller declared it inactive
      // (a callee kept as a call that stores active data there is refused
      // when its own derivative is made). At -O0 every parameter goes
      // through a stack slot, so "may write" is the answer for most of
      // them.
      for (const Use &a : call->args())
        if (a->getType()->isPtrOrPtrVectorTy() &&
            !IntoConstantArgument(a.get())) {
          if (writes_.MayWrite(*call, call->getArgOperandNo(&a)))
            VaryMemory(a.get());
          VaryLocalsStoredIn(a.get());
        }
      Vary(call);
      return;
    }
    if (isa<CmpInst>(i) || isa<FPToSIInst>(i) || isa<FPToUIInst>(i))
      return;
    // A field of a varied struct is varied only if what was put there may
    // be (rustc -O0's zip keeps the constant slice's element pointer beside
    // the active one's; RefineFields() looks again once everything else is
    // known).
    if (const auto *ev = dyn_cast<ExtractValueInst>(&i)) {
      SmallPtrSet<const Value *, 8> seen;
      if (!FieldMayBeVaried(ev->getAggregateOperand(), ev->getIndices(), seen))
        return;
    }
    // An index read from active memory (a length stored beside an active
    // pointer) moves the address, not what is stored there; an index that
    // is itself an address (a byte GEP whose base is an offset made a
    // pointer, as address sinking builds them) is where the address is.
    if (const auto *gep = dyn_cast<GetElementPtrInst>(&i))
      if (gep->getPointerOperand() != v &&
          !IsAddressInteger(v, /*offsets_only=*/true))
        return;
    if (i.getType()->isVoidTy())
      return;
    // Pointer arithmetic on integers (Numba's strided views:
    // inttoptr(ptrtoint(data) + i * stride)): the address stays varied.
    if (isa<BinaryOperator>(i) && i.getType()->isIntegerTy() &&
        IsAddressInteger(v)) {
      Vary(&i);
      return;
    }
    if (!CarriesDerivative(i.getType()) && !MovesRawBits(i))
      return;
    // A load through a varied pointer reads active memory; other
    // instructions are varied through any operand.
    Vary(&i);
    // A pointer joined from several paths: what every path brings needs a
    // shadow (a temporary that jump threading duplicated onto a path where
    // nothing active is written into it).
    if ((isa<PHINode>(i) || isa<SelectInst>(i)) &&
        i.getType()->isPtrOrPtrVectorTy())
      VaryMemory(&i);
  }

  void MarkUseful(const Value *v) {
    if (isa<Constant>(v) && !isa<GlobalValue>(v))
      return;
    if (useful_.insert(v).second)
      work_.push_back(v);
  }

  void SeedUseful(bool active_return) {
    for (const Instruction &i : instructions(f_)) {
      if (const auto *ret = dyn_cast<ReturnInst>(&i)) {
        if (active_return && ret->getReturnValue())
          MarkUseful(ret->getReturnValue());
      } else if (isa<StoreInst>(i) || AtomicStoredValue(i)) {
        // Stores into active memory, and any store of an active pointer.
        MarkUseful(&i);
      } else if (const auto *call = dyn_cast<CallBase>(&i)) {
        if (!IsInactiveCall(*call))
          MarkUseful(call);
      }
    }
    while (!work_.empty()) {
      const Value *v = work_.pop_back_val();
      const auto *i = dyn_cast<Instruction>(v);
      if (!i)
        continue;
      for (const llvm::Use &op : i->operands())
        MarkUseful(op.get());
      // A loaded value is useful, so the memory it reads is: every store
      // into objects it may read is already a seed.
    }
    // Every varied pointer is useful: its shadow is needed for stores.
    for (const Value *v : varied_)
      if (v->getType()->isPtrOrPtrVectorTy())
        useful_.insert(v);
  }

private:
  const Function &f_;
  SmallPtrSetImpl<const Value *> &varied_;
  SmallPtrSetImpl<const Value *> &useful_;
  SmallVector<const Value *, 32> work_;
  SmallPtrSet<const Value *, 32> memory_;
  SmallPtrSet<const Value *, 16> aggregates_; ///< Phis and selects seen.
  std::set<std::pair<const Value *, std::vector<unsigned>>> fields_;
  WriteOracle writes_;
  std::optional<TypeInfo> types_;
};

} // namespace

ActivityInfo ActivityInfo::Compute(const Function &f,
                                   ArrayRef<const Argument *> active_args,
                                   bool active_return) {
  ActivityInfo info;
  info.f_ = &f;
  Solver s(f, info.varied_, info.useful_);
  for (const Argument *a : active_args)
    s.Vary(a);
  // Globals that carry a shadow (`!enzyme_shadow`) hold active data.
  for (const Instruction &i : instructions(f))
    for (const Value *op : i.operands())
      if (const auto *gv =
              dyn_cast<GlobalVariable>(op->stripPointerCasts()))
        if (gv->getMetadata("enzyme_shadow"))
          s.Vary(gv);
  // A returned pointer whose shadow the caller asks for points to memory
  // the caller treats as active.
  // (The returned values' types, not f's: a reverse derivative's copy of
  // the primal returns the primal's values until its returns are rewritten.)
  if (active_return)
    for (const Instruction &i : instructions(f))
      if (const auto *ret = dyn_cast<ReturnInst>(&i))
        if (ret->getReturnValue() &&
            ContainsPointer(ret->getReturnValue()->getType()))
          s.VaryAggregate(ret->getReturnValue());
  s.SolveVaried();
  s.RefineFields();
  s.SeedUseful(active_return);
  return info;
}

void ActivityInfo::Print(raw_ostream &os) const {
  auto Describe = [&](const Value &v) {
    if (IsActive(&v))
      return "active";
    if (!IsVaried(&v))
      return "inactive (does not depend on an active input)";
    return "inactive (reaches no active output)";
  };
  os << "activity of " << f_->getName() << ":\n";
  for (const Argument &a : f_->args()) {
    os << "  arg ";
    a.printAsOperand(os, /*PrintType=*/true);
    os << ": " << Describe(a) << "\n";
  }
  for (const Instruction &i : instructions(*f_)) {
    if (i.getType()->isVoidTy() && !isa<StoreInst>(i) && !isa<CallBase>(i))
      continue;
    os << "  ";
    i.print(os);
    os << " ; " << Describe(i) << "\n";
  }
}

PreservedAnalyses ActivityPrinterPass::run(Module &m,
                                           ModuleAnalysisManager &) {
  for (const Function &f : m) {
    if (f.isDeclaration())
      continue;
    SmallVector<const Argument *, 8> active;
    for (const Argument &a : f.args())
      if (CarriesDerivative(a.getType()))
        active.push_back(&a);
    bool ret = CarriesDerivative(f.getReturnType());
    ActivityInfo::Compute(f, active, ret).Print(os_);
  }
  return PreservedAnalyses::all();
}

bool MayWriteThrough(const CallBase &call, unsigned i) {
  WriteOracle oracle;
  return oracle.MayWrite(call, i);
}

} // namespace autodiff
