//===- enzyme_bridge/reverse/ReverseRuleCalls.cpp - Custom reverse rules --===//
//
// A call to a function with a registered reverse rule
// (`void *__enzyme_register_gradient_NAME[3] = {fn, augment, reverse}`, or
// `!enzyme_augment` / `!enzyme_gradient` metadata on fn) is not
// differentiated: the forward sweep calls `augment` instead of fn, which
// returns the tape and fn's result; the call's adjoint calls `reverse` with
// the same arguments, the differential return and the tape. This is the
// path a module function's split derivative takes (ReverseModuleCalls.cpp),
// with the user's functions in place of generated ones.
//
// The convention (../shared/CALLING-CONVENTION.md): every pointer argument
// is followed by its shadow (a pointer the caller holds as constant gets
// the sink, where adjoints are dropped); integers and floats get none.
// Rules that take a shadow after every argument (what the users of the
// seed report wrote for numba_xxdot) are accepted too: the shadows of
// integers and floats are zero. An
// integer result (a status code) is inactive: no differential return. The
// reverse rule returns the gradients of fn's floating-point scalar
// parameters, in order. A rule whose signature does not fit is a
// diagnostic naming the parameter and what was expected.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/rules/BlasRules.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "support/StatusMacros.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace autodiff {
namespace {

std::string TypeText(Type *t) {
  std::string s;
  raw_string_ostream os(s);
  t->print(os);
  return s;
}

/// A float with an adjoint that is passed by value (no pointer inside).
bool ScalarFloat(Type *t) { return HoldsFloat(t) && !ContainsPointer(t); }

/// An expected parameter of a rule, and what it stands for.
struct RuleParam {
  Type *type;
  std::string role;
};

/// fn's parameters, each pointer (with `every`: each parameter) followed
/// by its shadow.
SmallVector<RuleParam, 12> ArgumentsWithShadows(Function &fn, bool every) {
  SmallVector<RuleParam, 12> params;
  std::string name = "`" + fn.getName().str() + "`";
  for (unsigned k = 0; k < fn.arg_size(); ++k) {
    Type *t = fn.getFunctionType()->getParamType(k);
    params.push_back({t, "parameter " + std::to_string(k) + " of " + name});
    if (every || t->isPointerTy())
      params.push_back(
          {t, "the shadow of parameter " + std::to_string(k) + " of " + name});
  }
  return params;
}

/// "" or what is wrong with `rule`'s parameters against `want`.
std::string CheckParams(Function &rule, ArrayRef<RuleParam> want) {
  FunctionType *fty = rule.getFunctionType();
  std::string name = "`" + rule.getName().str() + "`";
  if (fty->isVarArg() || fty->getNumParams() != want.size()) {
    std::string list;
    for (const RuleParam &p : want)
      list += (list.empty() ? "" : ", ") + TypeText(p.type) + " (" + p.role +
              ")";
    return name + " takes " + std::to_string(fty->getNumParams()) +
           " parameters" + (fty->isVarArg() ? " and is variadic" : "") +
           ", expected " + std::to_string(want.size()) + ": " + list;
  }
  for (unsigned k = 0; k < want.size(); ++k)
    if (fty->getParamType(k) != want[k].type)
      return "parameter " + std::to_string(k) + " of " + name + " is `" +
             TypeText(fty->getParamType(k)) + "`, expected `" +
             TypeText(want[k].type) + "` (" + want[k].role + ")";
  return "";
}

/// The gradients `reverse` returns: one per float scalar parameter of fn.
Type *GradientType(Function &fn) {
  SmallVector<Type *, 4> leaves;
  for (Type *t : fn.getFunctionType()->params())
    if (ScalarFloat(t))
      leaves.push_back(t);
  LLVMContext &c = fn.getContext();
  if (leaves.empty())
    return Type::getVoidTy(c);
  return leaves.size() == 1 ? leaves[0] : StructType::get(c, leaves);
}

/// Whether `rule` takes a shadow after every argument of fn, integers and
/// floats too (a form Enzyme's users write; their shadows are zero), rather
/// than after each pointer.
bool ShadowsEveryArgument(Function &fn, const ReverseRule &rule) {
  unsigned pointers = 0;
  for (Type *t : fn.getFunctionType()->params())
    pointers += t->isPointerTy();
  return rule.augment && pointers != fn.arg_size() &&
         rule.augment->arg_size() == 2 * fn.arg_size();
}

} // namespace

