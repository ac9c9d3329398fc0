//===- enzyme_bridge/reverse/ReverseShadows.cpp - Shadow pointers ---------===//
//
// The forward sweep computes, next to every active pointer, the pointer to
// its shadow memory (where adjoints accumulate): from the shadow arguments,
// through address arithmetic, phis and selects, loads of pointers stored
// in active memory, and fresh zeroed shadows for stack and heap
// allocations. A pointer stored into active memory has its shadow stored
// into the shadow memory, so a later load finds it. Shadows are values of
// the forward sweep; the reverse sweep reads them through Lookup(), like
// primal values.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/ShadowArenas.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/RuntimeAbort.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "support/StatusMacros.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {

namespace {

/// Where a pointer without a shadow came from, when that explains it: a
/// call to a function without a body ("; the pointer comes from `f`, ...").
std::string PointerOrigin(Value *ptr) {
  // A constant argument's memory stored beside active pointers (rustc -O0's
  // zip of an active and a constant slice keeps both iterators in one
  // struct): the analyses are not field-sensitive enough yet.
  if (auto *arg = dyn_cast<Argument>(getUnderlyingObject(ptr)))
    return "; the pointer points into " +
           (arg->hasName() ? "argument `" + arg->getName().str() + "`"
                           : std::string("an argument")) +
           ", which is constant (a workaround: pass it as duplicated, with a "
           "scratch shadow whose contents are ignored)";
  // A global without a registered shadow: how to give it one.
  if (isa<GlobalVariable>(getUnderlyingObject(ptr)))
    return "; " + NoShadowAdvice(*ptr);
  auto *call = dyn_cast<CallBase>(getUnderlyingObject(ptr));
  Function *callee = call ? CalledFunction(*call) : nullptr;
  if (!callee || !callee->isDeclaration()) {
    // Name the value at least, so the user can find it.
    std::string text;
    raw_string_ostream os(text);
    ptr->printAsOperand(os, /*PrintType=*/false);
    if (auto *i = dyn_cast<Instruction>(getUnderlyingObject(ptr)); i && i != ptr) {
      os << ", computed from ";
      i->printAsOperand(os, /*PrintType=*/false);
      os << " (`" << i->getOpcodeName() << "`)";
    } else if (auto *i = dyn_cast<Instruction>(ptr)) {
      os << " (`" << i->getOpcodeName() << "`)";
    }
    return "; the value without a shadow is " + text;
  }
  if (callee->getName() == "__cxa_allocate_exception")
    return "; the memory is a C++ exception object: an active value thrown "
           "as an exception has no derivative (throw a value that does not "
           "depend on the active inputs, or return the value instead)";
  return "; the pointer comes from a call to `" + callee->getName().str() +
         "`, which has no body and no derivative rule, so its shadow cannot "
         "be made (give its definition to the module, or register a custom "
         "derivative)";
}

} // namespace

namespace {

/// The `!enzyme_shadow` global of `g`, if registered.
Value *RegisteredShadow(GlobalVariable &g) {
  if (MDNode *md = g.getMetadata("enzyme_shadow"))
    if (md->getNumOperands() == 1)
      if (auto *c = dyn_cast_or_null<ConstantAsMetadata>(md->getOperand(0)))
        return c->getValue();
  return nullptr;
}

} // namespace

Value *ReverseEmitter::KnownShadow(Value *v) {
  if (isa<ConstantPointerNull>(v) || isa<UndefValue>(v) ||
      isa<ConstantAggregateZero>(v))
    return v;
  // A function's address (std::function's handler, stored beside the
  // captures): code has no adjoint, so it is its own shadow; calls through
  // it are dispatched on the primal pointer.
  if (isa<Function>(v->stripPointerCasts()))
    return v;
  // An address computed from null (the end of an empty std::vector) is
  // never dereferenced: its own shadow.
  if (auto *gep = dyn_cast<GetElementPtrInst>(v))
    if (isa<ConstantPointerNull>(gep->getPointerOperand()))
      return v;
  // An address in the first page, which is never mapped (Rust's dangling
  // pointer of an empty Vec or Box, the alignment as address): never
  // dereferenced, its own shadow.
  // (A constant expression, or an instruction: constant expressions in
  // phis become instructions before differentiating.)
  if (auto *op = dyn_cast<Operator>(v);
      op && op->getOpcode() == Instruction::IntToPtr)
    if (auto *addr = dyn_cast<ConstantInt>(op->getOperand(0));
        addr && addr->getValue().ult(4096))
      return v;
  if (Value *s = shadows_.lookup(v))
    return s;
  return ConstantMemorySink(v);
}

