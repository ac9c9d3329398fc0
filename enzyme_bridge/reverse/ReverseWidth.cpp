//===- enzyme_bridge/reverse/ReverseWidth.cpp - Vector reverse mode -------===//
//
// `enzyme_width N` in `__enzyme_autodiff`: N reverse sweeps at once, each
// with its own shadows and seed, over one run of the primal (its side
// effects happen once).
//
// The combined derivative of width 1 is emitted as usual, then widened:
// every instruction whose value or effect depends on a shadow ("lane
// work") is repeated N times in place, lane k reading lane k's shadows;
// everything else (the primal, the tape, control flow, loop counters) is
// kept once and shared by the lanes. Which instructions are lane work
// follows from the shadow arguments and the seed by data flow, and
// through memory: a stack slot or heap block of the derivative into which
// lane work is stored (an adjoint accumulator, a shadow allocation, a
// tape slot holding a shadow pointer) is itself repeated per lane. Memory
// that only ever holds values shared by the lanes stays shared.
//
// What the widening cannot repeat soundly is refused with a diagnostic:
// lane work stored into memory that is not the derivative's own (a
// registered global shadow, tape arrays kept by helper functions), a branch
// on lane work, calls with lane work to functions that are neither
// allocation functions nor free of side effects (split derivatives of
// recursive or noinline callees, custom rules).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/reverse/ReverseMode.h"
#include "support/StatusMacros.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace autodiff {
namespace {

/// Pointer values stored into the derivative's own memory, by object: a
/// stack slot or allocation, or a tape array (by its slot). Memory also
/// written by a call or a copy is opaque.
struct PointerContents {
  DenseMap<const Value *, SmallVector<const Value *, 4>> of;
  DenseSet<const Value *> opaque;
};

class Widener {
public:
  Widener(Function &f, const DiffRequest &r,
          DenseMap<Value *, SmallVector<Value *, 4>> lane_args)
      : f_(f), width_(r.width), primal_(r.fn->getName().str()),
        primal_return_(r.return_primal), lanes_(std::move(lane_args)) {
    for (ArgActivity a : r.args)
      outs_ += a == ArgActivity::Out ? 1 : 0;
  }

  absl::Status Run(Type *wide_return);

private:
  bool Tainted(const Value *v) const { return tainted_.count(v) > 0; }
  absl::Status ComputeTaint();
  void Propagate();
  absl::Status NeedLaneObjects(Instruction &write, Value *ptr, bool &grew);
  bool LocalObject(const Value *obj) const;
  bool LaneTapeGroup(AllocaInst &slot, bool &grew);
  void OwnObjectsPerLane(Value *ptr, bool &grew);
  void ComputeLaneData();
  bool ReadsCopy(const LoadInst &load) const;
  bool LaneData(const Value *v) const { return data_.count(v) > 0; }
  absl::Status CheckLaneWork();
  absl::Status CheckCall(CallBase &call);
  void Replicate();
  Value *LaneOf(Value *v, unsigned k);
  void RewriteReturns(Type *wide_return);
  absl::Status Refuse(Instruction &i, const std::string &why);

