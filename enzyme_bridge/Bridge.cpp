//===- enzyme_bridge/Bridge.cpp - Differentiate __enzyme_* calls ----------===//
//
// Collects every request call in the module, parses it into a request,
// generates the derivative through the cache, and replaces the call by a
// call to the derivative whose result is re-packed into what the call site
// declared (a scalar, a struct or array of leaves in any nesting, or an
// sret buffer). Finally removes the request declarations and marker
// globals (and dead loads of them) so the output links with libc alone.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Bridge.h"

#include "enzyme_bridge/requests/CallSite.h"
#include "enzyme_bridge/requests/CallerTypes.h"
#include "enzyme_bridge/requests/JoinedRequests.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/reverse/DeferredReleases.h"
#include "enzyme_bridge/reverse/ReverseMode.h"
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/UnreadVarargs.h"
#include "enzyme_bridge/rules/Rules.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/requests/Registrations.h"
#include "enzyme_bridge/requests/RequestOrder.h"
#include "support/StatusMacros.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Scalar leaves of an aggregate/vector type, in memory order.
void LeafTypes(Type *t, SmallVectorImpl<Type *> &out) {
  if (auto *st = dyn_cast<StructType>(t)) {
    for (Type *e : st->elements())
      LeafTypes(e, out);
  } else if (auto *at = dyn_cast<ArrayType>(t)) {
    for (uint64_t i = 0; i < at->getNumElements(); ++i)
      LeafTypes(at->getElementType(), out);
  } else if (auto *vt = dyn_cast<FixedVectorType>(t)) {
    for (unsigned i = 0; i < vt->getNumElements(); ++i)
      out.push_back(vt->getElementType());
  } else {
    out.push_back(t);
  }
}

void Leaves(IRBuilder<> &b, Value *v, SmallVectorImpl<Value *> &out) {
  Type *t = v->getType();
  if (auto *st = dyn_cast<StructType>(t)) {
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      Leaves(b, b.CreateExtractValue(v, {i}), out);
  } else if (auto *at = dyn_cast<ArrayType>(t)) {
    for (unsigned i = 0; i < at->getNumElements(); ++i)
      Leaves(b, b.CreateExtractValue(v, {i}), out);
  } else if (auto *vt = dyn_cast<FixedVectorType>(t)) {
    for (unsigned i = 0; i < vt->getNumElements(); ++i)
      out.push_back(b.CreateExtractElement(v, i));
  } else {
    out.push_back(v);
  }
}

Value *Build(IRBuilder<> &b, Type *t, ArrayRef<Value *> leaves, size_t &pos) {
  if (auto *st = dyn_cast<StructType>(t)) {
    Value *agg = PoisonValue::get(t);
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      agg = b.CreateInsertValue(agg, Build(b, st->getElementType(i), leaves,
                                           pos),
                                {i});
    return agg;
  }
  if (auto *at = dyn_cast<ArrayType>(t)) {
    Value *agg = PoisonValue::get(t);
    for (unsigned i = 0; i < at->getNumElements(); ++i)
      agg = b.CreateInsertValue(
          agg, Build(b, at->getElementType(), leaves, pos), {i});
    return agg;
  }
  if (auto *vt = dyn_cast<FixedVectorType>(t)) {
    Value *vec = PoisonValue::get(t);
    for (unsigned i = 0; i < vt->getNumElements(); ++i)
      vec = b.CreateInsertElement(vec, leaves[pos++], i);
    return vec;
  }
  return leaves[pos++];
}

/// 1.0 in every floating-point leaf of `t` (zero elsewhere).
Constant *OnesLike(Type *t) {
  if (t->isFPOrFPVectorTy())
    return ConstantFP::get(t, 1.0);
  SmallVector<Constant *, 4> parts;
  if (auto *st = dyn_cast<StructType>(t)) {
    for (Type *e : st->elements())
      parts.push_back(OnesLike(e));
    return ConstantStruct::get(st, parts);
  }
  if (auto *at = dyn_cast<ArrayType>(t)) {
    for (uint64_t i = 0; i < at->getNumElements(); ++i)
      parts.push_back(OnesLike(at->getElementType()));
    return ConstantArray::get(at, parts);
  }
  return Constant::getNullValue(t);
}

std::string TypeName(Type *t) {
  std::string s;
  raw_string_ostream os(s);
  t->print(os);
  return s;
}