/// Constant memory (a `const` table, a string) joined with active pointers
/// (`p = k > 0 ? temporary : table`): its shadow is a zeroed global of the
/// same size where the adjoints of its loads are dropped. Nothing can store
/// into constant memory, so nothing reads them back.
Value *ReverseEmitter::ConstantMemorySink(Value *v) {
  auto *c = dyn_cast<Constant>(v);
  if (!c)
    return nullptr;
  auto *g = dyn_cast<GlobalVariable>(c->stripPointerCasts());
  if (!g) {
    auto *ce = dyn_cast<ConstantExpr>(c);
    if (!ce || ce->getOpcode() != Instruction::GetElementPtr)
      return nullptr;
    auto *base = ConstantMemorySink(ce->getOperand(0));
    if (!base)
      return nullptr;
    SmallVector<Constant *, 4> ops;
    for (Value *op : ce->operand_values())
      ops.push_back(cast<Constant>(op));
    ops[0] = cast<Constant>(base);
    return ce->getWithOperands(ops);
  }
  if (!g->isConstant() || !g->hasDefinitiveInitializer() ||
      g->getMetadata("enzyme_shadow"))
    return nullptr;
  Module &m = *out_.getParent();
  std::string name = (g->getName() + "'sink").str();
  if (GlobalVariable *sink = m.getNamedGlobal(name))
    return sink;
  auto *sink = new GlobalVariable(
      m, g->getValueType(), /*isConstant=*/false, GlobalValue::InternalLinkage,
      Constant::getNullValue(g->getValueType()), name);
  sink->setAlignment(g->getAlign());
  // Marked, so the widening knows it holds nothing (ReverseWidth.cpp).
  sink->setMetadata(kConstantSinkMetadata, MDNode::get(m.getContext(), {}));
  return sink;
}

bool IsSinkArena(const Value *v) {
  const auto *call = dyn_cast<CallBase>(v);
  const Function *f = call ? call->getCalledFunction() : nullptr;
  return f && f->getName() == "__autodiff_sink_shadow";
}

bool IsConstantMemorySink(const Value *v) {
  const auto *g = dyn_cast<GlobalVariable>(v);
  return g && g->getMetadata(kConstantSinkMetadata);
}

bool IsSinkShadow(const Value *v) {
  return IsSinkArena(v) || IsConstantMemorySink(v);
}

Value *ReverseEmitter::JoinedShadow(Value *p) {
  if (Value *s = KnownShadow(p))
    return s;
  // An argument without a shadow was passed as constant: whatever the
  // analyses say of pointers into it, the caller declared it inactive, so
  // on the paths that bring it the sink takes the adjoints.
  if (InConstantArgument(p))
    return SinkShadow();
  // A pointer the activity analysis finds inactive (it reaches no active
  // memory: a buffer std::vector has not filled yet, on one path into a
  // phi with its filled one): the sink takes the adjoints of loads through
  // it on the paths that bring it, and stores of active data through it
  // stop the program, as for constant memory.
  if (auto *i = dyn_cast<Instruction>(p);
      i && i->getType()->isPointerTy() && !Active(i))
    return SinkShadow();
  return nullptr;
}

bool ReverseEmitter::SinkOnly(Value *p) {
  if (Value *s = KnownShadow(p))
    return IsSinkShadow(s);
  if (InConstantArgument(p))
    return true;
  auto *i = dyn_cast<Instruction>(p);
  return i && i->getType()->isPointerTy() && !Active(i);
}

bool ReverseEmitter::InConstantArgument(Value *p) {
  if (!p->getType()->isPointerTy())
    return false;
  Value *obj = getUnderlyingObject(p);
  return isa<Argument>(obj) && obj->getType()->isPointerTy() &&
         !shadows_.count(obj);
}

Value *ReverseEmitter::InactivePartShadow(Type *t) {
  return t->isPointerTy() ? SinkShadow() : Constant::getNullValue(t);
}

Value *ReverseEmitter::SinkShadow() {
  if (!sink_shadow_) {
    IRBuilder<> eb(&*out_.getEntryBlock().getFirstInsertionPt());
    sink_shadow_ = eb.CreateCall(
        ArenaShadowHelper(*out_.getParent(), ArenaKind::Sink), {},
        "sink.shadow");
  }
  return sink_shadow_;
}

/// `void __autodiff_check_sink(ptr)`: writes a message and aborts if the
/// shadow is in the sink arena.
static Function *CheckSinkHelper(Module &m) {
  const char *name = "__autodiff_check_sink";
  if (Function *f = m.getFunction(name))
    return f;
  LLVMContext &ctx = m.getContext();
  auto *ptrTy = PointerType::get(ctx, 0);
  Function *f = Function::Create(
      FunctionType::get(Type::getVoidTy(ctx), {ptrTy}, false),
      GlobalValue::LinkOnceODRLinkage, name, &m);
  f->setVisibility(GlobalValue::HiddenVisibility);
  BasicBlock *entry = BasicBlock::Create(ctx, "entry", f);
  BasicBlock *fail = BasicBlock::Create(ctx, "fail", f);
  BasicBlock *ok = BasicBlock::Create(ctx, "ok", f);
  IRBuilder<> b(entry);
  b.CreateCondBr(InArena(b, f->getArg(0), ArenaKind::Sink), fail, ok);
  b.SetInsertPoint(fail);
  const char *msg = "autodiff: active data was stored into memory passed as "
                    "constant; its derivative cannot be given back (pass "
                    "that memory as duplicated)\n";
  EmitRuntimeAbort(b, msg);
  b.SetInsertPoint(ok);
  b.CreateRetVoid();
  return f;
}

void ReverseEmitter::CheckNotSink(Value *shadow) {
  if (sink_shadow_)
    rb_.CreateCall(CheckSinkHelper(*out_.getParent()), {shadow});
}