  Function &f_;
  unsigned width_;
  std::string primal_;
  bool primal_return_;
  unsigned outs_ = 0;
  /// Lane values: [0] is the value itself.
  DenseMap<Value *, SmallVector<Value *, 4>> lanes_;
  DenseSet<const Value *> tainted_;
  SmallPtrSet<Value *, 8> lane_objects_;
  PointerContents contents_;
  /// What differs between the lanes (the shadows, the seeds, the adjoints
  /// and what is computed of them), unlike a lane's copy of shared data (a
  /// tape array's entries that every lane wrote alike): a branch may
  /// depend on the latter, taking lane 0's copy.
  DenseSet<const Value *> data_;
  /// Memory holding lane data: objects, and tape arrays by their slots.
  DenseSet<const Value *> data_objects_, data_arrays_;
  bool IsDataMemory(const std::pair<const Value *, bool> &m) const {
    return (m.second ? data_arrays_ : data_objects_).count(m.first) > 0;
  }
  bool AddDataMemory(const std::pair<const Value *, bool> &m) {
    return (m.second ? data_arrays_ : data_objects_).insert(m.first).second;
  }
};

absl::Status Widener::Refuse(Instruction &i, const std::string &why) {
  return ErrorAt(absl::StatusCode::kUnimplemented, i,
                 "enzyme_width " + std::to_string(width_) +
                     " in reverse mode (vector reverse mode) of `" + primal_ +
                     "` does not yet support " + why);
}

void Widener::Propagate() {
  tainted_.clear();
  SmallVector<Value *, 64> work;
  for (auto &entry : lanes_)
    if (isa<Argument>(entry.first))
      work.push_back(entry.first);
  for (Value *obj : lane_objects_)
    work.push_back(obj);
  for (Value *v : work)
    tainted_.insert(v);
  while (!work.empty()) {
    Value *v = work.pop_back_val();
    for (User *u : v->users()) {
      auto *i = dyn_cast<Instruction>(u);
      if (i && i->getFunction() == &f_ && tainted_.insert(i).second &&
          !i->getType()->isVoidTy())
        work.push_back(i);
    }
  }
}

/// Whether `obj` is a stack slot or a heap block whose memory is only what
/// the function stores into it (not a Numba MemInfo, which its allocator
/// fills).
static bool IsOwnAllocation(const Value *obj) {
  if (isa<AllocaInst>(obj))
    return true;
  const auto *call = dyn_cast<CallBase>(obj);
  if (!call)
    return false;
  switch (ClassifyAllocation(*call)) {
  case AllocKind::Malloc:
  case AllocKind::AlignedAlloc:
  case AllocKind::Calloc:
  case AllocKind::Realloc:
  case AllocKind::RustRealloc:
    return true;
  default:
    return false;
  }
}

bool Widener::LocalObject(const Value *obj) const {
  const auto *i = dyn_cast<Instruction>(obj);
  return i && i->getFunction() == &f_ && IsOwnAllocation(obj);
}

/// The values stored into stack slot `slot`, when every use of the slot
/// is a load from it or a store into it (its address goes nowhere else).
static bool StoredInto(const AllocaInst &slot,
                       SmallVectorImpl<const Value *> &values) {
  for (const User *u : slot.users()) {
    if (isa<LoadInst>(u))
      continue;
    const auto *st = dyn_cast<StoreInst>(u);
    if (!st || st->getValueOperand() == &slot)
      return false;
    values.push_back(st->getValueOperand());
  }
  return true;
}

static bool IsTapeHelper(const CallBase &call);

/// The object a write through `base` (an underlying object) writes: the
/// object itself, or for a tape array (`base` loaded from its slot) the
/// slot.
static const Value *ContentsKey(const Value *base) {
  const auto *ld = dyn_cast<LoadInst>(base);
  if (ld && isa<AllocaInst>(ld->getPointerOperand()))
    return ld->getPointerOperand();
  return base;
}

static PointerContents ComputeContents(Function &f) {
  PointerContents c;
  SmallVector<const Value *, 4> bases;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      if (auto *st = dyn_cast<StoreInst>(&i)) {
        if (!st->getValueOperand()->getType()->isPointerTy())
          continue;
        bases.clear();
        getUnderlyingObjects(st->getPointerOperand(), bases);
        for (const Value *b : bases)
          c.of[ContentsKey(b)].push_back(st->getValueOperand());
        continue;
      }
      auto *call = dyn_cast<CallBase>(&i);
      AllocKind kind = call ? ClassifyAllocation(*call) : AllocKind::None;
      if (!call || call->onlyReadsMemory() || IsTapeHelper(*call) ||
          isa<MemSetInst>(call) || kind == AllocKind::Free)
        continue;
      if (auto *ii = dyn_cast<IntrinsicInst>(call); ii && ii->isAssumeLikeIntrinsic())
        continue;
      for (Value *arg : call->args())
        if (arg->getType()->isPointerTy()) {
          bases.clear();
          getUnderlyingObjects(arg, bases);
          for (const Value *b : bases)
            c.opaque.insert(ContentsKey(b));
        }
      // A reallocated block holds what its old block held.
      if (kind == AllocKind::Realloc || kind == AllocKind::RustRealloc)
        c.opaque.insert(call);
    }
  return c;
}