/// Converts a call operand to the parameter type it stands for: C variadic
/// calls promote float to double and small integers to int.
absl::StatusOr<Value *> Coerce(IRBuilder<> &b, Value *v, Type *to,
                               const RequestCall &rc, unsigned param,
                               bool shadow = false) {
  Type *from = v->getType();
  if (from == to)
    return v;
  if (from->isFloatingPointTy() && to->isFloatingPointTy())
    return b.CreateFPCast(v, to);
  if (from->isIntegerTy() && to->isIntegerTy())
    return b.CreateSExtOrTrunc(v, to);
  if (from->isPointerTy() && to->isPointerTy())
    return b.CreatePointerBitCastOrAddrSpaceCast(v, to);
  const DataLayout &dl = rc.call->getModule()->getDataLayout();
  if (from->isSized() && to->isSized() &&
      dl.getTypeStoreSize(from) == dl.getTypeStoreSize(to) &&
      !from->isAggregateType() && !to->isAggregateType() &&
      !from->isPointerTy() && !to->isPointerTy())
    return b.CreateBitCast(v, to);
  return ErrorAt(absl::StatusCode::kInvalidArgument, *rc.call,
                 std::string(shadow ? "the shadow of " : "") + "parameter " +
                     std::to_string(param) + " of `" +
                     rc.request.fn->getName().str() + "` has type `" +
                     TypeName(to) + "`, but the call passes `" +
                     ValueToString(*v) + "`");
}

/// Replaces the request call by a call to `df`.
/// A size query waiting for its augmented half's body (`placeholder`, the
/// global its uses read), or a constant `enzyme_allocated` size to check
/// against it (`given`, and the diagnostic to give).
struct TapeSizeUse {
  GlobalVariable *placeholder;
  Function *aug;
  uint64_t given;
  absl::Status error;
};

/// The `enzyme_tape` buffer of a split request, which holds the tape.
absl::StatusOr<Value *> TapeBuffer(const RequestCall &rc) {
  if (!rc.tape_buffer->getType()->isPointerTy())
    return ErrorAt(absl::StatusCode::kInvalidArgument, *rc.call,
                   "enzyme_tape must be followed by a pointer to the "
                   "buffer, found `" + ValueToString(*rc.tape_buffer) + "`");
  return static_cast<Value *>(rc.tape_buffer);
}

/// The tape operand of `__enzyme_reverse`: the value passed, or the
/// `enzyme_tape` buffer that holds it.
absl::StatusOr<Value *> SplitTape(IRBuilder<> &b, const RequestCall &rc) {
  if (rc.tape_buffer)
    return TapeBuffer(rc);
  Value *t = rc.call->getArgOperand(rc.tape_operand);
  if (isa<ConstantPointerNull>(t) || isa<UndefValue>(t) ||
      (isa<ConstantInt>(t) && cast<ConstantInt>(t)->isZero()))
    return ErrorAt(absl::StatusCode::kInvalidArgument, *rc.call,
                   "the tape passed to __enzyme_reverse is " +
                       std::string(isa<UndefValue>(t) ? "undefined"
                                                      : "null") +
                       ": it must be the pointer __enzyme_augmentfwd "
                       "returned");
  if (t->getType()->isPointerTy())
    return t;
  if (t->getType()->isIntegerTy(64))
    return b.CreateIntToPtr(t, b.getPtrTy(), "tape");
  return ErrorAt(absl::StatusCode::kInvalidArgument, *rc.call,
                 "the tape passed to __enzyme_reverse must be the pointer "
                 "__enzyme_augmentfwd returned, found `" +
                     ValueToString(*t) + "`");
}

