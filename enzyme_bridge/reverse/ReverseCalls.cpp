//===- enzyme_bridge/reverse/ReverseCalls.cpp - Adjoints of calls ---------===//
//
// Calls left after preparation (calls to module functions were inlined,
// recursive ones are in ReverseModuleCalls.cpp): inactive functions (their side effects happened once, in the forward
// sweep), math functions and intrinsics from the rule table, memory
// intrinsics on shadow memory, and allocations (whose zeroed shadows the
// forward sweep made and the reverse sweep frees when it reaches them).
// Anything else that touches active data is a diagnostic.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/DeclaredLayout.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/rules/Rules.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"
#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/RuntimeAbort.h"
#include "enzyme_bridge/reverse/DeferredReleases.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "support/StatusMacros.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {
namespace {

/// `void NAME(ptr dst_shadow, ptr src_shadow, i64 bytes)`: the adjoint of
/// copying `bytes` of records of `size` bytes whose floats are `fields`,
/// record by record; with `whole`, a length that is not a whole number of
/// records stops the program (otherwise the bytes past the last whole
/// record move nothing).
Function *RecordCopyAdjointHelper(Module &m, uint64_t size,
                                  ArrayRef<CopiedField> fields,
                                  bool whole = true) {
  std::string name = "autodiff.copy.adjoint." +
                     std::string(whole ? "r" : "e") + std::to_string(size);
  for (const CopiedField &f : fields)
    if (f.type.kind == BaseType::Float)
      name += "." + std::to_string(f.offset) +
              (f.type.fp->isDoubleTy() ? "d" : "f");
  if (Function *f = m.getFunction(name))
    return f;
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Type *i64 = Type::getInt64Ty(c);
  auto *f = Function::Create(FunctionType::get(Type::getVoidTy(c),
                                               {ptr, ptr, i64}, false),
                             GlobalValue::InternalLinkage, name, &m);
  auto *entry = BasicBlock::Create(c, "entry", f);
  auto *whole_block = BasicBlock::Create(c, "whole", f);
  auto *loop = BasicBlock::Create(c, "loop", f);
  auto *done = BasicBlock::Create(c, "done", f);
  IRBuilder<> b(entry);
  Value *bytes = f->getArg(2);
  if (whole) {
    auto *partial = BasicBlock::Create(c, "partial", f);
    b.CreateCondBr(b.CreateICmpEQ(b.CreateURem(bytes, b.getInt64(size)),
                                  b.getInt64(0)),
                   whole_block, partial);
    b.SetInsertPoint(partial);
    EmitRuntimeAbort(b, "autodiff: a copy of records of " +
                            std::to_string(size) +
                            " bytes copied a part of a record; its adjoint "
                            "cannot be moved\n");
  } else {
    b.CreateBr(whole_block);
  }
  b.SetInsertPoint(whole_block);
  Value *count = b.CreateUDiv(bytes, b.getInt64(size));
  b.CreateCondBr(b.CreateICmpEQ(count, b.getInt64(0)), done, loop);
  b.SetInsertPoint(loop);
  PHINode *k = b.CreatePHI(i64, 2);
  k->addIncoming(b.getInt64(0), whole_block);
  Value *at = b.CreateMul(k, b.getInt64(size));
  for (const CopiedField &fl : fields) {
    if (fl.type.kind != BaseType::Float)
      continue;
    Value *off = b.CreateAdd(at, b.getInt64(fl.offset));
    Value *dst = b.CreateGEP(b.getInt8Ty(), f->getArg(0), off);
    Value *src = b.CreateGEP(b.getInt8Ty(), f->getArg(1), off);
    Value *d = b.CreateLoad(fl.type.fp, dst);
    b.CreateStore(Constant::getNullValue(fl.type.fp), dst);
    b.CreateStore(b.CreateFAdd(b.CreateLoad(fl.type.fp, src), d), src);
  }
  Value *next = b.CreateAdd(k, b.getInt64(1));
  k->addIncoming(next, loop);
  b.CreateCondBr(b.CreateICmpEQ(next, count), done, loop);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  return f;
}

/// The adjoint of copying `bytes` of `elem` values: src' += dst'; dst' =
/// 0, element-wise (records of one field).
Function *CopyAdjointHelper(Module &m, Type *elem) {
  BaseType t{BaseType::Float, elem};
  return RecordCopyAdjointHelper(m, m.getDataLayout().getTypeAllocSize(elem),
                                 {CopiedField{0, t}}, /*whole=*/false);
}

/// A copy of run-time length over arrays of records (`memcpy(d, s, n *
/// sizeof(struct particle))`): the record size a struct type declares for
/// either side, and the fields of one record, from the type analysis's
/// facts folded into one record and what the type declares; nullopt when
/// no record type is declared or the facts do not repeat with it.
std::optional<std::pair<uint64_t, std::vector<CopiedField>>>
RecordArrayFields(const MemoryTypes &mt, const Value *src, const Value *dst,
                  const TypeInfo &types, const DataLayout &dl) {
  uint64_t size = DeclaredRecordSize(src, dl);
  const Value *declared = src;
  if (uint64_t d = DeclaredRecordSize(dst, dl)) {
    if (size && size != d)
      return std::nullopt;
    if (!size)
      declared = dst;
    size = d;
  }
  // Without a record type (rustc's byte layouts): the step at which the
  // code indexes the records, if both sides agree.
  if (!size) {
    int64_t s = types.RecordPeriodAt(src), d = types.RecordPeriodAt(dst);
    if (s > 0 && d > 0 && s != d)
      return std::nullopt;
    size = uint64_t(s > 0 ? s : d > 0 ? d : 0);
  }
  if (!size || !mt.periodic.empty())
    return std::nullopt;
  MemoryTypes one;
  for (const auto &[offset, t] : mt.at) {
    if (offset < 0)
      return std::nullopt;
    int64_t in = offset % int64_t(size);
    auto it = one.at.find(in);
    if (it != one.at.end() && it->second != t)
      return std::nullopt;
    one.Add(in, t);
  }
  one = FillDeclaredGaps(one, declared, size, dl);
  auto fields = FieldsOfFixedCopy(one, size, dl);
  // Pointer fields' shadows would have to be copied forward record by
  // record too: not done, so such copies stay a diagnostic.
  if (!fields || any_of(*fields, [](const CopiedField &f) {
        return f.type.kind == BaseType::Pointer;
      }))
    return std::nullopt;
  return std::make_pair(size, std::move(*fields));
}

} // namespace