/// The pointers whose addresses integer `v` may carry (`ptrtoint`, moved
/// through stack slots, phis, selects and constant offsets: a Rust Vec's
/// buffer coming back from its growth path as an integer kept in a slot);
/// false when it may carry another integer.
static bool AddressesCarried(const Value *v,
                             SmallVectorImpl<const Value *> &pointers,
                             SmallPtrSetImpl<const Value *> &seen) {
  if (!seen.insert(v).second)
    return true;
  if (seen.size() > 64)
    return false;
  if (const auto *op = dyn_cast<Operator>(v);
      op && op->getOpcode() == Instruction::PtrToInt) {
    pointers.push_back(op->getOperand(0));
    return true;
  }
  if (const auto *phi = dyn_cast<PHINode>(v))
    return all_of(phi->incoming_values(), [&](const Value *in) {
      return AddressesCarried(in, pointers, seen);
    });
  if (const auto *sel = dyn_cast<SelectInst>(v))
    return AddressesCarried(sel->getTrueValue(), pointers, seen) &&
           AddressesCarried(sel->getFalseValue(), pointers, seen);
  if (const auto *bin = dyn_cast<BinaryOperator>(v);
      bin && (bin->getOpcode() == Instruction::Add ||
              bin->getOpcode() == Instruction::Sub) &&
      isa<ConstantInt>(bin->getOperand(1)))
    return AddressesCarried(bin->getOperand(0), pointers, seen);
  if (isa<ConstantInt>(v))
    return true; // Zero, or a dangling constant address: no object.
  const auto *ld = dyn_cast<LoadInst>(v);
  const auto *slot = ld ? dyn_cast<AllocaInst>(ld->getPointerOperand()) : nullptr;
  if (!slot)
    return false;
  // A stack slot of the derivative (zeroed at the entry, as a shadow
  // slot is): the integers stored into it, also through phis and selects
  // of its address (a store sunk below a branch into one of two slots).
  SmallVector<const Value *, 4> addresses = {slot};
  SmallPtrSet<const Value *, 8> known = {slot};
  while (!addresses.empty()) {
    const Value *a = addresses.pop_back_val();
    for (const User *u : a->users()) {
      if (isa<LoadInst>(u) || isa<LifetimeIntrinsic>(u))
        continue;
      if (isa<PHINode>(u) || isa<SelectInst>(u)) {
        if (known.insert(u).second)
          addresses.push_back(u);
        continue;
      }
      if (const auto *ms = dyn_cast<MemSetInst>(u)) {
        if (ms->getRawDest() == a && match(ms->getValue(), m_Zero()))
          continue;
        return false;
      }
      const auto *st = dyn_cast<StoreInst>(u);
      if (!st || st->getValueOperand() == a ||
          !AddressesCarried(st->getValueOperand(), pointers, seen))
        return false;
    }
  }
  return true;
}

/// The objects `ptr` may point into, looking through pointers the
/// derivative keeps in its own memory (a shadow allocation whose address
/// is cached for the reverse sweep, in a stack slot or a tape array; a
/// shadow list node's address in another node); a pointer loaded from
/// other memory is its own object.
static void ObjectsOf(const Value *ptr, SmallVectorImpl<const Value *> &out,
                      SmallPtrSetImpl<const Value *> &seen,
                      const PointerContents *contents = nullptr) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(ptr, objects, nullptr, /*MaxLookup=*/0);
  for (const Value *obj : objects) {
    if (!seen.insert(obj).second)
      continue;
    // A pointer made of an integer: the objects of the pointers whose
    // addresses it carries.
    if (const auto *op = dyn_cast<Operator>(obj);
        op && op->getOpcode() == Instruction::IntToPtr &&
        !isa<ConstantInt>(op->getOperand(0))) {
      SmallVector<const Value *, 4> pointers;
      SmallPtrSet<const Value *, 8> visited;
      if (AddressesCarried(op->getOperand(0), pointers, visited)) {
        for (const Value *p : pointers)
          ObjectsOf(p, out, seen, contents);
        continue;
      }
    }
    const auto *ld = dyn_cast<LoadInst>(obj);
    const auto *slot =
        ld ? dyn_cast<AllocaInst>(ld->getPointerOperand()) : nullptr;
    SmallVector<const Value *, 4> stored;
    if (slot && StoredInto(*slot, stored)) {
      for (const Value *v : stored)
        ObjectsOf(v, out, seen, contents);
      continue;
    }
    // A pointer loaded from the derivative's own memory that only stores
    // write pointers into: one of the pointers stored there.
    SmallVector<const Value *, 4> bases;
    bool known = ld && contents && !slot;
    if (known) {
      // Where the address points (a list node reached through the node
      // before it: the cycle through this load is cut).
      SmallPtrSet<const Value *, 8> cut(seen.begin(), seen.end());
      ObjectsOf(ld->getPointerOperand(), bases, cut, contents);
      // (A constant table's shadow sink holds only null pointers.)
      llvm::erase_if(bases, IsConstantMemorySink);
      for (const Value *b : bases) {
        const auto *bl = dyn_cast<LoadInst>(b);
        bool own = IsOwnAllocation(b) ||
                   (bl && isa<AllocaInst>(bl->getPointerOperand()));
        if (!own || contents->opaque.count(ContentsKey(b)))
          known = false;
      }
    }
    if (known) {
      for (const Value *b : bases) {
        auto it = contents->of.find(ContentsKey(b));
        if (it != contents->of.end())
          for (const Value *v : it->second)
            ObjectsOf(v, out, seen, contents);
      }
      continue;
    }
    out.push_back(obj);
  }
}

