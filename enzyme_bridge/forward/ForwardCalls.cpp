//===- enzyme_bridge/forward/ForwardCalls.cpp - Forward mode for calls ----===//
//
// In order: calls known to be inactive are copied; memory intrinsics act on
// shadows too; vector reductions and rule-table math get tangents; heap
// allocations (ForwardAllocation.cpp) get zeroed shadow allocations and
// matching frees; special math (ForwardMathCalls.cpp); calls to
// functions defined in the module are replaced by calls to their
// derivatives (through the request cache, so recursion works; what the
// callee's request says of its arguments: ForwardCallRequests.cpp); calls
// through function pointers dispatch at run time over the module's
// address-taken functions of that type. Anything else that touches active
// values is a diagnostic.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/requests/CallSite.h"
#include "enzyme_bridge/requests/CallerTypes.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/FloatBytes.h"
#include "enzyme_bridge/forward/ForwardEmitter.h"
#include "enzyme_bridge/analysis/ReturnedBits.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/rules/BlasRules.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/Analysis/ValueTracking.h"
#include "support/StatusMacros.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;

namespace autodiff {

namespace {

/// OpenMP's entry to an outlined parallel region (`#pragma omp parallel`).
bool IsOpenMPFork(const Function *callee) {
  if (!callee)
    return false;
  StringRef name = callee->getName();
  return name.starts_with("__kmpc_fork_") || name == "GOMP_parallel";
}

/// Whether `f`, or a function it calls directly, uses a global that has a
/// shadow (`!enzyme_shadow`): active memory not passed as an argument.
bool UsesShadowedGlobal(const Function *f) {
  SmallPtrSet<const Function *, 8> seen;
  SmallVector<const Function *, 8> work = {f};
  while (!work.empty()) {
    const Function *g = work.pop_back_val();
    if (!g || g->isDeclaration() || !seen.insert(g).second)
      continue;
    for (const BasicBlock &bb : *g)
      for (const Instruction &i : bb) {
        for (const Value *op : i.operands())
          if (const auto *gv = dyn_cast<GlobalVariable>(op->stripPointerCasts()))
            if (gv->getMetadata("enzyme_shadow"))
              return true;
        if (const auto *cb = dyn_cast<CallBase>(&i))
          work.push_back(CalledFunction(*cb));
      }
  }
  return false;
}

/// The diagnostic for a call with active arguments that nothing handles.
absl::Status NoRuleForCall(CallBase &call, Function *callee) {
  const char *inactive = "if it cannot affect derivatives, mark it inactive "
                         "(the \"enzyme_inactive\" attribute or "
                         "__enzyme_inactivefn)";
  if (!callee)
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "inline assembly on active data cannot be differentiated; "
                   "move it into a function and register a custom derivative "
                   "for that function with __enzyme_register_derivative_NAME, "
                   "or mark that function inactive (the \"enzyme_inactive\" "
                   "attribute or __enzyme_inactivefn) if it cannot affect "
                   "derivatives");
  if (RequestModeOf(call))
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "a request for a derivative inside code being "
                   "differentiated, which could not be replaced by its "
                   "derivative first (it is reached through a function "
                   "pointer, or requests reach each other recursively); this "
                   "is not supported");
  StringRef name = callee->getName();
  if (name.starts_with("__enzyme_"))
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "`" + name.str() +
                       "` is part of the Enzyme interface, not a function to "
                       "differentiate; it is not supported inside code being "
                       "differentiated");
  if (!callee->hasName())
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "no derivative rule for a call to an unnamed function, "
                   "which receives active values; " + std::string(inactive) +
                       ", or give its definition to the module");
  return ErrorAt(absl::StatusCode::kUnimplemented, call,
                 "no derivative rule for call to `" + name.str() +
                     "`, which receives active values; " + inactive +
                     ", or give its definition to the module, or register a "
                     "custom derivative (__enzyme_register_derivative_" +
                     name.str() + ")");
}

} // namespace