/// `__enzyme_augmentfwd`: the augmented half returns the tape and, for a
/// function with a result, the primal result. With `enzyme_tape` the tape
/// goes to the buffer and the call returns the primal result; without, the
/// call returns the tape, or `{tape, primal}` when it is declared so.
absl::Status ReplaceAugmentCall(IRBuilder<> &b, const RequestCall &rc,
                                Function &aug, ArrayRef<Value *> operands) {
  CallBase &call = *rc.call;
  if (isa<InvokeInst>(call) || rc.sret)
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "__enzyme_augmentfwd through invoke or an sret result is "
                   "not yet supported");
  SmallVector<Value *, 8> args(operands);
  if (rc.tape_buffer) {
    AD_ASSIGN_OR_RETURN(Value * buffer, TapeBuffer(rc));
    args.push_back(buffer);
  }
  CallInst *ac = b.CreateCall(&aug, args);
  ac->setDebugLoc(call.getDebugLoc());
  CopyAbiParamAttrs(*ac, aug);
  Value *tape = aug.getReturnType()->isPointerTy()
                    ? static_cast<Value *>(ac)
                    : b.CreateExtractValue(ac, 0, "tape");
  Value *primal = aug.getReturnType()->isPointerTy()
                      ? nullptr
                      : b.CreateExtractValue(ac, 1, "primal");
  Type *want = call.getType();
  Value *result = nullptr;
  std::string offered;
  if (rc.tape_buffer) {
    if (primal && want == primal->getType())
      result = primal;
    offered = primal ? "the primal result" : "nothing";
  } else {
    auto *st = dyn_cast<StructType>(want);
    if (want->isPointerTy() || want->isIntegerTy(64))
      result = want->isPointerTy() ? tape : b.CreatePtrToInt(tape, want);
    else if (primal && st && st->getNumElements() == 2 &&
             st->getElementType(0)->isPointerTy() &&
             st->getElementType(1) == primal->getType())
      result = b.CreateInsertValue(
          b.CreateInsertValue(PoisonValue::get(st), tape, {0}), primal, {1});
    offered = primal ? "the tape (a pointer) or {tape, primal result}"
                     : "the tape (a pointer)";
  }
  if (!result && !want->isVoidTy() && !call.use_empty())
    return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                   "the call expects `" + TypeName(want) +
                       "`, but __enzyme_augmentfwd of `" +
                       rc.request.fn->getName().str() + "` gives " + offered);
  if (!want->isVoidTy())
    call.replaceAllUsesWith(result ? result : PoisonValue::get(want));
  call.eraseFromParent();
  return absl::OkStatus();
}

/// `__enzyme_augmentsize`: the bytes of the `enzyme_tape` buffer, which
/// the augmented half `aug` (its body not made yet) gives once made
/// (TapeBytes). Until then the call's uses read a placeholder `size`.
absl::Status ReplaceSizeQuery(const RequestCall &rc, Function &aug,
                              SmallVectorImpl<TapeSizeUse> &sizes) {
  CallBase &call = *rc.call;
  if (!call.getType()->isIntegerTy() && !call.use_empty())
    return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                   "__enzyme_augmentsize returns an integer (the tape's "
                   "size in bytes)");
  if (call.getType()->isIntegerTy() && !call.use_empty()) {
    auto *size = new GlobalVariable(
        *call.getModule(), call.getType(), /*isConstant=*/true,
        GlobalValue::PrivateLinkage, ConstantInt::get(call.getType(), 0),
        "autodiff.tape_bytes");
    call.replaceAllUsesWith(
        new LoadInst(call.getType(), size, "tape.bytes", call.getIterator()));
    sizes.push_back({size, &aug, 0, absl::OkStatus()});
  } else if (!call.getType()->isVoidTy()) {
    call.replaceAllUsesWith(PoisonValue::get(call.getType()));
  }
  call.eraseFromParent();
  return absl::OkStatus();
}

/// Where the size a tape needs goes in the message of a check made before
/// it is known.
constexpr const char *kNeededBytes = "<needed>";

/// Records the check of `enzyme_allocated`'s size, where it is a constant,
/// against what `aug` needs (known once its body is made).
void NoteTapeSizeCheck(const RequestCall &rc, Function &aug,
                       SmallVectorImpl<TapeSizeUse> &sizes) {
  auto *given = dyn_cast_or_null<ConstantInt>(rc.tape_size);
  if (!given || !rc.tape_buffer)
    return;
  sizes.push_back({nullptr, &aug, given->getZExtValue(),
                   ErrorAt(absl::StatusCode::kInvalidArgument, *rc.call,
                           "enzyme_allocated gives " +
                               std::to_string(given->getZExtValue()) +
                               " bytes, fewer than the tape needs (" +
                               kNeededBytes +
                               "; __enzyme_augmentsize gives it)")});
}