bool ReverseEmitter::TouchesActiveData(CallBase &call) {
  // A void call is "active" when any operand is varied, integers moving
  // raw bits included; what it receives is what counts.
  // So is an integer result (llvm.umin of two lengths computed from
  // addresses): it holds no derivative.
  Type *rt = call.getType();
  bool touches = (Active(&call) && (HoldsFloat(rt) || ContainsPointer(rt))) ||
                 HasAdjoint(&call);
  for (Value *arg : call.args())
    touches |= !isa<Constant>(arg) && (Active(arg) || shadows_.count(arg)) &&
               (HoldsFloat(arg->getType()) || ContainsPointer(arg->getType()));
  return touches;
}

bool IsSincos(const Function &f) {
  StringRef name = f.getName();
  name.consume_front("__nv_");
  FunctionType *t = f.getFunctionType();
  return (name == "sincos" || name == "sincosf" || name == "sincospi" ||
          name == "sincospif") &&
         t->getNumParams() == 3 &&
         t->getParamType(0)->isFloatingPointTy() &&
         t->getParamType(1)->isPointerTy() &&
         t->getParamType(2)->isPointerTy() && t->getReturnType()->isVoidTy();
}

/// sincos(x, &s, &c): x's adjoint gains s' cos x - c' sin x, read from the
/// outputs' shadows, which are cleared (the call wrote the outputs);
/// sincospi(x, &s, &c) computes sin(pi x) and cos(pi x).
absl::Status ReverseEmitter::VisitSincos(CallBase &call) {
  Value *arg = call.getArgOperand(0);
  Type *fp = arg->getType();
  Value *x = Lookup(arg);
  Value *zero = ConstantFP::get(fp, 0.0);
  auto take = [&](Value *out) -> Value * {
    Value *shadow = LookupShadow(out);
    if (!shadow || isa_and_nonnull<ConstantPointerNull>(shadows_.lookup(out)))
      return zero;
    Value *g = rb_.CreateLoad(fp, shadow);
    rb_.CreateStore(zero, shadow);
    return g;
  };
  Value *gs = take(call.getArgOperand(1));
  Value *gc = take(call.getArgOperand(2));
  if (!HasAdjoint(arg))
    return absl::OkStatus();
  // cos x and -sin x, as the rule table emits them for this target
  // (libdevice's sincospi: pi cos(pi x) and -pi sin(pi x)).
  bool pi = CalledFunction(call)->getName().contains("sincospi");
  Value *cosx = EmitPartial(rb_, *FindRuleByName(pi ? "__nv_sinpi" : "sin"),
                            0, {x}, nullptr);
  Value *minusSin = EmitPartial(
      rb_, *FindRuleByName(pi ? "__nv_cospi" : "cos"), 0, {x}, nullptr);
  Value *fromS = rb_.CreateFMul(gs, cosx);
  Value *fromC = rb_.CreateFMul(gc, minusSin);
  AddAdjoint(arg, rb_.CreateFAdd(fromS, fromC));
  return absl::OkStatus();
}