absl::Status ForwardEmitter::visitCallBase(CallBase &call) {
  if (IsInactiveCall(call))
    return absl::OkStatus();
  Function *callee = CalledFunction(call);
  if (IsOpenMPFork(callee)) {
    // The region runs in an outlined function that the runtime calls on
    // every thread: nothing differentiates it, so it may only be copied
    // when it cannot touch active data.
    const Value *outlined =
        call.arg_size() > 2 ? call.getArgOperand(2)->stripPointerCasts()
                            : nullptr;
    bool active = any_of(call.args(), [&](Value *a) { return HasT(a); }) ||
                  UsesShadowedGlobal(dyn_cast_or_null<Function>(outlined));
    if (active)
      return ErrorAt(
          absl::StatusCode::kUnimplemented, call,
          "OpenMP parallel regions (`#pragma omp parallel`, outlined into `" +
              (outlined ? outlined->getName().str() : std::string("?")) +
              "` and started with `" + callee->getName().str() +
              "`) are not supported yet, and this one touches active data; "
              "build the differentiated code without -fopenmp, or move the "
              "parallel region out of it");
    return absl::OkStatus();
  }
  if (callee && callee->isIntrinsic())
    return VisitIntrinsic(call, *callee);
  AllocKind ak = ClassifyAllocation(call);
  if (ak != AllocKind::None)
    return VisitAllocation(call, static_cast<int>(ak));
  if (callee && (callee->getName() == "NRT_MemInfo_varsize_alloc" ||
                 callee->getName() == "NRT_MemInfo_varsize_realloc"))
    return VisitNumbaVarsize(call);

  bool anyActiveArg = false;
  bool defined = callee && !callee->isDeclaration();
  for (Value *a : call.args())
    anyActiveArg |= (HasT(a) && CarriesDerivative(a->getType())) ||
                    (defined ? PassesBitsInto(a, callee)
                             : PassesFloatBits(a, /*loose=*/false));
  if (!anyActiveArg) {
    // A function of the module returning memory that receives active data
    // (an allocation helper such as Rust's box_new_uninit) is
    // differentiated for the shadow of its result.
    if (callee && !callee->isDeclaration() &&
        ContainsPointer(call.getType()) && Active(&call) &&
        ReturnsFreshMemory(*callee))
      return VisitModuleCall(call, *callee);
    // A pointer from a function without a body into memory that receives
    // active data: its shadow cannot be made (the zero arena's would
    // fault at the first write).
    if (callee && callee->isDeclaration() && !FindRule(call) &&
        ContainsPointer(call.getType()) && Active(&call))
      return ErrorAt(absl::StatusCode::kUnimplemented, call,
                     "the function has no body and no derivative rule, "
                     "and returns a pointer to memory that receives active "
                     "data, so its shadow cannot be made; give its "
                     "definition to the module, or register a custom "
                     "derivative (__enzyme_register_derivative_" +
                         callee->getName().str() + ")");
    return absl::OkStatus(); // Copied: nothing active flows in.
  }

  if (callee)
    if (Function *rule = RegisteredForwardRule(*callee))
      return VisitCustomRule(call, *rule);
  if (callee && HasBuiltinReverseRule(*callee)) {
    if (std::string why = BuiltinRuleLimitation(call, *callee); !why.empty())
      return ErrorAt(absl::StatusCode::kUnimplemented, call, why);
    return VisitCustomRule(call, *BuiltinForwardRule(*callee),
                           /*before_call=*/true);
  }
  if (FindRule(call)) {
    SmallVector<Value *, 3> ops(call.args());
    return ApplyRule(call, ops);
  }
  if (callee && callee->isDeclaration() &&
      (VisitOutputPointerMath(call, callee->getName()) ||
       VisitComplexCall(call, callee->getName()) ||
       VisitGammaCall(call, NumbaMathName(callee->getName()))))
    return absl::OkStatus();
  if (isa<InvokeInst>(call) && callee && callee->isDeclaration())
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "differentiating an `invoke` of a function without a body "
                   "in the module is not supported");
  if (callee && !callee->isDeclaration())
    return VisitModuleCall(call, *callee);
  if (!callee && !call.isInlineAsm())
    return VisitIndirectCall(call);
  // An integer result of a declared function taking only scalars (lround,
  // ilogb): nothing carries a derivative out.
  if (callee && call.getType()->isIntOrIntVectorTy() &&
      none_of(call.args(),
              [](Value *a) { return ContainsPointer(a->getType()); }))
    return absl::OkStatus();
  return NoRuleForCall(call, callee);
}

//===----------------------------------------------------------------------===//
// Intrinsics
//===----------------------------------------------------------------------===//