/// After the bodies are made: each size query's placeholder becomes the
/// bytes its augmented half needs, and each constant `enzyme_allocated`
/// size is checked against them.
void SettleTapeSizes(ArrayRef<TapeSizeUse> sizes,
                     std::vector<absl::Status> &errors) {
  for (const TapeSizeUse &u : sizes) {
    uint64_t needed = TapeBytes(*u.aug);
    if (u.placeholder) {
      auto *ty = cast<IntegerType>(u.placeholder->getValueType());
      SmallVector<User *, 4> loads(u.placeholder->users());
      for (User *l : loads) {
        l->replaceAllUsesWith(ConstantInt::get(ty, needed));
        cast<Instruction>(l)->eraseFromParent();
      }
      u.placeholder->eraseFromParent();
    } else if (u.given < needed) {
      std::string message(u.error.message());
      message.replace(message.find(kNeededBytes), strlen(kNeededBytes),
                      std::to_string(needed));
      absl::Status error(u.error.code(), message);
      u.error.ForEachPayload([&](absl::string_view url, const absl::Cord &p) {
        error.SetPayload(url, p);
      });
      errors.push_back(error);
    }
  }
}

/// Whether the call site's result (`want`, set to void when the result is
/// unused or goes to an implicit sret) can take the derivative's: the same
/// leaves (`same_leaves`), or the same size as an ABI coercion. A result
/// nobody uses may have any declared type (C code often declares one
/// `double __enzyme_fwddiff(void *, ...)` for every call).
absl::Status CheckResultLayout(const RequestCall &rc, Function &df,
                               Type *&want, bool &sameLeaves) {
  CallBase &call = *rc.call;
  const DiffRequest &r = rc.request;
  if ((!rc.sret && call.use_empty()) || rc.implicit_sret)
    want = Type::getVoidTy(call.getContext());
  Type *have = df.getReturnType();
  SmallVector<Type *, 8> wantLeaves, haveLeaves;
  if (!want->isVoidTy())
    LeafTypes(want, wantLeaves);
  if (!have->isVoidTy())
    LeafTypes(have, haveLeaves);
  const DataLayout &dl = call.getModule()->getDataLayout();
  sameLeaves = wantLeaves == haveLeaves;
  // Same-size results of other shapes are ABI coercions ({float, float}
  // as an i64, say); two floating-point layouts that differ are not.
  auto scalars = [](ArrayRef<Type *> leaves, SmallVectorImpl<Type *> &out) {
    bool allFloat = true;
    for (Type *t : leaves) {
      auto *vt = dyn_cast<FixedVectorType>(t);
      Type *elt = vt ? vt->getElementType() : t;
      out.append(vt ? vt->getNumElements() : 1, elt);
      allFloat &= elt->isFloatingPointTy();
    }
    return allFloat;
  };
  SmallVector<Type *, 8> wantScalars, haveScalars;
  bool floatLayouts = scalars(wantLeaves, wantScalars) &
                      scalars(haveLeaves, haveScalars);
  bool sameSize = !want->isVoidTy() && !have->isVoidTy() &&
                  dl.getTypeStoreSize(want) == dl.getTypeStoreSize(have) &&
                  !(floatLayouts && wantScalars != haveScalars);
  if (!want->isVoidTy() && !sameLeaves && !sameSize) {
    std::string leaves;
    for (Type *t : haveLeaves)
      leaves += (leaves.empty() ? "" : ", ") + TypeName(t);
    return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                   "the call expects `" + TypeName(want) +
                       "`, but the derivative of `" + r.fn->getName().str() +
                       "` (" + r.ToString() + ") returns " +
                       (leaves.empty() ? std::string("nothing")
                                       : "(" + leaves + ")"));
  }

  return absl::OkStatus();
}