absl::Status ReverseEmitter::CheckReverseRule(CallBase &call, Function &fn,
                                              const ReverseRule &rule) {
  std::string fname = "`" + fn.getName().str() + "`";
  auto fail = [&](const std::string &what) {
    return ErrorAt(absl::StatusCode::kInvalidArgument, call,
                   "the reverse rule registered for " + fname + " by " +
                       rule.source + ": " + what);
  };
  if (!rule.augment || !rule.reverse)
    return fail("it must name the function, its augmented forward function "
                "and its reverse function ({fn, augment, reverse})");
  if (fn.isVarArg())
    return fail(fname + " is variadic");
  LLVMContext &c = fn.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Type *ret = fn.getReturnType();
  SmallVector<RuleParam, 12> params =
      ArgumentsWithShadows(fn, ShadowsEveryArgument(fn, rule));
  if (std::string p = CheckParams(*rule.augment, params); !p.empty())
    return fail(p);
  Type *augRet = rule.augment->getReturnType();
  auto *st = dyn_cast<StructType>(augRet);
  bool augOk = ret->isVoidTy()
                   ? augRet == ptr ||
                         (st && st->getNumElements() == 1 &&
                          st->getElementType(0) == ptr)
                   : st && st->getNumElements() == 2 &&
                         st->getElementType(0) == ptr &&
                         st->getElementType(1) == ret;
  if (!augOk)
    return fail("`" + rule.augment->getName().str() + "` returns `" +
                TypeText(augRet) + "`, expected " +
                (ret->isVoidTy() ? std::string("`ptr` (the tape)")
                                 : "`{ ptr, " + TypeText(ret) +
                                       " }` (the tape, then " + fname +
                                       "'s result)"));
  if (ScalarFloat(ret))
    params.push_back({ret, "the differential return"});
  params.push_back({ptr, "the tape"});
  if (std::string p = CheckParams(*rule.reverse, params); !p.empty())
    return fail(p);
  Type *grads = GradientType(fn);
  if (rule.reverse->getReturnType() != grads)
    return fail("`" + rule.reverse->getName().str() + "` returns `" +
                TypeText(rule.reverse->getReturnType()) + "`, expected `" +
                TypeText(grads) + "` (the gradients of " + fname +
                "'s floating-point parameters, in order)");
  return absl::OkStatus();
}

absl::Status ReverseEmitter::AugmentRuleCall(CallBase &call, Function &fn,
                                             const ReverseRule &rule) {
  AD_RETURN_IF_ERROR(CheckReverseRule(call, fn, rule));
  if (!RegisteredReverseRule(fn))
    if (std::string why = BuiltinRuleLimitation(call, fn); !why.empty())
      return ErrorAt(absl::StatusCode::kUnimplemented, call, why);
  fb_.SetInsertPoint(&call);
  AugmentedCall &info = augmented_[&call];
  info.rule = rule;
  SmallVector<Value *, 12> args;
  bool every = ShadowsEveryArgument(fn, rule);
  for (unsigned k = 0; k < call.arg_size(); ++k) {
    Value *a = call.getArgOperand(k);
    args.push_back(a);
    Value *shadow = nullptr;
    if (!a->getType()->isPointerTy() && every) {
      shadow = Constant::getNullValue(a->getType());
      args.push_back(shadow);
    } else if (a->getType()->isPointerTy()) {
      shadow = JoinedShadow(a);
      if (!shadow)
        shadow = SinkShadow(); // Constant for the caller: adjoints dropped.
      fb_.SetInsertPoint(&call);
      args.push_back(shadow);
    }
    info.shadows.push_back(shadow);
  }
  CallInst *ac = fb_.CreateCall(rule.augment, args, call.getName() + ".aug");
  ac->setDebugLoc(call.getDebugLoc());
  CopyAbiParamAttrs(*ac, *rule.augment);
  Type *rt = ac->getType();
  info.tape = rt->isPointerTy()
                  ? static_cast<Instruction *>(ac)
                  : cast<Instruction>(fb_.CreateExtractValue(ac, 0, "tape"));
  if (!call.getType()->isVoidTy())
    info.result = fb_.CreateExtractValue(ac, 1, call.getName() + ".primal");
  tape_of_call_[info.tape] = &call;
  return absl::OkStatus();
}

absl::Status ReverseEmitter::ReverseRuleCall(CallBase &call,
                                             AugmentedCall &info) {
  Function &rev = *info.rule->reverse;
  SmallVector<Value *, 12> args = ReverseCallArgs(call, info);
  if (ScalarFloat(call.getType()))
    args.push_back(TakeAdjoint(&call));
  args.push_back(LookupTape(info));
  CallInst *d = rb_.CreateCall(&rev, args);
  d->setDebugLoc(call.getDebugLoc());
  CopyAbiParamAttrs(*d, rev);
  unsigned floats = 0;
  for (Value *a : call.args())
    floats += ScalarFloat(a->getType());
  unsigned leaf = 0;
  for (Value *a : call.args())
    if (ScalarFloat(a->getType()))
      AddAdjoint(a, floats == 1 ? d : rb_.CreateExtractValue(d, leaf++));
  return absl::OkStatus();
}

} // namespace autodiff