absl::Status ForwardEmitter::VisitIntrinsic(CallBase &call, Function &callee) {
  Intrinsic::ID id = callee.getIntrinsicID();
  if (isa<MemIntrinsic>(call))
    return VisitMemoryIntrinsic(call);

  SmallVector<Value *, 3> args(call.args());
  bool anyActive = false;
  for (Value *a : args)
    anyActive |= HasT(a);
  if (!anyActive)
    return absl::OkStatus();

  switch (id) {
  case Intrinsic::masked_load:
  case Intrinsic::masked_gather:
  case Intrinsic::masked_store:
  case Intrinsic::masked_scatter:
    return VisitMaskedAccess(call);
  case Intrinsic::vector_reduce_fadd:
  case Intrinsic::vector_reduce_fmul:
  case Intrinsic::vector_reduce_fmax:
  case Intrinsic::vector_reduce_fmin:
  case Intrinsic::vector_reduce_fmaximum:
  case Intrinsic::vector_reduce_fminimum:
    return VisitVectorReduction(call);
  case Intrinsic::modf:
  case Intrinsic::frexp:
  case Intrinsic::sincos:
    return VisitPairResultIntrinsic(call);
  default:
    break;
  }
  if (FindRule(call))
    return ApplyRule(call, args);
  if (callee.getName().starts_with("llvm.x86.") && VisitX86Intrinsic(call))
    return absl::OkStatus();
  // (Integers with tangents whose memory the type analysis does not know
  // as floats count too when the result becomes a float again.)
  if (call.getType()->isIntOrIntVectorTy())
    if (any_of(args, [&](Value *a) {
          return a->getType()->isIntOrIntVectorTy() && HasT(a) &&
                 (IsFloatBits(a, 0, /*direct=*/false, /*loose=*/true) ||
                  FloatBitsReachFloat(call));
        }))
      return VisitIntegerBitsIntrinsic(call);
  // An integer result from scalars (lrint, lround, is.fpclass): nothing
  // carries a derivative out.
  if (!CarriesDerivative(call.getType()) &&
      none_of(args, [](Value *a) { return ContainsPointer(a->getType()); }))
    return absl::OkStatus();
  return ErrorAt(absl::StatusCode::kUnimplemented, call,
                 "no derivative rule for intrinsic `" +
                     callee.getName().str() + "`");
}

absl::Status ForwardEmitter::VisitMemoryIntrinsic(CallBase &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  if (auto *mt = dyn_cast<MemTransferInst>(&call)) {
    Value *dst = mt->getRawDest(), *src = mt->getRawSource();
    if (!HasT(dst)) {
      if (HasT(src) && Active(src))
        return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                       "copies active memory into memory without a shadow; "
                       "the derivative would be lost");
      return absl::OkStatus();
    }
    AD_RETURN_IF_ERROR(CheckFloatPlacement(call));
    for (unsigned k = 0; k < width_; ++k) {
      if (Value *ss = T(src, k))
        b_.CreateMemTransferInst(id, T(dst, k), mt->getDestAlign(), ss,
                                 mt->getSourceAlign(), mt->getLength(),
                                 mt->isVolatile());
      else
        b_.CreateMemSet(T(dst, k), b_.getInt8(0), mt->getLength(),
                        mt->getDestAlign(), mt->isVolatile());
    }
    return absl::OkStatus();
  }
  auto &ms = cast<MemSetInst>(call);
  if (!HasT(ms.getRawDest()))
    return absl::OkStatus();
  for (unsigned k = 0; k < width_; ++k)
    b_.CreateMemSet(T(ms.getRawDest(), k), b_.getInt8(0), ms.getLength(),
                    ms.getDestAlign(), ms.isVolatile());
  return absl::OkStatus();
}

/// Masked and gathered memory access (vectorized loops with conditions or
/// indirect indices): the same access on the shadows, under the same mask.
/// The call is cloned so its alignment attributes carry over.
absl::Status ForwardEmitter::VisitMaskedAccess(CallBase &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  SmallVector<Value *, 3> args(call.args());
  bool isLoad = id == Intrinsic::masked_load || id == Intrinsic::masked_gather;
  unsigned ptrOp = isLoad ? 0 : 1;
  Value *ptr = call.getArgOperand(ptrOp);
  if (!HasT(ptr)) {
    if (!isLoad && HasT(args[0]) && Active(args[0]))
      return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                     "the stored value is active but the destination has "
                     "no shadow memory; " +
                         NoShadowAdvice(*ptr));
    return absl::OkStatus();
  }
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    auto *clone = cast<CallBase>(call.clone());
    clone->setArgOperand(ptrOp, TOrZero(ptr, k));
    if (isLoad) {
      unsigned last = call.arg_size() - 1;
      clone->setArgOperand(last, TOrZero(call.getArgOperand(last), k));
    } else {
      clone->setArgOperand(0, TOrZero(args[0], k));
    }
    b_.Insert(clone, isLoad ? call.getName() + "'" : "");
    lanes.push_back(clone);
  }
  if (isLoad)
    SetT(&call, lanes);
  return absl::OkStatus();
}