absl::Status ReplaceRequestCall(const RequestCall &rc, Function &df) {
  CallBase &call = *rc.call;
  const DiffRequest &r = rc.request;
  IRBuilder<> b(&call);
  SmallVector<Value *, 8> args;
  FunctionType *fty = r.fn->getFunctionType();
  unsigned first = 0;
  if (rc.implicit_sret) {
    // f's result buffer: the primal goes to the first half of the call's
    // result with enzyme_primal_return (else to a scratch slot), the tangent
    // to the rest.
    Type *st = r.fn->getParamStructRetType(0);
    const DataLayout &dl = call.getModule()->getDataLayout();
    uint64_t size = dl.getTypeAllocSize(st);
    uint64_t have = dl.getTypeAllocSize(rc.result_type);
    bool withPrimal = rc.implicit_sret_primal;
    if (have != (withPrimal ? 2 : 1) * size)
      return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                     "the call's result (" + TypeName(rc.result_type) +
                         ") does not hold " +
                         (withPrimal ? "the primal and the tangent of "
                                          : "the tangent of ") +
                         TypeName(st) + " returned by `" +
                         r.fn->getName().str() + "`");
    Value *primal;
    if (withPrimal) {
      primal = rc.sret;
    } else {
      IRBuilder<> eb(&*call.getFunction()->getEntryBlock().getFirstInsertionPt());
      primal = eb.CreateAlloca(st, nullptr, "sret.primal");
    }
    args.push_back(primal);
    args.push_back(withPrimal
                       ? b.CreateConstGEP1_64(b.getInt8Ty(), rc.sret, size)
                       : rc.sret);
    first = 1;
  }
  for (unsigned i = first; i < r.args.size(); ++i) {
    Type *pt = fty->getParamType(i);
    AD_ASSIGN_OR_RETURN(Value * p, Coerce(b, rc.primals[i], pt, rc, i));
    args.push_back(p);
    if (r.IsActive(i))
      for (Value *s : rc.shadows[i]) {
        AD_ASSIGN_OR_RETURN(Value * sv, Coerce(b, s, pt, rc, i, /*shadow=*/true));
        args.push_back(sv);
      }
  }

  if ((r.mode == Mode::Reverse || r.mode == Mode::SplitReverse) &&
      r.return_tangent) {
    // The seeds of the return, one per lane: `enzyme_seed`'s values (the
    // differential return of `__enzyme_reverse`), else 1.0.
    Type *rt = fty->getReturnType();
    if (!rc.seeds.empty() && rc.seeds.size() != r.width)
      return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                     "enzyme_seed gives " + std::to_string(rc.seeds.size()) +
                         " seeds for width " + std::to_string(r.width) +
                         " (one per lane)");
    for (Value *given : rc.seeds) {
      AD_ASSIGN_OR_RETURN(Value * seed, Coerce(b, given, rt, rc, ~0u));
      args.push_back(seed);
    }
    if (rc.seeds.empty())
      args.append(r.width, OnesLike(rt)); // One seed per lane.
  }
  if (r.mode == Mode::SplitReverse) {
    AD_ASSIGN_OR_RETURN(Value * tape, SplitTape(b, rc));
    args.push_back(tape);
  }
  if (r.mode == Mode::Augmented)
    return ReplaceAugmentCall(b, rc, df, args);

  // Check the result layout before changing anything.
  Type *want = rc.result_type;
  bool sameLeaves = false;
  AD_RETURN_IF_ERROR(CheckResultLayout(rc, df, want, sameLeaves));
  Type *have = df.getReturnType();

  Value *result;
  BasicBlock *cont = nullptr;
  if (auto *inv = dyn_cast<InvokeInst>(&call)) {
    // Unpack the result in a block of its own on the normal edge.
    BasicBlock *normal = inv->getNormalDest();
    cont = BasicBlock::Create(call.getContext(), "enzyme.cont",
                              call.getFunction(), normal);
    InvokeInst *ni =
        b.CreateInvoke(&df, cont, inv->getUnwindDest(), args);
    IRBuilder<>(cont).CreateBr(normal);
    normal->replacePhiUsesWith(inv->getParent(), cont);
    result = ni;
    b.SetInsertPoint(cont->getTerminator());
  } else {
    result = b.CreateCall(&df, args);
  }
  cast<Instruction>(result)->setDebugLoc(call.getDebugLoc());
  CopyAbiParamAttrs(*cast<CallBase>(result), df);

  Value *out = nullptr;
  if (!want->isVoidTy()) {
    if (sameLeaves) {
      SmallVector<Value *, 8> leaves;
      Leaves(b, result, leaves);
      size_t pos = 0;
      out = Build(b, want, leaves, pos);
    } else {
      // Same size, other shape (e.g. a C struct coerced to integers):
      // re-read through memory.
      AllocaInst *tmp = b.CreateAlloca(have);
      b.CreateStore(result, tmp);
      out = b.CreateLoad(want, tmp);
    }
    if (rc.sret)
      b.CreateStore(out, rc.sret);
  }
  if (!call.getType()->isVoidTy()) {
    if (out)
      out->takeName(&call);
    call.replaceAllUsesWith(out ? out : PoisonValue::get(call.getType()));
  }
  call.eraseFromParent();
  return absl::OkStatus();
}