/// The memory `ptr` may reach: (object, false) for an object's own memory,
/// (slot, true) for the tape array whose address stack slot `slot` holds.
static void MemoryOf(const Value *ptr,
                     SmallVectorImpl<std::pair<const Value *, bool>> &out) {
  SmallVector<const Value *, 4> objects;
  SmallPtrSet<const Value *, 8> seen;
  ObjectsOf(ptr, objects, seen);
  for (const Value *obj : objects) {
    const auto *ld = dyn_cast<LoadInst>(obj);
    if (ld && isa<AllocaInst>(ld->getPointerOperand()))
      out.push_back({ld->getPointerOperand(), true});
    else
      out.push_back({obj, false});
  }
}

/// Whether `call` is a tape helper of the derivative (which keeps the
/// arrays of a loop's caches: ReverseTapeArrays.cpp).
static bool IsTapeHelper(const CallBase &call) {
  const Function *f = call.getCalledFunction();
  return f && !f->isDeclaration() && f->hasInternalLinkage() &&
         (f->getName().contains(".tape.reserve.") ||
          f->getName().contains(".tape.release."));
}

/// `slot` holds the address of a tape array that lane work is stored
/// into: every slot of its loop's tape (the helpers reserve and release
/// them together), the tape's capacity and the local buffers stored into
/// the slots become one copy per lane, and the helpers run once per lane.
bool Widener::LaneTapeGroup(AllocaInst &slot, bool &grew) {
  SmallVector<AllocaInst *, 8> work = {&slot};
  SmallPtrSet<AllocaInst *, 16> seen = {&slot};
  while (!work.empty()) {
    AllocaInst *a = work.pop_back_val();
    for (User *u : a->users()) {
      if (isa<LoadInst>(u))
        continue;
      if (auto *st = dyn_cast<StoreInst>(u)) {
        if (st->getValueOperand() == a)
          return false;
        SmallVector<const Value *, 2> objects;
        getUnderlyingObjects(st->getValueOperand(), objects);
        for (const Value *obj : objects)
          if (LocalObject(obj))
            grew |= lane_objects_.insert(const_cast<Value *>(obj)).second;
        continue;
      }
      auto *call = dyn_cast<CallBase>(u);
      if (!call || !IsTapeHelper(*call))
        return false;
      for (unsigned k = 0; k < call->arg_size(); ++k) {
        auto *other = dyn_cast<AllocaInst>(call->getArgOperand(k));
        if (!other)
          continue;
        // The arrays' addresses differ between lanes; the capacity
        // (argument 0) evolves alike in every lane.
        if (k > 0)
          AddDataMemory({other, false});
        if (seen.insert(other).second)
          work.push_back(other);
      }
    }
    grew |= lane_objects_.insert(a).second;
  }
  return true;
}