/// Vector reductions: fadd is linear; fmul by the product rule lane by
/// lane; fmax/fmin pass on the tangent of the lane that was chosen.
absl::Status ForwardEmitter::VisitVectorReduction(CallBase &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  SmallVector<Value *, 3> args(call.args());
  if (id == Intrinsic::vector_reduce_fadd) {
    // Linear in both operands.
    Lanes lanes;
    for (unsigned k = 0; k < width_; ++k) {
      Value *tstart = TOrZero(args[0], k);
      Value *tvec = TOrZero(args[1], k);
      CallInst *r = b_.CreateFAddReduce(tstart, tvec);
      r->copyFastMathFlags(&call);
      lanes.push_back(r);
    }
    SetT(&call, lanes);
    return absl::OkStatus();
  }
  bool isMul = id == Intrinsic::vector_reduce_fmul;
  Value *vec = isMul ? args[1] : args[0];
  unsigned n = cast<FixedVectorType>(vec->getType())->getNumElements();
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    Value *tv = TOrZero(vec, k);
    Value *t;
    if (isMul) {
      // Product rule, lane by lane: (acc * v)' = acc' * v + acc * v'.
      Value *acc = args[0];
      t = TOrZero(args[0], k);
      for (unsigned j = 0; j < n; ++j) {
        Value *v = b_.CreateExtractElement(vec, j);
        Value *dv = b_.CreateExtractElement(tv, j);
        Value *tv = b_.CreateFMul(t, v);
        Value *accdv = b_.CreateFMul(acc, dv);
        t = b_.CreateFAdd(tv, accdv);
        acc = b_.CreateFMul(acc, v);
      }
    } else {
      // The tangent of the first lane equal to the result.
      t = ConstantFP::get(call.getType(), 0.0);
      for (unsigned j = n; j-- > 0;) {
        Value *v = b_.CreateExtractElement(vec, j);
        Value *eq = b_.CreateFCmpOEQ(v, &call);
        t = b_.CreateSelect(eq, b_.CreateExtractElement(tv, j), t);
      }
    }
    lanes.push_back(t);
  }
  SetT(&call, lanes);
  return absl::OkStatus();
}

/// Intrinsics returning a pair: {fraction, integral part} (modf): (t, 0);
/// {mantissa, exponent} (frexp): (t * 2^-e, -); {sin, cos} (sincos):
/// (cos * t, -sin * t).
absl::Status ForwardEmitter::VisitPairResultIntrinsic(CallBase &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  SmallVector<Value *, 3> args(call.args());
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    Value *t = TOrZero(args[0], k);
    Value *first, *second = nullptr;
    if (id == Intrinsic::modf) {
      first = t;
      second = ConstantFP::get(t->getType(), 0.0);
    } else if (id == Intrinsic::frexp) {
      Value *e = b_.CreateExtractValue(&call, {1});
      first = b_.CreateCall(Intrinsic::getOrInsertDeclaration(
                                call.getModule(), Intrinsic::ldexp,
                                {t->getType(), e->getType()}),
                            {t, b_.CreateNeg(e)});
    } else {
      Value *sn = b_.CreateExtractValue(&call, {0});
      Value *cs = b_.CreateExtractValue(&call, {1});
      first = b_.CreateFMul(cs, t);
      second = b_.CreateFNeg(b_.CreateFMul(sn, t));
    }
    Value *agg = Constant::getNullValue(call.getType());
    agg = b_.CreateInsertValue(agg, first, {0});
    if (second)
      agg = b_.CreateInsertValue(agg, second, {1});
    lanes.push_back(agg);
  }
  SetT(&call, lanes);
  return absl::OkStatus();
}