absl::Status ReverseEmitter::visitCallBase(CallBase &call) {
  if (gpu_ && IsBarrierCall(call))
    return MirrorBarrier(call);
  if (IsInactiveCall(call))
    return absl::OkStatus();
  // Calls kept as calls: a module function's split derivative or a
  // registered reverse rule (the forward sweep called its augmented half).
  if (augmented_.count(&call))
    return VisitModuleCall(call, *CalledFunction(call));
  if (isa<MemIntrinsic>(call))
    return VisitMemoryIntrinsic(call);
  AllocKind kind = ClassifyAllocation(call);
  if (kind != AllocKind::None)
    return VisitAllocationCall(call, static_cast<int>(kind));
  if (auto *ii = dyn_cast<IntrinsicInst>(&call))
    switch (ii->getIntrinsicID()) {
    case Intrinsic::masked_load:
    case Intrinsic::masked_gather:
    case Intrinsic::masked_store:
    case Intrinsic::masked_scatter:
      return VisitMaskedAccess(*ii);
    default:
      break;
    }
  if (!TouchesActiveData(call))
    return absl::OkStatus();
  if (std::string why = UnsupportedGpuCall(call); gpu_ && !why.empty())
    return Unsupported(call, why);
  if (auto *ii = dyn_cast<IntrinsicInst>(&call))
    if (VisitReduction(*ii))
      return absl::OkStatus();
  if (VisitSpecialMath(call) || VisitX86Intrinsic(call))
    return absl::OkStatus();
  if (FindRule(call) && !call.getType()->isVoidTy())
    return ApplyRule(call);
  Function *callee = CalledFunction(call);
  // A library function of scalars whose result holds no derivative (ilogb,
  // lround, isnan, ...): the forward sweep made the call, nothing flows
  // back through it.
  LibFunc lib;
  auto roundsToInteger = [](StringRef name) {
    name.consume_back("f");
    name.consume_back("l");
    return name == "lround" || name == "llround" || name == "lrint" ||
           name == "llrint" || name == "ilogb";
  };
  if (callee && callee->isDeclaration() &&
      (tli_->getLibFunc(*callee, lib) || roundsToInteger(callee->getName())) &&
      !HoldsFloat(call.getType()) && !ContainsPointer(call.getType()) &&
      none_of(call.args(), [](Value *a) {
        return ContainsPointer(a->getType());
      }))
    return absl::OkStatus();
  // An intrinsic turning floats into an integer (`llvm.fptosi.sat`, which
  // Rust's `as` casts become, `llvm.lrint`, `llvm.is.fpclass`): no
  // derivative comes out, none flows back.
  if (isa<IntrinsicInst>(call) && call.doesNotAccessMemory() &&
      call.getType()->isIntOrIntVectorTy() &&
      all_of(call.args(), [](Value *a) {
        return a->getType()->isFPOrFPVectorTy() || isa<ConstantInt>(a);
      }))
    return absl::OkStatus();
  if (callee && callee->isDeclaration() && IsSincos(*callee))
    return VisitSincos(call);
  if (callee && callee->isDeclaration() &&
      VisitComplexCall(call, callee->getName()))
    return absl::OkStatus();
  if (callee && !callee->isDeclaration())
    return VisitModuleCall(call, *callee);
  if (call.isInlineAsm())
    return Unsupported(call, "inline assembly on active data; move it into "
                             "a function and register a custom derivative "
                             "for that function, or mark that function "
                             "inactive (the \"enzyme_inactive\" attribute "
                             "or __enzyme_inactivefn) if it cannot affect "
                             "derivatives");
  if (!callee && !Candidates(*out_.getParent(), call.getFunctionType()).empty())
    return Unsupported(call, "a call through a function pointer with active "
                             "arguments that is left after its candidates "
                             "were inlined several times in a row (calls "
                             "through pointers that reach each other)");
  if (!callee)
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "call through a function pointer with active arguments, "
                   "and no function of this type in the module has its "
                   "address taken: the callee is unknown");
  return Unsupported(call, "a call to `" + callee->getName().str() +
                               "`, which has no body and no derivative rule");
}