/// Whether `name` is one of the entry points a request calls.
bool IsRequestEntryPoint(StringRef name) {
  return RequestModeOfName(name).has_value();
}

/// Removes request declarations, dead loads of marker globals, and unused
/// marker globals.
void CleanUp(Module &m) {
  SmallVector<Instruction *, 16> deadLoads;
  for (GlobalVariable &gv : m.globals())
    if (MarkerName(&gv))
      for (User *u : gv.users())
        if (auto *l = dyn_cast<LoadInst>(u))
          if (l->use_empty())
            deadLoads.push_back(l);
  for (Instruction *l : deadLoads)
    l->eraseFromParent();
  SmallVector<GlobalValue *, 16> dead;
  for (GlobalVariable &gv : m.globals())
    if (MarkerName(&gv) && gv.isDeclaration() && gv.use_empty())
      dead.push_back(&gv);
  for (Function &f : m)
    if (f.isDeclaration() && f.use_empty() &&
        IsRequestEntryPoint(f.getName()))
      dead.push_back(&f);
  for (GlobalValue *g : dead)
    g->eraseFromParent();
}

/// A tape passed to `__enzyme_reverse` that is visibly the result of an
/// `__enzyme_augmentfwd` call (its value, or the tape field of its result)
/// must come from the same function with the same activities: the tape's
/// layout is the augmented half's. (A tape kept in memory between the two
/// calls cannot be followed.)
void CheckTapeOrigins(ArrayRef<RequestCall> parsed,
                      std::vector<absl::Status> &errors) {
  DenseMap<const Value *, const RequestCall *> augments;
  for (const RequestCall &rc : parsed)
    if (rc.request.mode == Mode::Augmented && !rc.size_query)
      augments[rc.call] = &rc;
  for (const RequestCall &rc : parsed) {
    if (rc.request.mode != Mode::SplitReverse || rc.tape_buffer)
      continue;
    const Value *t = rc.call->getArgOperand(rc.tape_operand);
    t = t->stripPointerCasts();
    if (const auto *ev = dyn_cast<ExtractValueInst>(t);
        ev && ev->getNumIndices() == 1 && ev->getIndices()[0] == 0)
      t = ev->getAggregateOperand();
    const RequestCall *aug = augments.lookup(t);
    if (!aug)
      continue;
    if (aug->request.fn != rc.request.fn)
      errors.push_back(ErrorAt(
          absl::StatusCode::kInvalidArgument, *rc.call,
          "the tape passed to __enzyme_reverse of `" +
              rc.request.fn->getName().str() +
              "` comes from __enzyme_augmentfwd of `" +
              aug->request.fn->getName().str() +
              "`: a tape is only valid for the function it was made for"));
    else if (aug->request.args != rc.request.args ||
             aug->request.width != rc.request.width)
      errors.push_back(ErrorAt(
          absl::StatusCode::kInvalidArgument, *rc.call,
          "the tape passed to __enzyme_reverse of `" +
              rc.request.fn->getName().str() +
              "` was made by __enzyme_augmentfwd with other activities "
              "(augmented " +
              aug->request.ToString() + ", reversed " +
              rc.request.ToString() +
              "): both calls must pass the same markers"));
  }
}