/// x86 SIMD intrinsics that hand-written `_mm*` code keeps even after
/// optimization. Linear ones (horizontal adds, add-subtract, conversions,
/// blends) apply to the tangents as they are; dot products are bilinear;
/// max and min pass on the tangent of the operand they chose.
bool ForwardEmitter::VisitX86Intrinsic(CallBase &call) {
  StringRef name = CalledFunction(call)->getName();
  auto Clone = [&](ArrayRef<std::pair<unsigned, Value *>> ops) {
    auto *c = cast<CallBase>(call.clone());
    for (auto [i, v] : ops)
      c->setArgOperand(i, v);
    b_.Insert(c);
    return c;
  };
  auto FP = [&](unsigned i) {
    return call.getArgOperand(i)->getType()->isFPOrFPVectorTy();
  };
  bool linear = name.contains(".hadd.") || name.contains(".hsub.") ||
                name.contains(".addsub.") || name.contains(".cvt.pd2.ps") ||
                name.contains(".cvt.ps2.pd");
  bool blend = name.contains(".blendv.");
  bool dot = name.contains(".dpp");
  bool maxmin = name.contains(".max.") || name.contains(".min.");
  bool fmaddsub = name.contains(".vfmaddsub.") || name.contains(".vfmsubadd.");
  if (!linear && !blend && !dot && !maxmin && !fmaddsub)
    return false;
  SetLanes(&call, [&](unsigned k) -> Value * {
    unsigned n = call.arg_size();
    if (linear || blend) {
      // Every floating-point operand by its tangent; a blend's selector
      // (its last operand) stays.
      SmallVector<std::pair<unsigned, Value *>, 3> ops;
      for (unsigned i = 0; i < n; ++i)
        if (FP(i) && !(blend && i == n - 1))
          ops.push_back({i, TOrZero(call.getArgOperand(i), k)});
      return Clone(ops);
    }
    Value *a = call.getArgOperand(0), *b = call.getArgOperand(1);
    if (dot) { // (a . b)' = a' . b + a . b'
      Value *ta = TOrZero(a, k);
      Value *left = Clone({{0, ta}});
      Value *tb = TOrZero(b, k);
      Value *right = Clone({{1, tb}});
      return b_.CreateFAdd(left, right);
    }
    if (fmaddsub) { // a b -+ c: (a' b -+ c') + a b'
      Value *ta = TOrZero(a, k);
      Value *tc = TOrZero(call.getArgOperand(2), k);
      Value *left = Clone({{0, ta}, {2, tc}});
      Value *tb = TOrZero(b, k);
      return b_.CreateFAdd(left, b_.CreateFMul(a, tb));
    }
    // max/min: the lanes that came from the first operand take its tangent
    // (this also covers the scalar forms, whose upper lanes are a's).
    Value *fromA = b_.CreateFCmpOEQ(&call, a);
    Value *ta = TOrZero(a, k);
    Value *tb = TOrZero(b, k);
    return b_.CreateSelect(fromA, ta, tb);
  });
  return true;
}

//===----------------------------------------------------------------------===//
// Calls to differentiable functions
//===----------------------------------------------------------------------===//

BasicBlock *ForwardEmitter::SplitNormalEdge(InvokeInst &inv) {
  BasicBlock *normal = inv.getNormalDest();
  BasicBlock *cont = BasicBlock::Create(inv.getContext(), "invoke.cont",
                                        &out_, normal);
  inv.setNormalDest(cont);
  normal->replacePhiUsesWith(inv.getParent(), cont);
  b_.SetInsertPoint(cont);
  b_.SetInsertPoint(b_.CreateBr(normal));
  return cont;
}

SmallVector<Value *, 8> ForwardEmitter::DerivativeArgs(CallBase &call,
                                                       const DiffRequest &r) {
  SmallVector<Value *, 8> args;
  for (unsigned i = 0; i < r.args.size(); ++i) {
    Value *a = call.getArgOperand(i);
    args.push_back(a);
    if (r.IsActive(i))
      for (unsigned k = 0; k < width_; ++k)
        args.push_back(TOrZero(a, k));
  }
  return args;
}