/// Masked and gathered loads and stores (vectorized loops with conditions,
/// remainders or indirect indices; `__builtin_masked_*`): adjoints move
/// between the value and the shadow lanes the mask selects, as for a load
/// (added into the shadow) and a store (taken from the shadow, which is
/// cleared). Gathers and scatters go lane by lane, each lane under its own
/// bit of the mask, since lanes may share an address: a gather's lanes all
/// add there; of a scatter's lanes the last one is what memory kept, so
/// lanes are visited from the last and a lane's adjoint is cleared once
/// taken.
absl::Status ReverseEmitter::VisitMaskedAccess(IntrinsicInst &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  bool load = id == Intrinsic::masked_load || id == Intrinsic::masked_gather;
  bool per_lane =
      id == Intrinsic::masked_gather || id == Intrinsic::masked_scatter;
  unsigned ptr_op = load ? 0 : 1;
  Value *value = load ? &call : call.getArgOperand(0);
  if (!HoldsFloat(value->getType()) || (load && !Active(&call)))
    return absl::OkStatus();
  Value *ptr = call.getArgOperand(ptr_op);
  Value *shadow = shadows_.count(ptr) || isa<GlobalValue>(ptr)
                      ? LookupShadow(ptr)
                      : nullptr;
  if (!shadow) {
    if (load && !per_lane && InConstantArgument(ptr)) {
      TakeAdjoint(&call); // Constant memory: the adjoint is dropped.
      return absl::OkStatus();
    }
    if (!load && !Active(value))
      return absl::OkStatus();
    return Unsupported(call, std::string("a masked ") +
                                 (load ? "load" : "store") +
                                 " of active data through a pointer whose "
                                 "shadow is unknown; " +
                                 NoShadowAdvice(*ptr));
  }
  if (gpu_)
    return Unsupported(call, "a masked or gathered access of active data in "
                             "a GPU kernel");
  Value *mask = Lookup(call.getArgOperand(load ? 1 : 2));
  Align align = call.getParamAlign(ptr_op).valueOrOne();
  auto *vt = cast<FixedVectorType>(value->getType());
  Value *zero = Constant::getNullValue(vt);
  auto *one = FixedVectorType::get(vt->getElementType(), 1);
  Value *zero_one = Constant::getNullValue(one);
  // The shadow lane `j` of a gather or scatter under its bit of the mask.
  auto lane = [&](unsigned j) {
    Value *bit = rb_.CreateExtractElement(mask, j);
    Value *bits = rb_.CreateVectorSplat(1, bit);
    Value *at = rb_.CreateExtractElement(shadow, j);
    return std::make_pair(at, bits);
  };
  if (load) {
    Value *adj = TakeAdjoint(&call);
    Value *passthru = call.getArgOperand(2);
    if (HasAdjoint(passthru)) {
      Value *kept = rb_.CreateSelect(mask, zero, adj);
      AddAdjoint(passthru, kept);
    }
    if (!per_lane) {
      Value *old = rb_.CreateMaskedLoad(vt, shadow, align, mask, zero);
      Value *sum = rb_.CreateFAdd(old, adj);
      rb_.CreateMaskedStore(sum, shadow, align, mask);
      return absl::OkStatus();
    }
    for (unsigned j = 0; j < vt->getNumElements(); ++j) {
      auto [at, bits] = lane(j);
      Value *old = rb_.CreateMaskedLoad(one, at, align, bits, zero_one);
      Value *part = rb_.CreateExtractElement(adj, j);
      Value *parts = rb_.CreateVectorSplat(1, part);
      Value *sum = rb_.CreateFAdd(old, parts);
      rb_.CreateMaskedStore(sum, at, align, bits);
    }
    return absl::OkStatus();
  }
  Value *adj = zero;
  if (!per_lane) {
    adj = rb_.CreateMaskedLoad(vt, shadow, align, mask, zero);
    rb_.CreateMaskedStore(zero, shadow, align, mask);
  } else {
    for (unsigned j = vt->getNumElements(); j-- > 0;) {
      auto [at, bits] = lane(j);
      Value *taken = rb_.CreateMaskedLoad(one, at, align, bits, zero_one);
      rb_.CreateMaskedStore(zero_one, at, align, bits);
      Value *part = rb_.CreateExtractElement(taken, uint64_t(0));
      adj = rb_.CreateInsertElement(adj, part, j);
    }
  }
  AddAdjoint(value, adj);
  return absl::OkStatus();
}