absl::Status ReverseEmitter::BuildShadows() {
  for (auto &entry : cloned_.shadows)
    shadows_[entry.first] = entry.second[0];
  for (GlobalVariable &g : out_.getParent()->globals())
    if (Value *s = RegisteredShadow(g))
      shadows_[&g] = s;
  ZeroSharedShadows();
  // While the analyses still describe the function (before any shadow
  // instruction), knowing the arguments' shadows.
  PlanShadowLifetimes();

  // Stack slots that receive active values need shadows even where the
  // activity analysis calls the slot itself inactive (an iterator struct
  // holding a pointer into an active slice, say).
  SmallPtrSet<Value *, 8> receivers;
  for (BasicBlock *bb : blocks_)
    for (Instruction &i : *bb)
      if (auto *store = dyn_cast<StoreInst>(&i))
        if (Active(store->getValueOperand()))
          if (auto *a = dyn_cast<AllocaInst>(
                  getUnderlyingObject(store->getPointerOperand())))
            receivers.insert(a);
  SmallVector<std::pair<PHINode *, PHINode *>, 8> phis;
  for (BasicBlock *bb : blocks_)
    for (Instruction &i : *bb) {
      if (!ContainsPointer(i.getType()) || !Active(&i) || shadows_.count(&i))
        continue;
      if (auto *phi = dyn_cast<PHINode>(&i)) {
        fb_.SetInsertPoint(phi);
        PHINode *s = fb_.CreatePHI(phi->getType(), phi->getNumIncomingValues(),
                                   phi->getName() + "'");
        shadows_[phi] = s;
        phis.push_back({phi, s});
      }
    }

  // Integer phis of addresses (a loop walking an array by adding to its
  // address as an integer, as Numba's `for v in x` becomes): the shadow's
  // address walks along in a phi of its own.
  SmallVector<std::pair<PHINode *, PHINode *>, 8> address_phis;
  for (BasicBlock *bb : blocks_)
    for (PHINode &phi : bb->phis()) {
      if (!phi.getType()->isIntegerTy() ||
          !IsAddressInteger(&phi, /*offsets_only=*/true))
        continue;
      fb_.SetInsertPoint(&phi);
      PHINode *s = fb_.CreatePHI(phi.getType(), phi.getNumIncomingValues(),
                                 phi.getName() + "'");
      address_phis_[&phi] = s;
      address_phis.push_back({&phi, s});
    }

  // Over the primal's instructions only: the shadows made here are
  // inserted among them and must not be visited in turn.
  for (BasicBlock *bb : blocks_)
    for (Instruction *ip : primal_insts_[bb]) {
      Instruction &i = *ip;
      if (isa<PHINode>(i) || i.isTerminator())
        continue;
      fb_.SetInsertPoint(i.getNextNode());
      absl::Status st = absl::OkStatus();
      if (auto *call = dyn_cast<CallBase>(&i); call && StaysModuleCall(*call))
        st = AugmentModuleCall(*call);
      else if (auto *store = dyn_cast<StoreInst>(&i))
        st = ShadowStore(*store);
      else if (auto *mt = dyn_cast<MemTransferInst>(&i))
        st = ShadowMemTransfer(*mt);
      else if (isa<InsertValueInst>(i) || isa<ExtractValueInst>(i) ||
               ((isa<InsertElementInst>(i) || isa<ShuffleVectorInst>(i)) &&
                i.getType()->isPtrOrPtrVectorTy()) ||
               (isa<LoadInst>(i) && !i.getType()->isPointerTy()))
        ShadowAggregate(i);
      else if (i.getType()->isPtrOrPtrVectorTy())
        st = ShadowPointer(i, receivers.count(&i));
      if (!st.ok())
        return st;
    }

  if (absl::Status st = FillAddressPhis(address_phis); !st.ok())
    return st;
  for (auto &[phi, s] : phis)
    for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
      Value *in = JoinedShadow(phi->getIncomingValue(k));
      if (!in)
        return Unsupported(*phi, "a phi joining an active pointer and one "
                                 "without shadow memory" +
                                     PointerOrigin(phi->getIncomingValue(k)));
      s->addIncoming(in, phi->getIncomingBlock(k));
    }
  return absl::OkStatus();
}

/// The incoming shadow addresses of the address phis made in
/// BuildShadows, each computed where its primal is (after its definition,
/// or at the end of the incoming block); a phi one of whose incoming
/// addresses has no shadow is dropped when nothing used it, reported when
/// something did.
absl::Status ReverseEmitter::FillAddressPhis(
    ArrayRef<std::pair<PHINode *, PHINode *>> phis) {
  for (auto &[phi, s] : phis) {
    bool complete = true;
    for (unsigned k = 0; k < phi->getNumIncomingValues() && complete; ++k) {
      Value *in = phi->getIncomingValue(k);
      BasicBlock *from = phi->getIncomingBlock(k);
      if (auto *def = dyn_cast<Instruction>(in))
        fb_.SetInsertPoint(isa<PHINode>(def)
                               ? &*def->getParent()->getFirstInsertionPt()
                               : def->getNextNode());
      else
        fb_.SetInsertPoint(from->getTerminator());
      // (A constant, a path's sentinel or undef, is no address of active
      // memory: the same constant.)
      Value *addr = isa<Constant>(in) ? in : ShadowAddress(in);
      complete = addr != nullptr;
      if (complete)
        s->addIncoming(addr, from);
    }
    if (complete)
      continue;
    if (!s->use_empty())
      return Unsupported(*phi, "a phi joining addresses computed on "
                               "integers, one of which has no shadow");
    address_phis_.erase(phi);
    s->eraseFromParent();
  }
  return absl::OkStatus();
}