/// Differentiates one batch of request calls with one cache.
absl::Status DifferentiateBatch(Module &m, ArrayRef<CallBase *> calls,
                                const BridgeOptions &opts, bool nested,
                                bool respect_noinline) {
  std::vector<absl::Status> errors;
  SmallVector<RequestCall, 16> parsed;
  for (CallBase *cb : calls) {
    absl::StatusOr<RequestCall> rc = ParseRequestCall(*cb);
    if (!rc.ok()) {
      errors.push_back(rc.status());
      continue;
    }
    parsed.push_back(*rc);
  }
  AddCallerArgumentTypes(parsed);
  CheckTapeOrigins(parsed, errors);

  DerivativeCache cache(m);
  cache.set_tape_log(opts.tape_log);
  cache.set_derivative_fmf(opts.derivative_fmf);
  // GPU threads would share a pool: each derivative keeps its own arrays.
  cache.set_tape_pools(!nested && !IsGpuModule(m));
  cache.set_undo_log(!nested && opts.undo_log);
  cache.set_respect_noinline(respect_noinline);
  SmallVector<std::pair<RequestCall *, Function *>, 16> todo;
  SmallVector<TapeSizeUse, 4> sizes;
  for (RequestCall &rc : parsed) {
    absl::StatusOr<Function *> df = cache.Get(rc.request);
    if (!df.ok()) {
      errors.push_back(ErrorAt(df.status().code(), *rc.call,
                               std::string(df.status().message())));
      continue;
    }
    cache.NoteRoot(**df);
    if (rc.size_query) {
      if (absl::Status st = ReplaceSizeQuery(rc, **df, sizes); !st.ok())
        errors.push_back(st);
      continue;
    }
    if (rc.tape_buffer) {
      DiffRequest aug = rc.request;
      aug.mode = Mode::Augmented;
      if (absl::StatusOr<Function *> a = cache.Get(aug); a.ok())
        NoteTapeSizeCheck(rc, **a, sizes);
    }
    todo.push_back({&rc, *df});
  }
  // Calls are replaced before the bodies are made: only the derivatives'
  // signatures matter, so every mismatched argument or result is reported,
  // and so is every derivative that cannot be made. (No request of a batch lies in code the batch
  // differentiates: such a request is not ready.)
  for (auto &[rc, df] : todo)
    if (absl::Status st = ReplaceRequestCall(*rc, *df); !st.ok())
      errors.push_back(st);
  if (absl::Status st = cache.Drain(); !st.ok())
    errors.push_back(st);
  FinishDeferredReleases(m);
  SettleTapeSizes(sizes, errors);
  if (!errors.empty())
    return JoinProblems(errors);
  if (opts.cache_log)
    cache.Print(*opts.cache_log);
  return absl::OkStatus();
}

/// Enzyme entry points the core does not implement yet, with the reason.
std::optional<std::string> UnsupportedEntryPoint(StringRef name) {
  for (const char *other :
       {"__enzyme_fwdsplit", "__enzyme_batch", "__enzyme_todense",
        "__enzyme_virtualreverse", "__enzyme_truncate"})
    if (name.contains(other))
      return std::string("the Enzyme entry point `") + other +
             "` is not supported by the differentiation core";
  return std::nullopt;
}

/// Calls to entry points the core does not implement (split reverse mode,
/// batching, ...): a diagnostic each, rather than a call left in the
/// module and a link error later.
absl::Status RejectUnsupportedEntryPoints(Module &m) {
  std::vector<absl::Status> problems;
  for (Function &f : m) {
    if (!f.isDeclaration() || !f.getName().contains("__enzyme_"))
      continue;
    std::optional<std::string> why = UnsupportedEntryPoint(f.getName());
    if (!why)
      continue;
    for (User *u : f.users())
      if (auto *cb = dyn_cast<CallBase>(u))
        if (cb->getCalledOperand()->stripPointerCasts() == &f)
          problems.push_back(
              ErrorAt(absl::StatusCode::kUnimplemented, *cb, *why));
  }
  return JoinProblems(problems);
}

/// A request is a direct call of its entry point. An entry point whose
/// address is used otherwise (stored, passed, called through a volatile
/// or run-time function pointer) cannot be differentiated: a diagnostic,
/// rather than a call left in the module and a link error later.
absl::Status RejectIndirectRequests(Module &m) {
  std::vector<absl::Status> problems;
  for (Function &f : m) {
    if (!f.isDeclaration() || !IsRequestEntryPoint(f.getName()))
      continue;
    std::string why = "the address of `" + f.getName().str() +
                      "` is used other than as the callee of a call: a "
                      "request must call it directly (a call through a "
                      "function pointer, volatile or chosen at run time, "
                      "cannot be differentiated)";
    SmallVector<User *, 8> work(f.users());
    SmallPtrSet<User *, 8> seen;
    while (!work.empty()) {
      User *u = work.pop_back_val();
      if (!seen.insert(u).second)
        continue;
      if (auto *cb = dyn_cast<CallBase>(u);
          cb && cb->getCalledOperand()->stripPointerCasts() == &f)
        continue;
      if (auto *i = dyn_cast<Instruction>(u)) {
        problems.push_back(
            ErrorAt(absl::StatusCode::kInvalidArgument, *i, why));
      } else if (auto *g = dyn_cast<GlobalVariable>(u)) {
        problems.push_back(absl::InvalidArgumentError(
            "in the initializer of global `" + g->getName().str() +
            "`: " + why));
      } else {
        work.append(u->user_begin(), u->user_end());
      }
    }
  }
  return JoinProblems(problems);
}

} // namespace