void ForwardEmitter::ReplaceWithDerivativeResult(CallBase &call, Value *result,
                                                 const DiffRequest &r) {
  unsigned leaves = (r.return_primal ? 1 : 0) + (r.return_tangent ? width_ : 0);
  auto Leaf = [&](unsigned j) -> Value * {
    if (leaves == 1)
      return result;
    return b_.CreateExtractValue(result, {j});
  };
  unsigned j = 0;
  Value *primal = nullptr;
  if (r.return_primal)
    primal = Leaf(j++);
  Lanes lanes;
  if (r.return_tangent)
    for (unsigned k = 0; k < width_; ++k)
      lanes.push_back(Leaf(j++));
  if (primal) {
    primal->takeName(&call);
    call.replaceAllUsesWith(primal);
    primal_results_[primal] = &call;
  }
  if (r.return_tangent) {
    if (primal)
      SetT(primal, lanes);
    SetT(&call, lanes);
    // An integer result with a tangent was asked for as a float's bits; a
    // struct mixing floats and integers (`{i64, float}`, the ABI's
    // `struct {float; int; float}`) has the integer fields' bits in its
    // tangent too: IsFloatBits asks the callee which of them may be a
    // float's.
    if (primal && !CarriesDerivative(primal->getType()))
      float_bits_.insert(primal);
    else if (primal && primal->getType()->isAggregateType())
      returned_by_[primal] = r.fn;
  }
  erase_.push_back(&call);
}

absl::Status ForwardEmitter::VisitModuleCall(CallBase &call, Function &callee) {
  if (callee.isVarArg() || call.arg_size() != callee.arg_size() ||
      call.getFunctionType() != callee.getFunctionType())
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "cannot differentiate a call to `" + callee.getName().str() +
                       "` whose arguments do not match its definition (variadic "
                       "or called through a different function type)");
  DiffRequest r = CalleeRequest(call, callee);
  AD_RETURN_IF_ERROR(CheckPointersIntoFloats(call, r));
  // Integer bits passed with their tangent: the callee may read them as a
  // float, so every float they have bytes of must be whole; or, when the
  // callee only makes its result of them (`join(hi, lo)`), that result.
  if (const Value *made = BitsTurnedIntoResult(callee))
    AD_RETURN_IF_ERROR(CheckWholeFloatBytes(call, const_cast<Value *>(made),
                                            callee.getReturnType(), &call));
  else
    for (unsigned i = 0; i < r.args.size(); ++i)
      if (r.args[i] == ArgActivity::Dup &&
          call.getArgOperand(i)->getType()->isIntOrIntVectorTy())
        AD_RETURN_IF_ERROR(
            CheckWholeFloatBytes(call, call.getArgOperand(i), nullptr));
  absl::StatusOr<Function *> df = cache_.Get(r);
  if (!df.ok())
    return ErrorAt(df.status().code(), call, std::string(df.status().message()));
  SmallVector<Value *, 8> args = DerivativeArgs(call, r);
  if (auto *inv = dyn_cast<InvokeInst>(&call)) {
    // The derivative may unwind like the primal: invoke it, and unpack its
    // result in a block of its own on the normal edge.
    InvokeInst *dinv =
        b_.CreateInvoke(*df, inv->getNormalDest(), inv->getUnwindDest(), args);
    dinv->setDebugLoc(call.getDebugLoc());
    CopyAbiParamAttrs(*dinv, **df);
    // The new invoke shares the old one's block and successors; the old
    // one is erased later, so split the edge for the new invoke.
    SplitNormalEdge(*dinv);
    ReplaceWithDerivativeResult(call, dinv, r);
    return absl::OkStatus();
  }
  CallInst *dcall = b_.CreateCall(*df, args);
  dcall->setDebugLoc(call.getDebugLoc());
  CopyAbiParamAttrs(*dcall, **df);
  ReplaceWithDerivativeResult(call, dcall, r);
  return absl::OkStatus();
}