Value *ReverseEmitter::ShadowAddress(Value *v) {
  DenseMap<Value *, Value *> made;
  return ShadowAddress(v, made);
}

/// (`made`: the shadow address, or null, of each value asked for so far in
/// this call: optimized code keeps an address in a chain of dozens of adds
/// after unrolling, each reached once.)
Value *ReverseEmitter::ShadowAddress(Value *v,
                                     DenseMap<Value *, Value *> &made) {
  // The longest chain followed (Numba's unrolled loops at -O3 step an
  // address by dozens of adds).
  constexpr unsigned kMaxSteps = 512;
  if (auto it = made.find(v); it != made.end())
    return it->second;
  if (made.size() > kMaxSteps)
    return nullptr;
  made[v] = nullptr; // Until known (no cycle outside phis).
  Value *shadow = nullptr;
  if (auto *phi = dyn_cast<PHINode>(v))
    shadow = address_phis_.lookup(phi);
  else if (auto *load = dyn_cast<LoadInst>(v))
    shadow = ShadowAddressInSlot(*load);
  else if (auto *p2i = dyn_cast<PtrToIntInst>(v)) {
    if (Value *sp = KnownShadow(p2i->getOperand(0)))
      shadow = fb_.CreatePtrToInt(sp, v->getType(), v->getName() + "'");
  } else if (auto *bo = dyn_cast<BinaryOperator>(v)) {
    auto op = bo->getOpcode();
    // The address on the left (or either side of an add), an offset on
    // the other.
    if (op == Instruction::Add || op == Instruction::Sub ||
        op == Instruction::Or) {
      if (Value *l = ShadowAddress(bo->getOperand(0), made))
        shadow = fb_.CreateBinOp(op, l, bo->getOperand(1), v->getName() + "'");
      else if (op == Instruction::Add)
        if (Value *r = ShadowAddress(bo->getOperand(1), made))
          shadow =
              fb_.CreateBinOp(op, bo->getOperand(0), r, v->getName() + "'");
    }
  }
  made[v] = shadow;
  return shadow;
}

/// An address kept as an integer in a local (MirrorAddressStore): the
/// shadow local holds the shadow's address, read where the primal is.
Value *ReverseEmitter::ShadowAddressInSlot(LoadInst &load) {
  Value *ptr = load.getPointerOperand();
  Value *sp = isa<AllocaInst>(getUnderlyingObject(ptr)) ? KnownShadow(ptr)
                                                        : nullptr;
  if (!sp || isa<ConstantPointerNull>(sp) || !load.getType()->isIntegerTy())
    return nullptr;
  IRBuilderBase::InsertPointGuard keep(fb_);
  fb_.SetInsertPoint(load.getNextNode());
  return fb_.CreateAlignedLoad(load.getType(), sp, load.getAlign(),
                               load.getName() + "'");
}

/// A float stored into a stack slot that held pointers before (optimized
/// Numba code reuses an array struct's slot for the float a BLAS dot
/// product writes): the forward sweep left a shadow pointer in the slot's
/// shadow, and the float's adjoint would accumulate on top of its bits.
/// The float's life starts here: its shadow starts from zero. (Stack
/// slots only: a caller's memory holds the caller's seeds. The reverse
/// sweep clears the shadow where a pointer is stored over a float:
/// ClearReusedSlot.)
void ReverseEmitter::ClearSlotForFloat(StoreInst &store) {
  Type *t = store.getValueOperand()->getType();
  Value *ptr = store.getPointerOperand();
  if (!HoldsFloat(t) || !isa<AllocaInst>(getUnderlyingObject(ptr)))
    return;
  Value *sp = KnownShadow(ptr);
  if (!sp || isa<ConstantPointerNull>(sp))
    return;
  if (MemoryMayHold(ptr, t, BaseType::Pointer))
    fb_.CreateAlignedStore(Constant::getNullValue(t), sp, store.getAlign());
}

/// An address stored as an integer into a local (Rust's `Result` of a
/// Vec's growth keeps the new buffer's pointer in an integer field beside
/// the error's integers; SROA leaves a `ptrtoint` stored into an i64 slot
/// and an `inttoptr` of its load): the shadow address goes into the
/// shadow local, where ShadowAddress reads it back. Locals that may hold
/// floats are left alone: their shadow holds adjoints. The same for other
/// memory that the type analysis knows holds pointers there (libstdc++
/// stores a std::unique_ptr's address into a vector's new buffer as an
/// integer).
void ReverseEmitter::MirrorAddressStore(StoreInst &store) {
  Value *v = store.getValueOperand();
  Value *ptr = store.getPointerOperand();
  if (!v->getType()->isIntegerTy() || isa<Constant>(v) ||
      !IsAddressInteger(v, /*offsets_only=*/true))
    return;
  if (!isa<AllocaInst>(getUnderlyingObject(ptr)) &&
      !MemoryMayHold(ptr, v->getType(), BaseType::Pointer))
    return;
  Value *sp = KnownShadow(ptr);
  if (!sp || isa<ConstantPointerNull>(sp) ||
      MemoryMayHold(ptr, v->getType(), BaseType::Float))
    return;
  if (Value *addr = ShadowAddress(v)) {
    fb_.CreateAlignedStore(addr, sp, store.getAlign());
    return;
  }
  // The address of memory without a shadow (an object holding only
  // constants, put into a vector of active ones): as ShadowStore does for
  // a pointer, its adjoints go to the sink, never to the shadow the slot
  // held before (or to null).
  auto *p2i = dyn_cast<PtrToIntInst>(v);
  if (p2i && !KnownShadow(p2i->getOperand(0)) && Active(&store))
    fb_.CreateAlignedStore(fb_.CreatePtrToInt(SinkShadow(), v->getType()), sp,
                           store.getAlign());
}