bool ReverseEmitter::VisitReduction(IntrinsicInst &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  if (id == Intrinsic::vector_reduce_fadd) {
    // Linear: the start and every lane get the adjoint.
    Value *a = TakeAdjoint(&call);
    AddAdjoint(call.getArgOperand(0), a);
    Value *vec = call.getArgOperand(1);
    auto *vt = cast<FixedVectorType>(vec->getType());
    AddAdjoint(vec, rb_.CreateVectorSplat(vt->getNumElements(), a));
    return true;
  }
  if (id == Intrinsic::vector_reduce_fmul) {
    // start * v0 * ... * v(n-1): each factor's adjoint is the adjoint
    // times the product of the others, from prefix and suffix products
    // (no division, so a zero lane is no NaN).
    Value *a = TakeAdjoint(&call);
    Value *start = Lookup(call.getArgOperand(0));
    Value *vec = Lookup(call.getArgOperand(1));
    unsigned n = cast<FixedVectorType>(vec->getType())->getNumElements();
    SmallVector<Value *, 8> lanes, prefix(n + 1), suffix(n + 1);
    for (unsigned j = 0; j < n; ++j)
      lanes.push_back(rb_.CreateExtractElement(vec, j));
    prefix[0] = start;
    for (unsigned j = 0; j < n; ++j)
      prefix[j + 1] = rb_.CreateFMul(prefix[j], lanes[j]);
    suffix[n] = ConstantFP::get(call.getType(), 1.0);
    for (unsigned j = n; j-- > 0;)
      suffix[j] = rb_.CreateFMul(lanes[j], suffix[j + 1]);
    AddAdjoint(call.getArgOperand(0), rb_.CreateFMul(a, suffix[0]));
    Value *adjoint = Constant::getNullValue(vec->getType());
    for (unsigned j = 0; j < n; ++j)
      adjoint = rb_.CreateInsertElement(
          adjoint,
          rb_.CreateFMul(a, rb_.CreateFMul(prefix[j], suffix[j + 1])), j);
    AddAdjoint(call.getArgOperand(1), adjoint);
    return true;
  }
  if (id != Intrinsic::vector_reduce_fmax &&
      id != Intrinsic::vector_reduce_fmin &&
      id != Intrinsic::vector_reduce_fmaximum &&
      id != Intrinsic::vector_reduce_fminimum)
    return false;
  // The first lane equal to the result takes the adjoint.
  Value *a = TakeAdjoint(&call);
  Value *vec = Lookup(call.getArgOperand(0));
  Value *result = Lookup(&call);
  unsigned n = cast<FixedVectorType>(vec->getType())->getNumElements();
  Value *zero = ConstantFP::get(call.getType(), 0.0);
  Value *taken = rb_.getFalse();
  Value *adjoint = Constant::getNullValue(vec->getType());
  for (unsigned j = 0; j < n; ++j) {
    Value *v = rb_.CreateExtractElement(vec, j);
    Value *eq = rb_.CreateFCmpOEQ(v, result);
    Value *notTaken = rb_.CreateNot(taken);
    Value *mine = rb_.CreateAnd(eq, notTaken);
    Value *share = rb_.CreateSelect(mine, a, zero);
    adjoint = rb_.CreateInsertElement(adjoint, share, j);
    taken = rb_.CreateOr(taken, eq);
  }
  AddAdjoint(call.getArgOperand(0), adjoint);
  return true;
}