/// A user's forward rule `fwd` takes each argument followed by its tangent
/// (a pointer's shadow; integers get a tangent only when `fwd` has a slot
/// for every argument) and returns {primal, tangent}, or the tangent alone
/// (the primal call stays then). It is called once per lane and replaces
/// the primal call; for a function returning nothing or an integer, it
/// replaces the call and its result is the primal's (width 1 only).
absl::Status ForwardEmitter::VisitCustomRule(CallBase &call, Function &rule,
                                             bool before_call) {
  if (isa<InvokeInst>(call))
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "an `invoke` of a function with a registered derivative is "
                   "not supported");
  unsigned n = call.arg_size();
  unsigned withTangent = 0;
  for (Value *a : call.args())
    withTangent += !a->getType()->isIntOrIntVectorTy();
  bool everyArg = rule.arg_size() == 2 * n;
  if (!everyArg && rule.arg_size() != n + withTangent)
    return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                   "the registered derivative `" + rule.getName().str() +
                       "` takes " + std::to_string(rule.arg_size()) +
                       " parameters; expected each argument followed by its "
                       "tangent (" + std::to_string(n + withTangent) +
                       (n + withTangent == 2 * n
                            ? std::string()
                            : " parameters, or " + std::to_string(2 * n) +
                                  " with a tangent after the integers too") +
                       ")");
  Type *rt = call.getType();
  Type *rrt = rule.getReturnType();
  auto *pairTy = dyn_cast<StructType>(rrt);
  bool returnsPair = pairTy && pairTy->getNumElements() == 2 &&
                     pairTy->getElementType(1) == rt;
  // A C struct of two floats comes back from the C ABI as <2 x float>.
  auto *vecTy = dyn_cast<FixedVectorType>(rrt);
  bool returnsVecPair = rrt != rt && vecTy && vecTy->getNumElements() == 2 &&
                        vecTy->getElementType() == rt;
  if (!rt->isVoidTy() && !returnsPair && !returnsVecPair && rrt != rt)
    return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                   "the registered derivative `" + rule.getName().str() +
                       "` must return {primal, tangent} or the tangent");
  // A built-in rule giving the tangent alone (cblas_dgemm, numba_xxgemm)
  // reads what the call overwrites: it runs before the call, which stays.
  if (before_call && !returnsPair && !returnsVecPair)
    b_.SetInsertPoint(&call);
  // A user's rule for a function returning nothing or an integer (a
  // status) replaces the call: it does the primal's work itself, and its
  // integer result is the primal's. Once per lane, it would do it N times.
  bool replaces = !before_call && !returnsPair && !returnsVecPair &&
                  !CarriesDerivative(rt);
  if (replaces && width_ > 1)
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "the registered derivative `" + rule.getName().str() +
                       "` of a function returning " +
                       (rt->isVoidTy() ? "nothing" : "an integer") +
                       " does the primal's work itself; with enzyme_width " +
                       std::to_string(width_) +
                       " it would run once per direction, repeating it");
  Lanes lanes;
  Value *primal = nullptr;
  CallInst *first = nullptr;
  for (unsigned k = 0; k < width_; ++k) {
    SmallVector<Value *, 8> args;
    for (Value *a : call.args()) {
      args.push_back(a);
      if (everyArg || !a->getType()->isIntOrIntVectorTy())
        args.push_back(TOrZero(a, k));
    }
    for (unsigned j = 0; j < args.size(); ++j)
      if (args[j]->getType() != rule.getFunctionType()->getParamType(j)) {
        std::string have, want;
        raw_string_ostream hs(have), ws(want);
        rule.getFunctionType()->getParamType(j)->print(hs);
        args[j]->getType()->print(ws);
        return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                       "parameter " + std::to_string(j) +
                           " of the registered derivative `" +
                           rule.getName().str() + "` is `" + have +
                           "`, but the argument or tangent passed there is `" +
                           want + "`");
      }
    CallInst *r = b_.CreateCall(&rule, args);
    r->setDebugLoc(call.getDebugLoc());
    first = first ? first : r;
    if (rt->isVoidTy() || replaces)
      continue;
    if (returnsPair) {
      if (!primal)
        primal = b_.CreateExtractValue(r, {0});
      lanes.push_back(b_.CreateExtractValue(r, {1}));
    } else if (returnsVecPair) {
      if (!primal)
        primal = b_.CreateExtractElement(r, uint64_t(0));
      lanes.push_back(b_.CreateExtractElement(r, uint64_t(1)));
    } else {
      lanes.push_back(r);
    }
  }
  if (replaces) {
    if (!rt->isVoidTy()) {
      first->takeName(&call);
      call.replaceAllUsesWith(first);
    }
    erase_.push_back(&call);
  } else if (primal) {
    primal->takeName(&call);
    call.replaceAllUsesWith(primal);
    erase_.push_back(&call);
    SetT(primal, lanes);
  } else if (!lanes.empty() && CarriesDerivative(rt)) {
    // The rule gave the tangent alone; the primal call stays (an integer
    // status, as of Numba's BLAS helpers, has no tangent).
    SetT(&call, lanes);
  }
  return absl::OkStatus();
}