/// Whether the type analysis finds `kind` (or "anything") in any byte of
/// the `t`-sized memory at `ptr`.
bool ReverseEmitter::MemoryMayHold(Value *ptr, Type *t, BaseType::Kind kind) {
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  MemoryTypes mt = types_->TypesAt(ptr);
  int64_t size = int64_t(out_.getDataLayout().getTypeStoreSize(t));
  for (int64_t off = 0; off < size; ++off) {
    BaseType::Kind have = mt.Lookup(off).kind;
    if (have == kind || have == BaseType::Anything)
      return true;
  }
  return false;
}

/// `store` writes an integer loaded from memory that holds pointers (a
/// pointer moved as an `i64`, or two as a `<2 x i64>`, as libstdc++
/// relocates a vector of pointers): the shadow pointers are moved along,
/// from the source's shadow to the destination's. Whether it applied.
bool ReverseEmitter::MovePointerBits(StoreInst &store) {
  auto *ld = dyn_cast<LoadInst>(store.getValueOperand());
  const DataLayout &dl = out_.getDataLayout();
  if (!ld || !ld->getType()->isIntOrIntVectorTy() ||
      dl.getTypeStoreSize(ld->getType()->getScalarType()) !=
          dl.getPointerSize() ||
      !MemoryMayHold(ld->getPointerOperand(), ld->getType(),
                     BaseType::Pointer) ||
      MemoryMayHold(ld->getPointerOperand(), ld->getType(), BaseType::Float))
    return false;
  Value *ss = KnownShadow(ld->getPointerOperand());
  Value *sd = KnownShadow(store.getPointerOperand());
  if (!ss || !sd || isa<ConstantPointerNull>(sd))
    return false;
  // Read where the primal reads (a std::unique_ptr's move writes null
  // into its source before the moved bits are stored).
  IRBuilder<> at(ld->getNextNode());
  Value *bits = at.CreateAlignedLoad(ld->getType(), ss, ld->getAlign(),
                                     ld->getName() + "'");
  fb_.CreateAlignedStore(bits, sd, store.getAlign(), store.isVolatile());
  return true;
}

absl::Status ReverseEmitter::ShadowStore(StoreInst &store) {
  Value *v = store.getValueOperand();
  if (!ContainsPointer(v->getType())) {
    if (MovePointerBits(store))
      return absl::OkStatus();
    ClearSlotForFloat(store);
    MirrorAddressStore(store);
    return absl::OkStatus();
  }
  Value *sv = KnownShadow(v);
  Value *sp = KnownShadow(store.getPointerOperand());
  if (!Active(v)) {
    // An inactive pointer stored into memory with a shadow (a slot that
    // holds an active pointer at other times): the shadow slot must not
    // keep the shadow of what it held before, or adjoints of loads through
    // the new pointer would land in the old one's shadow.
    if (!v->getType()->isPointerTy() || !sp || !Active(&store))
      return absl::OkStatus();
    // Constant memory beside active data (a constant table's pointer in a
    // struct with active fields): its adjoints go to the sink.
    if (!sv)
      sv = SinkShadow();
  }
  // An aggregate with floats beside pointers without shadows ({double, ptr
  // to constant data}, say): the pointer fields' shadows are unknown;
  // reported where they are used.
  if (!v->getType()->isPointerTy() && sp && !sv)
    return absl::OkStatus();
  if (!sv || !sp)
    return Unsupported(store, "storing an active pointer whose shadow (or "
                              "whose destination's shadow) is unknown" +
                                  PointerOrigin(sv ? store.getPointerOperand()
                                                   : v));
  fb_.CreateAlignedStore(sv, sp, store.getAlign(), store.isVolatile());
  return absl::OkStatus();
}