void ReverseEmitter::EmitFieldCopyAdjoint(Value *dst, Value *src,
                                          ArrayRef<CopiedField> fields) {
  // All destination adjoints are read and cleared before any is added to
  // the source: the two may overlap (memmove).
  SmallVector<std::pair<Value *, Value *>, 8> moved;
  for (const CopiedField &f : fields) {
    if (f.type.kind != BaseType::Float)
      continue;
    Value *d = rb_.CreateConstInBoundsGEP1_64(rb_.getInt8Ty(), dst, f.offset);
    Value *adj = rb_.CreateLoad(f.type.fp, d);
    rb_.CreateStore(Constant::getNullValue(f.type.fp), d);
    moved.push_back({adj, rb_.CreateConstInBoundsGEP1_64(rb_.getInt8Ty(), src,
                                                         f.offset)});
  }
  for (auto &[adj, s] : moved)
    rb_.CreateStore(rb_.CreateFAdd(rb_.CreateLoad(adj->getType(), s), adj), s);
}

/// A copy of active floating-point data into a global without a shadow
/// would drop its adjoint: a diagnostic, unless the global was declared
/// inactive.
absl::Status ReverseEmitter::CheckCopyIntoUnshadowed(MemIntrinsic &mi) {
  auto *transfer = dyn_cast<MemTransferInst>(&mi);
  if (!transfer || !shadows_.count(transfer->getSource()) ||
      !isa<GlobalVariable>(getUnderlyingObject(mi.getDest())) ||
      InInactiveGlobal(mi.getDest()))
    return absl::OkStatus();
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  MemoryTypes t = types_->TypesAt(transfer->getSource());
  if (none_of(t.at, [](auto &e) {
        return e.second.kind == BaseType::Float ||
               e.second.kind == BaseType::Anything;
      }))
    return absl::OkStatus();
  return ErrorAt(absl::StatusCode::kUnimplemented, mi,
                 "copying active data into memory whose shadow is unknown; " +
                     NoShadowAdvice(*mi.getDest()));
}

absl::Status ReverseEmitter::VisitMemoryIntrinsic(CallBase &call) {
  auto &mi = cast<MemIntrinsic>(call);
  Value *dst = LookupShadow(mi.getDest());
  if (!dst)
    return CheckCopyIntoUnshadowed(mi);
  Value *len = Lookup(mi.getLength());
  if (isa<MemSetInst>(mi)) {
    // The memory was overwritten: its adjoint is consumed.
    rb_.CreateMemSet(dst, rb_.getInt8(0), len, MaybeAlign());
    return absl::OkStatus();
  }
  auto &transfer = cast<MemTransferInst>(mi);
  AD_RETURN_IF_ERROR(CheckFloatPlacement(transfer));
  Value *src = LookupShadow(transfer.getSource());
  if (!src) {
    rb_.CreateMemSet(dst, rb_.getInt8(0), len, MaybeAlign());
    return absl::OkStatus();
  }
  return EmitTransferAdjoint(call, transfer.getDest(), transfer.getSource(),
                             dst, src, len, isa<MemMoveInst>(mi),
                             dyn_cast<ConstantInt>(mi.getLength()));
}