/// A pointer no write reaches memory through: null, undefined, or a
/// constant address (Rust's dangling `8 as *mut f64` of an empty Vec,
/// joined in a phi with the buffer it grows into).
static bool HoldsNothing(const Value *obj) {
  if (isa<ConstantPointerNull>(obj) || isa<UndefValue>(obj))
    return true;
  const auto *ce = dyn_cast<ConstantExpr>(obj);
  return ce && ce->getOpcode() == Instruction::IntToPtr &&
         isa<ConstantInt>(ce->getOperand(0));
}

/// `write` stores lane work through `ptr`, which is shared: the memory it
/// reaches must become one object per lane.
absl::Status Widener::NeedLaneObjects(Instruction &write, Value *ptr,
                                      bool &grew) {
  SmallVector<const Value *, 4> objects;
  SmallPtrSet<const Value *, 8> seen;
  ObjectsOf(ptr, objects, seen, &contents_);
  for (const Value *obj : objects) {
    if (IsSinkArena(obj) || HoldsNothing(obj))
      continue;
    auto *o = const_cast<Value *>(obj);
    // Lane k's own memory: a shadow argument's, a lane copy, or memory a
    // lane's own pointer (loaded from lane memory, say) points to.
    if (lane_objects_.count(o) || lanes_.count(o) ||
        (!isa<Argument>(o) && !LocalObject(o) && Tainted(o)))
      continue;
    const auto *ld = dyn_cast<LoadInst>(obj);
    auto *slot = ld ? dyn_cast<AllocaInst>(ld->getPointerOperand()) : nullptr;
    if (slot && LaneTapeGroup(*const_cast<AllocaInst *>(slot), grew))
      continue;
    if (!LocalObject(obj))
      return Refuse(write,
                    "storing values of the reverse sweeps into memory that "
                    "is not the derivative's own (a global's registered "
                    "shadow, a tape array kept by a helper function, memory "
                    "reached through a loaded pointer)");
    grew |= lane_objects_.insert(o).second;
  }
  return absl::OkStatus();
}

/// A lane's pointer that may point into one of the derivative's own
/// objects (a phi choosing between the shadows of the arguments and of a
/// local allocation, as pointers are swapped in a loop): the object gets a
/// copy per lane, or lanes would share it.
void Widener::OwnObjectsPerLane(Value *ptr, bool &grew) {
  SmallVector<const Value *, 4> objects;
  SmallPtrSet<const Value *, 8> seen;
  ObjectsOf(ptr, objects, seen, &contents_);
  for (const Value *obj : objects) {
    if (LocalObject(obj)) {
      grew |= lane_objects_.insert(const_cast<Value *>(obj)).second;
      continue;
    }
    const auto *ld = dyn_cast<LoadInst>(obj);
    auto *slot = ld ? dyn_cast<AllocaInst>(ld->getPointerOperand()) : nullptr;
    if (slot && !lane_objects_.count(const_cast<AllocaInst *>(slot)))
      LaneTapeGroup(*const_cast<AllocaInst *>(slot), grew);
  }
}

absl::Status Widener::ComputeTaint() {
  contents_ = ComputeContents(f_);
  for (;;) {
    Propagate();
    bool grew = false;
    for (auto &entry : lanes_)
      if (entry.first->getType()->isPointerTy())
        OwnObjectsPerLane(entry.first, grew);
    for (BasicBlock &bb : f_)
      for (Instruction &i : bb) {
        if (!Tainted(&i))
          continue;
        if (i.getType()->isPointerTy() && !lane_objects_.count(&i))
          OwnObjectsPerLane(&i, grew);
        if (auto *st = dyn_cast<StoreInst>(&i)) {
          if (Tainted(st->getValueOperand()))
            AD_RETURN_IF_ERROR(
                NeedLaneObjects(i, st->getPointerOperand(), grew));
        } else if (auto *mt = dyn_cast<MemTransferInst>(&i)) {
          if (Tainted(mt->getRawSource()))
            AD_RETURN_IF_ERROR(NeedLaneObjects(i, mt->getRawDest(), grew));
        } else if (auto *call = dyn_cast<CallBase>(&i)) {
          // The adjoint of a copy adds into both of its operands' memory.
          Function *callee = call->getCalledFunction();
          if (callee && callee->getName().starts_with("autodiff.copy.adjoint."))
            for (Value *arg : call->args())
              if (arg->getType()->isPointerTy())
                AD_RETURN_IF_ERROR(NeedLaneObjects(i, arg, grew));
        } else if (auto *rmw = dyn_cast<AtomicRMWInst>(&i)) {
          AD_RETURN_IF_ERROR(
              NeedLaneObjects(i, rmw->getPointerOperand(), grew));
        } else if (auto *cx = dyn_cast<AtomicCmpXchgInst>(&i)) {
          AD_RETURN_IF_ERROR(
              NeedLaneObjects(i, cx->getPointerOperand(), grew));
        }
      }
    if (!grew)
      return absl::OkStatus();
  }
}