absl::Status ReverseEmitter::ShadowMemTransfer(MemTransferInst &mt) {
  // Memory of pointers and integers only: its shadow holds shadow pointers,
  // copied along (adjoints are never copied forward).
  Value *sd = KnownShadow(mt.getDest()), *ss = KnownShadow(mt.getSource());
  if (!sd)
    return absl::OkStatus();
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  MemoryTypes t = types_->TypesAt(mt.getSource());
  if (!ss) {
    // Pointers copied into active memory from memory without a shadow:
    // their shadows are unknown (a zero-filled shadow would be a null
    // pointer, dereferenced later).
    if (any_of(t.at,
               [](auto &e) { return e.second.kind == BaseType::Pointer; }))
      return Unsupported(mt, "copying pointers into active memory from "
                             "memory without a shadow: the shadows of the "
                             "copied pointers are unknown" +
                                 PointerOrigin(mt.getSource()));
    return absl::OkStatus();
  }
  t.at.merge(types_->TypesAt(mt.getDest()).at);
  if (t.Empty())
    return absl::OkStatus();
  if (none_of(t.at, [](auto &e) {
        return e.second.kind != BaseType::Pointer &&
               e.second.kind != BaseType::Integer;
      })) {
    fb_.CreateMemCpy(sd, mt.getDestAlign(), ss, mt.getSourceAlign(),
                     mt.getLength());
    return absl::OkStatus();
  }
  // A struct copy with floats too: only the pointer fields' shadows are
  // copied (float shadows are adjoints, moved by the reverse sweep). All
  // are read before any is written (memmove). Float arrays, and mixed or
  // unknown layouts, are the reverse sweep's to handle or report.
  // The same description of the copy as the reverse sweep's
  // (EmitTransferAdjoint), so that the fields it moves adjoints for and
  // the pointer fields copied here agree.
  auto *bytes = dyn_cast<ConstantInt>(mt.getLength());
  auto fields =
      bytes ? FieldsOfFixedCopy(CopiedTypes(mt.getDest(), mt.getSource(), bytes),
                                bytes->getZExtValue(), out_.getDataLayout())
            : std::nullopt;
  if (!fields)
    return absl::OkStatus();
  SmallVector<std::pair<Value *, int64_t>, 4> ptrs;
  for (const CopiedField &f : *fields)
    if (f.type.kind == BaseType::Pointer)
      ptrs.push_back(
          {fb_.CreateLoad(fb_.getPtrTy(), fb_.CreateConstInBoundsGEP1_64(
                                              fb_.getInt8Ty(), ss, f.offset)),
           f.offset});
  for (auto &[p, offset] : ptrs)
    fb_.CreateStore(
        p, fb_.CreateConstInBoundsGEP1_64(fb_.getInt8Ty(), sd, offset));
  return absl::OkStatus();
}

void ReverseEmitter::ShadowAggregate(Instruction &i) {
  // Vectors of pointers (scalar replacement turns a {ptr, ptr} slot into
  // <2 x ptr>): lane by lane, an inactive lane's shadow the sink.
  if (auto *ie = dyn_cast<InsertElementInst>(&i)) {
    Value *vec = KnownShadow(ie->getOperand(0));
    Value *elt = KnownShadow(ie->getOperand(1));
    if (!elt && !Active(ie->getOperand(1)))
      elt = InactivePartShadow(ie->getOperand(1)->getType());
    if (vec && elt)
      shadows_[&i] = fb_.CreateInsertElement(vec, elt, ie->getOperand(2),
                                             i.getName() + "'");
    return;
  }
  if (auto *sv = dyn_cast<ShuffleVectorInst>(&i)) {
    Value *a = KnownShadow(sv->getOperand(0));
    Value *b = KnownShadow(sv->getOperand(1));
    if (a && b)
      shadows_[&i] = fb_.CreateShuffleVector(a, b, sv->getShuffleMask(),
                                             i.getName() + "'");
    return;
  }
  if (auto *ins = dyn_cast<InsertValueInst>(&i)) {
    // Aggregates holding pointers (Rust's slices at opt-level 0): the
    // shadow aggregate holds the shadows, other fields as they are.
    Value *part = ins->getInsertedValueOperand();
    Value *agg = KnownShadow(ins->getAggregateOperand());
    Value *sp = ContainsPointer(part->getType()) ? KnownShadow(part) : part;
    // An inactive pointer field (Numba's meminfo beside an active data
    // pointer, a constant slice's pointer beside an active one): the sink
    // takes what the analyses, which do not tell fields apart everywhere,
    // may still send through it; null for other inactive parts.
    if (!sp && !Active(part))
      sp = InactivePartShadow(part->getType());
    // Built even when inactive if every part has a shadow (null and undef
    // are their own): an active pointer may be inserted later. Without
    // one: reported where a pointer without shadow is used.
    if (ContainsPointer(i.getType()) && agg && sp)
      shadows_[&i] =
          fb_.CreateInsertValue(agg, sp, ins->getIndices(), i.getName() + "'");
    return;
  }
  if (auto *ext = dyn_cast<ExtractValueInst>(&i)) {
    Value *agg = KnownShadow(ext->getAggregateOperand());
    if (agg && ContainsPointer(i.getType()))
      shadows_[&i] =
          fb_.CreateExtractValue(agg, ext->getIndices(), i.getName() + "'");
    return;
  }
  // An aggregate holding pointers read whole (a small struct that a helper
  // returned by value, at -O0): read whole from the shadow.
  auto &load = cast<LoadInst>(i);
  if (!ContainsPointer(i.getType()) || !Active(&i))
    return;
  if (Value *sp = KnownShadow(load.getPointerOperand()))
    shadows_[&i] = fb_.CreateAlignedLoad(load.getType(), sp, load.getAlign(),
                                         i.getName() + "'");
}