MemoryTypes ReverseEmitter::CopiedTypes(Value *primal_dst, Value *primal_src,
                                        ConstantInt *fixed_bytes) {
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  uint64_t span = fixed_bytes ? fixed_bytes->getZExtValue() : 0;
  MemoryTypes mt = types_->TypesOver(primal_src, span);
  mt.at.merge(types_->TypesOver(primal_dst, span).at);
  // Facts about bytes the copy does not touch (before the pointers, as
  // std::vector's code knows of its buffer's neighbours, or past a fixed
  // length: the int after a struct's array of doubles) do not decide how
  // it moves adjoints, when there are facts about the bytes it copies.
  MemoryTypes inside = mt;
  for (auto it = inside.at.begin(); it != inside.at.end();) {
    int64_t offset = it->first;
    bool outside = offset < -1 ||
                   (fixed_bytes && offset >= 0 && uint64_t(offset) >= span);
    it = outside ? inside.at.erase(it) : std::next(it);
  }
  if (!inside.Empty())
    mt = inside;
  // Fields of a record copied whole that nothing here reads (an `int id`
  // beside the doubles, at -O0): what the record type declares.
  if (fixed_bytes) {
    const DataLayout &dl = out_.getDataLayout();
    mt = FillDeclaredGaps(FillDeclaredGaps(mt, primal_src, span, dl),
                          primal_dst, span, dl);
  }
  return mt;
}

absl::Status ReverseEmitter::EmitTransferAdjoint(
    Instruction &call, Value *primal_dst, Value *primal_src, Value *dst,
    Value *src, Value *len, bool may_overlap, ConstantInt *fixed_bytes) {
  MemoryTypes mt = CopiedTypes(primal_dst, primal_src, fixed_bytes); // Sets types_.
  Type *elem = nullptr;
  bool mixed = false, unknown = mt.Empty();
  for (auto &[offset, t] : mt.at) {
    if (t.kind == BaseType::Float) {
      mixed |= elem && elem != t.fp;
      elem = t.fp;
    } else if (t.kind != BaseType::Integer && t.kind != BaseType::Pointer) {
      unknown = true;
    }
  }
  if (!elem && !unknown)
    return absl::OkStatus(); // Integers and pointers: no adjoint (the
                             // forward sweep copied the shadow pointers).
  // Floats of one type at offsets that are not all multiples of its size
  // (a packed record's double at offset 1) are no array of that type.
  uint64_t elem_size =
      elem ? out_.getDataLayout().getTypeStoreSize(elem).getFixedValue() : 0;
  bool dense = elem_size && all_of(mt.at, [&](auto &e) {
    return e.first < 0 || uint64_t(e.first) % elem_size == 0;
  });
  if (mixed || unknown || !elem || !dense ||
      !(elem->isDoubleTy() || elem->isFloatTy()) ||
      any_of(mt.at, [](auto &e) { return e.second.kind != BaseType::Float; })) {
    // A struct copy of known layout: field by field.
    if (auto fields = fixed_bytes
                          ? FieldsOfFixedCopy(mt, fixed_bytes->getZExtValue(),
                                              out_.getDataLayout())
                          : std::nullopt) {
      EmitFieldCopyAdjoint(dst, src, *fields);
      return absl::OkStatus();
    }
    if (auto records = fixed_bytes ? std::nullopt
                                   : RecordArrayFields(mt, primal_src,
                                                       primal_dst, *types_,
                                                       out_.getDataLayout())) {
      EmitCopyAdjointCall(RecordCopyAdjointHelper(*out_.getParent(),
                                                  records->first,
                                                  records->second),
                          dst, src, len, may_overlap);
      return absl::OkStatus();
    }
    return Unsupported(call, "a memory copy of active data whose type is "
                             "mixed or unknown (type analysis: " +
                                 mt.ToString() + ")");
  }
  EmitCopyAdjointCall(CopyAdjointHelper(*out_.getParent(), elem), dst, src,
                      len, may_overlap);
  return absl::OkStatus();
}