/// Calls through a function pointer: compare the pointer with every
/// address-taken function of the module that has the call's type, and call
/// the matching derivative; an unknown target stops the program.
absl::Status ForwardEmitter::VisitIndirectCall(CallBase &call) {
  Module &m = *out_.getParent();
  SmallVector<Function *, 4> candidates;
  for (Function &f : m)
    if (!f.isDeclaration() && f.getFunctionType() == call.getFunctionType() &&
        f.hasAddressTaken() && !f.getName().starts_with("__enzyme") &&
        &f != &out_)
      candidates.push_back(&f);
  if (candidates.empty())
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "call through a function pointer with active arguments, "
                   "and no function of this type in the module has its "
                   "address taken: the callee is unknown");
  // All candidates share one request shape, so one derivative type.
  DiffRequest shape = CalleeRequest(call, *candidates.front());
  SmallVector<Value *, 8> args = DerivativeArgs(call, shape);
  FunctionType *dty = ForwardDerivativeType(shape);

  LLVMContext &ctx = m.getContext();
  auto *inv = dyn_cast<InvokeInst>(&call);
  BasicBlock *head = call.getParent();
  BasicBlock *join;
  if (inv) {
    // An invoke ends its block: the tests go before it, each candidate is
    // invoked with the same landing pad, and the join block continues to
    // the normal destination. The old invoke is erased at the end.
    join = BasicBlock::Create(ctx, "fptr.join", &out_, inv->getNormalDest());
    IRBuilder<>(join).CreateBr(inv->getNormalDest());
    inv->getNormalDest()->replacePhiUsesWith(head, join);
  } else {
    join = head->splitBasicBlock(call.getIterator(), "fptr.join");
    head->getTerminator()->eraseFromParent();
  }
  BasicBlock *fail = BasicBlock::Create(ctx, "fptr.unknown", &out_);
  IRBuilder<> fb(fail);
  FunctionCallee trap = Intrinsic::getOrInsertDeclaration(&m, Intrinsic::trap);
  fb.CreateCall(trap);
  fb.CreateUnreachable();

  PHINode *result = nullptr;
  if (!dty->getReturnType()->isVoidTy())
    result = PHINode::Create(dty->getReturnType(), candidates.size(),
                             "fptr.result", join->begin());
  BasicBlock *test = head;
  Value *fp = call.getCalledOperand();
  for (Function *cand : candidates) {
    DiffRequest r = shape;
    r.fn = cand;
    absl::StatusOr<Function *> df = cache_.Get(r);
    if (!df.ok())
      return ErrorAt(df.status().code(), call,
                     std::string(df.status().message()));
    BasicBlock *callBB = BasicBlock::Create(ctx, "fptr." + cand->getName(),
                                            &out_, fail);
    BasicBlock *next = BasicBlock::Create(ctx, "fptr.next", &out_, fail);
    IRBuilder<> tb(test);
    if (inv && test == head)
      tb.SetInsertPoint(inv); // Before the old invoke, erased later.
    tb.CreateCondBr(tb.CreateICmpEQ(fp, cand), callBB, next);
    IRBuilder<> cb(callBB);
    CallBase *dcall;
    if (inv) {
      dcall = cb.CreateInvoke(*df, join, inv->getUnwindDest(), args);
      // The landing pad gains a predecessor with the values head had.
      for (PHINode &p : inv->getUnwindDest()->phis())
        p.addIncoming(p.getIncomingValueForBlock(head), callBB);
    } else {
      dcall = cb.CreateCall(*df, args);
      cb.CreateBr(join);
    }
    dcall->setDebugLoc(call.getDebugLoc());
    CopyAbiParamAttrs(*dcall, **df);
    if (result)
      result->addIncoming(dcall, callBB);
    test = next;
  }
  IRBuilder<>(test).CreateBr(fail);
  if (inv) // head no longer reaches the landing pad directly.
    for (PHINode &p : inv->getUnwindDest()->phis())
      p.removeIncomingValue(head, /*DeletePHIIfEmpty=*/false);
  b_.SetInsertPoint(join, join->getFirstInsertionPt());
  if (result)
    ReplaceWithDerivativeResult(call, result, shape);
  else
    erase_.push_back(&call);
  return absl::OkStatus();
}

} // namespace autodiff