/// The bytes an allocation call asks for, as an i64 computed at `b`: the
/// size argument of malloc / aligned_alloc / realloc / __rust_realloc, the
/// product of calloc's; null for other calls.
static Value *AllocationBytes(IRBuilder<> &b, CallBase &call) {
  Type *i64 = b.getInt64Ty();
  switch (ClassifyAllocation(call)) {
  case AllocKind::Malloc:
    return b.CreateZExtOrTrunc(call.getArgOperand(0), i64);
  case AllocKind::AlignedAlloc:
  case AllocKind::Realloc:
    return b.CreateZExtOrTrunc(call.getArgOperand(1), i64);
  case AllocKind::Calloc: {
    Value *count = b.CreateZExtOrTrunc(call.getArgOperand(0), i64);
    Value *each = b.CreateZExtOrTrunc(call.getArgOperand(1), i64);
    return b.CreateMul(count, each);
  }
  case AllocKind::RustRealloc:
    return b.CreateZExtOrTrunc(call.getArgOperand(3), i64);
  default:
    return nullptr;
  }
}

absl::Status ReverseEmitter::ShadowPointer(Instruction &i, bool receiver) {
  // Addresses computed from one pointer (`freeze` too: the optimizer
  // freezes a pointer a loop may leave undefined) share its shadow's
  // computation.
  bool fromOne = isa<GetElementPtrInst>(i) || isa<BitCastInst>(i) ||
                 isa<AddrSpaceCastInst>(i) || isa<FreezeInst>(i);
  bool derived = fromOne && shadows_.count(i.getOperand(0));
  if (!Active(&i) && !receiver && !derived)
    return absl::OkStatus();
  Value *shadow = nullptr;
  if (fromOne) {
    Value *base = KnownShadow(i.getOperand(0));
    if (!base)
      return absl::OkStatus(); // Reported where the pointer is used.
    Instruction *copy = i.clone();
    copy->setOperand(0, base);
    copy->setName(i.getName() + "'");
    shadow = fb_.Insert(copy);
  } else if (auto *i2p = dyn_cast<IntToPtrInst>(&i)) {
    // Pointer arithmetic on integers (Numba's strided views): the same
    // arithmetic on the shadow's address.
    Value *addr = ShadowAddress(i2p->getOperand(0));
    if (!addr)
      return absl::OkStatus(); // Reported where the pointer is used.
    shadow = fb_.CreateIntToPtr(addr, i.getType(), i.getName() + "'");
  } else if (auto *ee = dyn_cast<ExtractElementInst>(&i)) {
    Value *vec = KnownShadow(ee->getVectorOperand());
    if (!vec)
      return absl::OkStatus(); // Reported where the pointer is used.
    shadow = fb_.CreateExtractElement(vec, ee->getIndexOperand(),
                                      i.getName() + "'");
  } else if (auto *sel = dyn_cast<SelectInst>(&i)) {
    Value *t = JoinedShadow(sel->getTrueValue());
    Value *f = JoinedShadow(sel->getFalseValue());
    if (!t || !f)
      return Unsupported(i, "a select between an active pointer and one "
                            "without shadow memory" +
                                PointerOrigin(t ? sel->getFalseValue()
                                                : sel->getTrueValue()));
    shadow = fb_.CreateSelect(sel->getCondition(), t, f, i.getName() + "'");
  } else if (auto *load = dyn_cast<LoadInst>(&i)) {
    Value *sp = KnownShadow(load->getPointerOperand());
    if (!sp)
      return absl::OkStatus();
    shadow = fb_.CreateAlignedLoad(load->getType(), sp, load->getAlign(),
                                   i.getName() + "'");
  } else if (auto *ii = dyn_cast<IntrinsicInst>(&i);
             ii && (ii->getIntrinsicID() == Intrinsic::masked_load ||
                    ii->getIntrinsicID() == Intrinsic::masked_gather)) {
    // Pointers loaded under a mask (a vectorized loop gathering the rows of
    // a double**): the same access on the shadow memory.
    Value *sp = KnownShadow(ii->getArgOperand(0));
    Value *pass = KnownShadow(ii->getArgOperand(2));
    if (!sp || !pass)
      return absl::OkStatus(); // Reported where the pointers are used.
    auto *copy = cast<CallBase>(ii->clone());
    copy->setArgOperand(0, sp);
    copy->setArgOperand(2, pass);
    copy->setName(i.getName() + "'");
    shadow = fb_.Insert(copy);
  } else if (auto *a = dyn_cast<AllocaInst>(&i)) {
    if (a->getParent() != &out_.getEntryBlock() || !a->isStaticAlloca())
      return Unsupported(i, "a dynamically sized stack allocation that "
                            "holds active data");
    auto *copy = cast<AllocaInst>(a->clone());
    copy->setName(a->getName() + "'");
    fb_.Insert(copy);
    const DataLayout &dl = out_.getDataLayout();
    fb_.CreateMemSet(
        copy, fb_.getInt8(0),
        fb_.CreateMul(
            fb_.CreateZExtOrTrunc(a->getArraySize(), fb_.getInt64Ty()),
            fb_.getInt64(dl.getTypeAllocSize(a->getAllocatedType()))),
        a->getAlign());
    shadow = copy;
  } else if (auto *call = dyn_cast<CallBase>(&i)) {
    AllocKind kind = ClassifyAllocation(*call);
    if (kind == AllocKind::NumbaMemInfo) {
      // A MemInfo of its own, its data buffer zeroed. Reference counts are
      // not mirrored: the shadow lives until the reverse sweep reaches the
      // allocation, which releases it.
      shadows_[&i] = CreateZeroedMemInfo(fb_, *call, i.getName() + "'");
      return absl::OkStatus();
    }
    if (kind == AllocKind::Realloc || kind == AllocKind::RustRealloc)
      return ShadowRealloc(*call, kind == AllocKind::RustRealloc);
    if (kind != AllocKind::Malloc && kind != AllocKind::Calloc &&
        kind != AllocKind::AlignedAlloc)
      return absl::OkStatus(); // Reported by the call's adjoint.
    Value *size = AllocationBytes(fb_, *call);
    if (ShadowLifeOf(*call) != ShadowLife::Released) {
      // The caller will release it as it releases the primal (`delete[]`
      // of a buffer stored into its object): the same allocator.
      auto *copy = cast<CallBase>(call->clone());
      copy->setName(i.getName() + "'");
      shadow = fb_.Insert(copy);
      if (kind != AllocKind::Calloc)
        fb_.CreateMemSet(shadow, fb_.getInt8(0), size, MaybeAlign());
    } else {
      FunctionCallee calloc = out_.getParent()->getOrInsertFunction(
          "calloc", fb_.getPtrTy(), fb_.getInt64Ty(), fb_.getInt64Ty());
      shadow =
          fb_.CreateCall(calloc, {fb_.getInt64(1), size}, i.getName() + "'");
    }
  }
  if (shadow)
    shadows_[&i] = shadow;
  return absl::OkStatus();
}

