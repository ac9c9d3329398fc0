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
//    llvm.sincos ({sin, cos}, what -ffast-math makes of sincos);
//  - x86 SIMD intrinsics that hand-written `_mm*` code keeps: the linear
//    ones (horizontal adds and subtracts, add-subtract, conversions,
//    blends with their selector fixed) by their transpose, read off the
//    intrinsic applied to unit vectors (lane j of an operand's adjoint is
//    the dot product of the result's adjoint with L(e_j)), and max/min,
//    whose lanes take the adjoint of the operand they came from.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/rules/Rules.h"
#include "enzyme_bridge/rules/Digamma.h"

#include "llvm/Analysis/ConstantFolding.h"
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
  std::string name = NumbaMathName(callee->getName());
  StringRef base = BaseName(name);
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

bool ReverseEmitter::VisitX86Intrinsic(CallBase &call) {
  Function *callee = CalledFunction(call);
  if (!callee || !callee->getName().starts_with("llvm.x86."))
    return false;
  StringRef name = callee->getName();
  bool linear = name.contains(".hadd.") || name.contains(".hsub.") ||
                name.contains(".addsub.") || name.contains(".cvt.pd2.ps") ||
                name.contains(".cvt.ps2.pd");
  bool blend = name.contains(".blendv.");
  bool maxmin = name.contains(".max.") || name.contains(".min.");
  auto *rt = dyn_cast<FixedVectorType>(call.getType());
  if ((!linear && !blend && !maxmin) || !rt)
    return false;
  unsigned n = call.arg_size();
  auto floating = [&](unsigned i) {
    return call.getArgOperand(i)->getType()->isFPOrFPVectorTy() &&
           !(blend && i == n - 1);
  };
  for (unsigned i = 0; i < n; ++i)
    if (floating(i) &&
        !isa<FixedVectorType>(call.getArgOperand(i)->getType()))
      return false;
  Value *adj = TakeAdjoint(&call);
  if (maxmin) {
    Value *a = call.getArgOperand(0), *b = call.getArgOperand(1);
    Value *result = Lookup(&call);
    Value *av = Lookup(a);
    Value *fromA = rb_.CreateFCmpOEQ(result, av);
    Value *zero = Constant::getNullValue(rt);
    if (a->getType() == rt) {
      Value *da = rb_.CreateSelect(fromA, adj, zero);
      AddAdjoint(a, da);
    }
    if (b->getType() == rt) {
      Value *db = rb_.CreateSelect(fromA, zero, adj);
      AddAdjoint(b, db);
    }
    return true;
  }
  // Linear: operand i's adjoint, lane by lane, from L(e_j).
  SmallVector<Value *, 4> kept(n);
  for (unsigned i = 0; i < n; ++i)
    kept[i] = floating(i)
                  ? Constant::getNullValue(call.getArgOperand(i)->getType())
                  : Lookup(call.getArgOperand(i));
  for (unsigned i = 0; i < n; ++i) {
    Value *op = call.getArgOperand(i);
    if (!floating(i) || !HasAdjoint(op))
      continue;
    auto *vt = cast<FixedVectorType>(op->getType());
    Value *da = Constant::getNullValue(vt);
    for (unsigned j = 0; j < vt->getNumElements(); ++j) {
      SmallVector<Value *, 4> args(kept);
      Value *unit = Constant::getNullValue(vt);
      unit = ConstantFoldInsertElementInstruction(
          cast<Constant>(unit), ConstantFP::get(vt->getElementType(), 1.0),
          rb_.getInt32(j));
      args[i] = unit;
      Value *column = rb_.CreateCall(callee, args);
      Value *prod = rb_.CreateFMul(column, adj);
      Value *start = ConstantFP::get(rt->getElementType(), 0.0);
      Value *sum = rb_.CreateFAddReduce(start, prod);
      Value *lane = rb_.CreateFPCast(sum, vt->getElementType());
      da = rb_.CreateInsertElement(da, lane, j);
    }
    AddAdjoint(op, da);
  }
  return true;
}

} // namespace autodiff
