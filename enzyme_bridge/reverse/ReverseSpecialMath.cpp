//===- enzyme_bridge/reverse/ReverseSpecialMath.cpp - libm beyond the table ===//
//
// Adjoints of the math calls the rule table cannot express, as forward
// mode has them (ForwardMathCalls.cpp):
//  - lgamma'(x) = digamma(x), tgamma'(x) = tgamma(x) digamma(x), through
//    the emitted digamma helper;
//  - frexp(x, &e) = m with x = m 2^e: dx += dm 2^-e, e computed again from
//    x by a second frexp in the reverse sweep;
//  - modf(x, &i) = frac: dx += dfrac; the integral part written through
//    the pointer is locally constant, so its shadow is cleared;
//  - the intrinsic forms llvm.modf ({frac, int}), llvm.frexp ({m, e}) and
//    llvm.sincos ({sin, cos}, what -ffast-math makes of sincos).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/rules/Digamma.h"

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {
namespace {

/// libm's name without its float/long double suffix.
StringRef BaseName(StringRef name) {
  if (name.ends_with("f") || name.ends_with("l"))
    return name.drop_back();
  return name;
}

} // namespace

bool ReverseEmitter::VisitSpecialMath(CallBase &call) {
  Function *callee = CalledFunction(call);
  if (!callee || !callee->isDeclaration())
    return false;
  Intrinsic::ID id = callee->getIntrinsicID();
  Value *arg = call.arg_size() > 0 ? call.getArgOperand(0) : nullptr;
  if (!arg || !arg->getType()->isFloatingPointTy())
    return false;
  Type *fp = arg->getType();
  Module &m = *out_.getParent();
  StringRef base = BaseName(callee->getName());
  bool gamma = (base == "lgamma" || base == "tgamma") &&
               call.arg_size() == 1 && call.getType() == fp;
  bool frexp = (base == "frexp" && call.arg_size() == 2 &&
                call.getType() == fp) ||
               id == Intrinsic::frexp;
  bool modf = (base == "modf" && call.arg_size() == 2 &&
               call.getType() == fp) ||
              id == Intrinsic::modf;
  bool sincos = id == Intrinsic::sincos;
  if (!gamma && !frexp && !modf && !sincos)
    return false;
  bool aggregate = isa<StructType>(call.getType());
  Value *adj = TakeAdjoint(&call);
  // The adjoint of the result's value part (field 0 of the intrinsics').
  Value *a = aggregate ? rb_.CreateExtractValue(adj, {0}) : adj;
  if (modf && !aggregate) {
    // The integral part written through the pointer: its adjoint, if any,
    // is consumed (it does not depend on x).
    Value *out = call.getArgOperand(1);
    if (Value *shadow = LookupShadow(out))
      if (!isa_and_nonnull<ConstantPointerNull>(shadows_.lookup(out)))
        rb_.CreateStore(ConstantFP::get(fp, 0.0), shadow);
  }
  if (!HasAdjoint(arg))
    return true;
  Value *x = Lookup(arg);
  Value *dx = nullptr;
  if (gamma) {
    Value *xd = rb_.CreateFPCast(x, rb_.getDoubleTy());
    Value *psid = rb_.CreateCall(DigammaFunction(m), {xd});
    Value *psi = rb_.CreateFPCast(psid, fp);
    Value *partial = psi;
    if (base == "tgamma") {
      Value *g = Lookup(&call);
      partial = rb_.CreateFMul(g, psi);
    }
    dx = rb_.CreateFMul(a, partial);
  } else if (frexp) {
    // e again from x: llvm.frexp gives it without memory.
    Type *i32 = rb_.getInt32Ty();
    Value *pair = rb_.CreateCall(
        Intrinsic::getOrInsertDeclaration(&m, Intrinsic::frexp, {fp, i32}),
        {x});
    Value *e = rb_.CreateExtractValue(pair, {1});
    Value *minus = rb_.CreateNeg(e);
    dx = rb_.CreateCall(
        Intrinsic::getOrInsertDeclaration(&m, Intrinsic::ldexp, {fp, i32}),
        {a, minus});
  } else if (modf) {
    dx = a;
  } else { // sincos: d sin = cos dx, d cos = -sin dx
    Value *ac = rb_.CreateExtractValue(adj, {1});
    Value *s = rb_.CreateCall(
        Intrinsic::getOrInsertDeclaration(&m, Intrinsic::sin, {fp}), {x});
    Value *c = rb_.CreateCall(
        Intrinsic::getOrInsertDeclaration(&m, Intrinsic::cos, {fp}), {x});
    Value *fromSin = rb_.CreateFMul(a, c);
    Value *fromCos = rb_.CreateFMul(ac, s);
    dx = rb_.CreateFSub(fromSin, fromCos);
  }
  AddAdjoint(arg, dx);
  return true;
}

} // namespace autodiff