/// The size in bytes of the allocation `p` points to the start of, as an
/// i64 computed before `at`: the size argument of the malloc, calloc or
/// realloc that made it, followed through phis and selects (a buffer grown
/// in a loop); null when `p` comes from elsewhere.
Value *ReverseEmitter::AllocatedSize(Value *p, Instruction *at) {
  p = p->stripPointerCasts();
  if (Value *known = allocated_size_.lookup(p))
    return known;
  IRBuilder<> b(at);
  Type *i64 = b.getInt64Ty();
  Value *size = nullptr;
  if (isa<ConstantPointerNull>(p)) {
    size = b.getInt64(0);
  } else if (auto *call = dyn_cast<CallBase>(p)) {
    size = AllocationBytes(b, *call);
  } else if (auto *phi = dyn_cast<PHINode>(p)) {
    PHINode *sizes = PHINode::Create(i64, phi->getNumIncomingValues(),
                                     phi->getName() + ".size");
    sizes->insertBefore(phi->getParent()->begin());
    allocated_size_[p] = sizes;
    for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
      BasicBlock *in = phi->getIncomingBlock(k);
      Value *s = AllocatedSize(phi->getIncomingValue(k), in->getTerminator());
      if (!s) {
        allocated_size_.erase(p);
        sizes->replaceAllUsesWith(PoisonValue::get(i64));
        sizes->eraseFromParent();
        return nullptr;
      }
      sizes->addIncoming(s, in);
    }
    return sizes;
  } else if (auto *sel = dyn_cast<SelectInst>(p)) {
    Value *t = AllocatedSize(sel->getTrueValue(), sel);
    Value *f = t ? AllocatedSize(sel->getFalseValue(), sel) : nullptr;
    if (t && f)
      size = IRBuilder<>(sel).CreateSelect(sel->getCondition(), t, f,
                                           sel->getName() + ".size");
  }
  if (size)
    allocated_size_[p] = size;
  return size;
}

absl::Status ReverseEmitter::ShadowRealloc(CallBase &call, bool rust) {
  Value *old = call.getArgOperand(0);
  Value *oldShadow = KnownShadow(old);
  if (!Active(&call) && !oldShadow)
    return absl::OkStatus();
  if (!oldShadow)
    return Unsupported(call, "a reallocation of memory without shadow "
                             "memory into active memory" +
                                 PointerOrigin(old));
  // A new zeroed shadow holds what the old one did (shadow pointers) up to
  // the smaller size; the old shadow stays until the reverse sweep has
  // moved the adjoints back into it, then the new one is freed.
  Value *oldSize = rust ? call.getArgOperand(1) : AllocatedSize(old, &call);
  if (!oldSize)
    return Unsupported(call, "a reallocation of memory that was not "
                             "allocated in the differentiated function "
                             "(by malloc, calloc or realloc), whose size the "
                             "reverse sweep therefore does not know");
  Type *i64 = fb_.getInt64Ty();
  Value *newSize =
      fb_.CreateZExtOrTrunc(call.getArgOperand(rust ? 3 : 1), i64);
  oldSize = fb_.CreateZExtOrTrunc(oldSize, i64);
  FunctionCallee calloc = out_.getParent()->getOrInsertFunction(
      "calloc", fb_.getPtrTy(), i64, i64);
  Value *shadow =
      fb_.CreateCall(calloc, {fb_.getInt64(1), newSize}, call.getName() + "'");
  Value *kept = fb_.CreateBinaryIntrinsic(Intrinsic::umin, oldSize, newSize,
                                          nullptr, call.getName() + ".kept");
  fb_.CreateMemCpy(shadow, MaybeAlign(), oldShadow, MaybeAlign(), kept);
  shadows_[&call] = shadow;
  realloc_kept_[&call] = kept;
  return absl::OkStatus();
}

} // namespace autodiff