void ReverseEmitter::EmitCopyAdjointCall(Function *helper, Value *dst,
                                         Value *src, Value *len,
                                         bool may_overlap) {
  Value *bytes = rb_.CreateZExtOrTrunc(len, rb_.getInt64Ty());
  if (!may_overlap) {
    rb_.CreateCall(helper, {dst, src, bytes});
    return;
  }
  // The buffers may overlap: take the destination's adjoint first.
  FunctionCallee mallocFn = out_.getParent()->getOrInsertFunction(
      "malloc", rb_.getPtrTy(), rb_.getInt64Ty());
  FunctionCallee freeFn = out_.getParent()->getOrInsertFunction(
      "free", rb_.getVoidTy(), rb_.getPtrTy());
  Value *tmp = rb_.CreateCall(mallocFn, {bytes});
  rb_.CreateMemCpy(tmp, MaybeAlign(), dst, MaybeAlign(), bytes);
  rb_.CreateMemSet(dst, rb_.getInt8(0), bytes, MaybeAlign());
  rb_.CreateCall(helper, {tmp, src, bytes});
  rb_.CreateCall(freeFn, {tmp});
}

absl::Status ReverseEmitter::VisitAllocationCall(CallBase &call, int kind) {
  switch (static_cast<AllocKind>(kind)) {
  case AllocKind::Malloc:
  case AllocKind::Calloc:
  case AllocKind::AlignedAlloc:
  case AllocKind::NumbaMemInfo:
  {
    EmitDeferredFree(call);
    if (!shadows_.count(&call))
      return absl::OkStatus();
    bool meminfo = static_cast<AllocKind>(kind) == AllocKind::NumbaMemInfo;
    bool released = ShadowLifeOf(call) == ShadowLife::Released;
    Value *shadow = Lookup(shadows_[&call]);
    // The reverse sweep of every derivative is done with this shadow here:
    // every use came later in the forward sweep. A callee kept as a call
    // that freed the memory deferred its shadow to this point
    // (DeferredReleases.cpp): the claim releases it, unless it is
    // released here anyway. (A vector lane body keeps no callee as a
    // call: nothing there defers.)
    if (!meminfo && !gpu_ && !inline_noinline_)
      EmitClaimDeferred(rb_, shadow, /*release=*/!released);
    if (released) {
      // A shadow MemInfo was made with a reference count of one, which the
      // forward sweep did not change: NRT_decref releases it and its data.
      FunctionCallee release = out_.getParent()->getOrInsertFunction(
          meminfo ? "NRT_decref" : "free", rb_.getVoidTy(), rb_.getPtrTy());
      rb_.CreateCall(release, {shadow});
    }
    return absl::OkStatus();
  }
  case AllocKind::Realloc:
  case AllocKind::RustRealloc: {
    if (!shadows_.count(&call))
      return absl::OkStatus();
    // The contents moved from the old buffer to the new one: their
    // adjoints move back, then the new shadow is released.
    Value *newShadow = Lookup(shadows_[&call]);
    Value *oldShadow = LookupShadow(call.getArgOperand(0));
    Value *kept = Lookup(realloc_kept_[&call]);
    if (oldShadow && !isa<ConstantPointerNull>(oldShadow)) // realloc(NULL, n)
      AD_RETURN_IF_ERROR(EmitTransferAdjoint(
          call, &call, call.getArgOperand(0), newShadow, oldShadow, kept,
          /*may_overlap=*/false, nullptr));
    RecordRelease(call); // Of the old buffer.
    if (ShadowLifeOf(call) == ShadowLife::Released)
      rb_.CreateCall(out_.getParent()->getOrInsertFunction(
                         "free", rb_.getVoidTy(), rb_.getPtrTy()),
                     {newShadow});
    return absl::OkStatus();
  }
  case AllocKind::RefCount:
    // Reference counts of the primal; shadows keep theirs (see above).
    return absl::OkStatus();
  case AllocKind::Free:
    // The primal's memory is not read in reverse, or the free is deferred
    // to the allocation's adjoint (FindDeferredFrees). The shadow of what
    // it freed is released here or where its allocation is reached, or,
    // decided at run time, recorded (ShadowLifetimes.cpp).
    RecordRelease(call);
    return absl::OkStatus();
  default:
    if (Active(&call) || any_of(call.args(), [&](Value *a) {
          return shadows_.count(a) > 0;
        }))
      return Unsupported(call, "`" + CalledFunction(call)->getName().str() +
                                   "` on active memory");
    return absl::OkStatus();
  }
}

} // namespace autodiff