/// Whether `load` reads only the derivative's own memory that no lane
/// data was stored into (a lane's copy of a tape array, say).
bool Widener::ReadsCopy(const LoadInst &load) const {
  SmallVector<std::pair<const Value *, bool>, 4> memory;
  MemoryOf(load.getPointerOperand(), memory);
  return all_of(memory, [&](const std::pair<const Value *, bool> &m) {
    if (IsDataMemory(m))
      return false;
    if (m.second)
      return lane_objects_.count(const_cast<Value *>(m.first)) > 0;
    return LocalObject(m.first) || IsSinkArena(m.first);
  });
}

void Widener::ComputeLaneData() {
  for (;;) {
    data_.clear();
    SmallVector<const Value *, 64> work;
    for (auto &entry : lanes_)
      if (isa<Argument>(entry.first))
        work.push_back(entry.first);
    SmallVector<std::pair<const Value *, bool>, 4> memory;
    for (BasicBlock &bb : f_)
      for (Instruction &i : bb)
        if (auto *ld = dyn_cast<LoadInst>(&i)) {
          memory.clear();
          MemoryOf(ld->getPointerOperand(), memory);
          if (any_of(memory, [&](auto &m) { return IsDataMemory(m); }))
            work.push_back(ld);
        } else if (auto *cmp = dyn_cast<ICmpInst>(&i)) {
          // Lanes' addresses differ (a null test of a lane's allocation).
          if (cmp->getOperand(0)->getType()->isPtrOrPtrVectorTy() &&
              (Tainted(cmp->getOperand(0)) || Tainted(cmp->getOperand(1))))
            work.push_back(cmp);
        }
    for (const Value *v : work)
      data_.insert(v);
    while (!work.empty()) {
      const Value *v = work.pop_back_val();
      for (const User *u : v->users()) {
        if (!isa<Instruction>(u) || data_.count(u))
          continue;
        // Lane k's address of a copy of shared data reads shared data.
        if (auto *ld = dyn_cast<LoadInst>(u); ld && ReadsCopy(*ld))
          continue;
        data_.insert(u);
        work.push_back(u);
      }
    }
    bool grew = false;
    auto note = [&](const Value *ptr) {
      memory.clear();
      MemoryOf(ptr, memory);
      for (auto &m : memory)
        grew |= AddDataMemory(m);
    };
    for (BasicBlock &bb : f_)
      for (Instruction &i : bb) {
        if (auto *st = dyn_cast<StoreInst>(&i); st && LaneData(st->getValueOperand()))
          note(st->getPointerOperand());
        else if (auto *mt = dyn_cast<MemTransferInst>(&i);
                 mt && LaneData(mt->getRawSource()))
          note(mt->getRawDest());
        else if (auto *rmw = dyn_cast<AtomicRMWInst>(&i);
                 rmw && LaneData(rmw->getValOperand()))
          note(rmw->getPointerOperand());
      }
    if (!grew)
      return;
  }
}