absl::StatusOr<FastMathFlags> ParseFastMathFlags(std::string_view spec) {
  FastMathFlags fmf;
  StringRef text(spec.data(), spec.size());
  if (text == "none")
    return fmf;
  if (text == "fast") {
    fmf.setFast();
    return fmf;
  }
  // LLVM's names of the flags, and their setters.
  static const std::pair<StringRef, void (FastMathFlags::*)(bool)> kFlags[] =
      {{"reassoc", &FastMathFlags::setAllowReassoc},
       {"nnan", &FastMathFlags::setNoNaNs},
       {"ninf", &FastMathFlags::setNoInfs},
       {"nsz", &FastMathFlags::setNoSignedZeros},
       {"arcp", &FastMathFlags::setAllowReciprocal},
       {"contract", &FastMathFlags::setAllowContract},
       {"afn", &FastMathFlags::setApproxFunc}};
  SmallVector<StringRef, 8> names;
  text.split(names, ',');
  for (StringRef name : names) {
    name = name.trim();
    const auto *flag = find_if(kFlags, [&](auto &f) { return f.first == name; });
    if (flag != std::end(kFlags))
      (fmf.*(flag->second))(true);
    else
      return absl::InvalidArgumentError(
          "unknown fast-math flag `" + name.str() +
          "` (expected none, fast, or a comma-separated list of reassoc, "
          "nnan, ninf, nsz, arcp, contract, afn)");
  }
  return fmf;
}

/// Calls to variadic functions that never read their variadic arguments,
/// in code a request reaches, call fixed-arity copies (UnreadVarargs.h).
void DropUnreadVarargsOfRequests(Module &m) {
  DenseSet<Function *> reachedSet;
  for (Function &f : m)
    for (BasicBlock &bb : f)
      for (Instruction &i : bb)
        if (auto *cb = dyn_cast<CallBase>(&i))
          if (RequestModeOf(*cb))
            for (auto &entry : Reachable(RequestTarget(*cb)))
              reachedSet.insert(entry.first);
  // In module order, not the sets' (the copies are made in this order).
  SetVector<Function *> reached;
  for (Function &f : m)
    if (reachedSet.count(&f))
      reached.insert(&f);
  DropUnreadVarargs(reached);
}

absl::Status DifferentiateModule(Module &m, const BridgeOptions &opts) {
  AD_RETURN_IF_ERROR(RejectUnsupportedEntryPoints(m));
  SplitJoinedRequests(m);
  AD_RETURN_IF_ERROR(RejectIndirectRequests(m));
  DropUnreadVarargsOfRequests(m);
  RegisterSharedMemoryShadows(m);
  AD_RETURN_IF_ERROR(ApplyShadowRegistrations(m));
  AD_RETURN_IF_ERROR(CheckRuleRegistrations(m));
  // clang -O0 marks every function `noinline` (see DerivativeCache). In
  // GPU device code a call kept as a call would take its tape from the
  // device heap, which is slow and contended: noinline callees are
  // differentiated inline there.
  bool respect_noinline =
      !IsGpuModule(m) && any_of(m, [](const Function &f) {
        return !f.isDeclaration() && !f.hasFnAttribute(Attribute::NoInline);
      });
  // A request is ready when the code it differentiates contains no other
  // request (a derivative of a function that itself asks for one): ready
  // requests are replaced first, in rounds, so outer derivatives
  // differentiate plain calls to inner ones. Each round replaces at least
  // one request and adds none.
  for (;;) {
    SmallVector<CallBase *, 16> calls;
    for (Function &f : m)
      for (BasicBlock &bb : f)
        for (Instruction &i : bb)
          if (auto *cb = dyn_cast<CallBase>(&i))
            if (RequestModeOf(*cb))
              calls.push_back(cb);
    if (calls.empty())
      break;
    AD_ASSIGN_OR_RETURN(RequestRound round, NextRequestRound(calls));
    if (!round.nested.empty())
      AD_RETURN_IF_ERROR(
          DifferentiateBatch(m, round.nested, opts, true, respect_noinline));
    if (!round.outer.empty())
      AD_RETURN_IF_ERROR(
          DifferentiateBatch(m, round.outer, opts, false, respect_noinline));
  }
  if (opts.erase_dead_declarations)
    CleanUp(m);
  return absl::OkStatus();
}

} // namespace autodiff