absl::Status Widener::CheckCall(CallBase &call) {
  if (IsTapeHelper(call))
    return absl::OkStatus();
  if (isa<InvokeInst>(call) || isa<CallBrInst>(call))
    return Refuse(call, "an invoke whose operands depend on the shadows");
  Function *callee = call.getCalledFunction();
  if (!callee || Tainted(call.getCalledOperand()))
    return Refuse(call, "an indirect call whose operands depend on the "
                        "shadows");
  AllocKind kind = ClassifyAllocation(call);
  if (callee->isIntrinsic() || callee->doesNotAccessMemory() ||
      (kind != AllocKind::None && kind != AllocKind::NumbaMemInfo &&
       kind != AllocKind::RefCount))
    return absl::OkStatus();
  StringRef name = callee->getName();
  if (callee->isDeclaration() &&
      (name == "memset" || name == "memcpy" || name == "memmove"))
    return absl::OkStatus();
  // The derivative's own helpers that work on the memory they are given:
  // the adjoint of a copy (src' += dst'; dst' = 0), the list of shadows to
  // release, which takes each lane's in turn, and the sink check.
  if (!callee->isDeclaration() &&
      (name.starts_with("autodiff.copy.adjoint.") ||
       name == "__autodiff_record_release" ||
       name == "__autodiff_check_sink"))
    return absl::OkStatus();
  // A split derivative of a callee kept as a call (its halves are named
  // augmented_F and reversee_F, DiffRequest::DerivativeName) names F.
  std::string what = "a call to `" + callee->getName().str() + "`";
  for (StringRef prefix : {"augmented_", "reversee_"})
    if (name.starts_with(prefix) && name.size() > prefix.size())
      what = "a call kept as a call to `" +
             name.drop_front(prefix.size()).str() +
             "` (recursive or noinline; its derivative `" + name.str() +
             "`)";
  return Refuse(call, what + " that takes shadows or adjoints (the "
                             "derivative of a recursive or noinline callee, "
                             "a custom rule or a library call would run "
                             "once per lane)");
}

absl::Status Widener::CheckLaneWork() {
  for (BasicBlock &bb : f_)
    for (Instruction &i : bb) {
      if (!Tainted(&i))
        continue;
      if (isa<ReturnInst>(i) || isa<UnreachableInst>(i))
        continue;
      // A branch on what every lane computed alike takes lane 0's value.
      if (i.isTerminator() && !isa<InvokeInst>(i)) {
        if (any_of(i.operands(), [&](Value *op) { return LaneData(op); }))
          return Refuse(i, "a branch that depends on the shadows");
        continue;
      }
      if (auto *call = dyn_cast<CallBase>(&i))
        AD_RETURN_IF_ERROR(CheckCall(*call));
      if (isa<LandingPadInst>(i) || isa<CatchPadInst>(i) ||
          isa<CleanupPadInst>(i))
        return Refuse(i, "exception handling that depends on the shadows");
    }
  return absl::OkStatus();
}

Value *Widener::LaneOf(Value *v, unsigned k) {
  if (!Tainted(v))
    return v;
  auto it = lanes_.find(v);
  return it == lanes_.end() ? v : it->second[k];
}

void Widener::Replicate() {
  SmallVector<Instruction *, 64> work;
  for (BasicBlock &bb : f_)
    for (Instruction &i : bb)
      if (Tainted(&i) && !i.isTerminator())
        work.push_back(&i);
  for (Instruction *i : work) {
    SmallVector<Value *, 4> &lanes = lanes_[i];
    lanes.assign(1, i);
    Instruction *prev = i;
    for (unsigned k = 1; k < width_; ++k) {
      Instruction *c = i->clone();
      if (i->hasName())
        c->setName(i->getName() + ".lane" + Twine(k));
      c->insertAfter(prev->getIterator());
      lanes.push_back(c);
      prev = c;
    }
  }
  for (Instruction *i : work)
    for (unsigned k = 1; k < width_; ++k) {
      auto *c = cast<Instruction>(lanes_[i][k]);
      for (unsigned op = 0; op < c->getNumOperands(); ++op)
        c->setOperand(op, LaneOf(i->getOperand(op), k));
    }
}

/// The returns give [primal] + every gradient of width 1 (one leaf as
/// itself, several as a literal struct); the wide function returns
/// [primal] + for each gradient its N lanes.
void Widener::RewriteReturns(Type *wide_return) {
  SmallVector<ReturnInst *, 4> rets;
  for (BasicBlock &bb : f_)
    if (auto *ret = dyn_cast<ReturnInst>(bb.getTerminator()))
      rets.push_back(ret);
  unsigned count = (primal_return_ ? 1 : 0) + outs_;
  for (ReturnInst *ret : rets) {
    Value *v = ret->getReturnValue();
    if (!v)
      continue;
    IRBuilder<> b(ret);
    auto leaf = [&](unsigned j, unsigned k) -> Value * {
      Value *lane = LaneOf(v, k);
      return count == 1 ? lane : b.CreateExtractValue(lane, {j});
    };
    SmallVector<Value *, 8> leaves;
    if (primal_return_)
      leaves.push_back(leaf(0, 0));
    for (unsigned j = primal_return_ ? 1 : 0; j < count; ++j)
      for (unsigned k = 0; k < width_; ++k)
        leaves.push_back(leaf(j, k));
    Value *agg = leaves[0];
    if (leaves.size() > 1) {
      agg = PoisonValue::get(wide_return);
      for (unsigned j = 0; j < leaves.size(); ++j)
        agg = b.CreateInsertValue(agg, leaves[j], {j});
    }
    ReturnInst::Create(f_.getContext(), agg, ret->getIterator());
    ret->eraseFromParent();
  }
}

absl::Status Widener::Run(Type *wide_return) {
  AD_RETURN_IF_ERROR(ComputeTaint());
  ComputeLaneData();
  AD_RETURN_IF_ERROR(CheckLaneWork());
  Replicate();
  RewriteReturns(wide_return);
  return absl::OkStatus();
}

} // namespace

absl::Status EmitWideReverseDerivative(const DiffRequest &r, Function &out,
                                       DerivativeCache &cache) {
  DiffRequest one = r;
  one.width = 1;
  Function *lane = Function::Create(ReverseDerivativeType(one),
                                    GlobalValue::InternalLinkage,
                                    out.getName() + ".lane", out.getParent());
  lane->setCallingConv(out.getCallingConv());
  absl::Status s = [&]() -> absl::Status {
    AD_RETURN_IF_ERROR(RunExcludingFailedCandidates(
        *lane, [&](const ExcludedCandidates &excluded) {
          ReverseEmitter e(one, *lane, cache);
          e.SetOwner(out);
          e.InlineNoinlineCallees();
          e.ExcludeCandidates(excluded);
          return e.Run();
        }));
    // The width-1 body moves into `out`: its arguments become lane 0's,
    // and each shadow and seed gets the other lanes' arguments.
    ValueToValueMapTy vm;
    DenseMap<Value *, SmallVector<Value *, 4>> lanes;
    unsigned at = 0;
    FunctionType *fty = r.fn->getFunctionType();
    auto take = [&](Argument *from, bool wide) {
      Argument *to = out.getArg(at++);
      to->setName(from->getName());
      vm[from] = to;
      if (!wide)
        return;
      SmallVector<Value *, 4> &l = lanes[to];
      l.push_back(to);
      for (unsigned k = 1; k < r.width; ++k) {
        Argument *next = out.getArg(at++);
        next->setName(from->getName() + ".lane" + Twine(k));
        l.push_back(next);
      }
    };
    unsigned from = 0;
    for (unsigned i = 0; i < fty->getNumParams(); ++i) {
      take(lane->getArg(from++), false);
      if (r.args[i] == ArgActivity::Dup || r.args[i] == ArgActivity::DupNoNeed)
        take(lane->getArg(from++), true);
    }
    if (from < lane->arg_size())
      take(lane->getArg(from++), true); // The seed of the return.
    SmallVector<ReturnInst *, 4> returns;
    CloneFunctionInto(&out, lane, vm,
                      CloneFunctionChangeType::LocalChangesOnly, returns);
    // Lane k's arguments have lane 0's attributes; the result is new.
    AttributeList al = out.getAttributes();
    SmallVector<AttributeSet, 8> params;
    for (unsigned k = 0; k < out.arg_size(); ++k)
      params.push_back(al.getParamAttrs(k));
    for (auto &[arg0, l] : lanes)
      for (unsigned k = 1; k < l.size(); ++k)
        params[cast<Argument>(l[k])->getArgNo()] =
            al.getParamAttrs(cast<Argument>(arg0)->getArgNo());
    out.setAttributes(AttributeList::get(out.getContext(), al.getFnAttrs(),
                                         AttributeSet(), params));
    Widener w(out, r, std::move(lanes));
    return w.Run(out.getReturnType());
  }();
  lane->eraseFromParent();
  return s;
}

} // namespace autodiff
