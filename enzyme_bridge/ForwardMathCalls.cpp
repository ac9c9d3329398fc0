//===- enzyme_bridge/ForwardMathCalls.cpp - Special math calls ------------===//
//
// libm calls the rule table cannot express: those with output pointers
// (frexp, modf, sincos) and C99 complex helpers on (re, im) pairs
// (__muldc3, __divdc3, cexp, clog, csqrt, csin, ccos).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/DerivativeCache.h"
#include "enzyme_bridge/ForwardEmitter.h"
#include "enzyme_bridge/KnownFunctions.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {

bool ForwardEmitter::VisitOutputPointerMath(CallBase &call, StringRef name) {
  StringRef base = name;
  if (base.ends_with("f") || base.ends_with("l"))
    base = base.drop_back();
  bool isFrexp = base == "frexp", isModf = base == "modf",
       isSincos = base == "sincos";
  if (!isFrexp && !isModf && !isSincos)
    return false;
  unsigned want = isSincos ? 3 : 2;
  Value *x = call.getArgOperand(0);
  if (call.arg_size() != want || !x->getType()->isFloatingPointTy())
    return false;
  Type *fp = x->getType();
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    Value *t = TOrZero(x, k);
    if (isFrexp) {
      // m = x * 2^-e: dm = dx * 2^-e, with e read back after the call.
      Value *e = b_.CreateLoad(b_.getInt32Ty(), call.getArgOperand(1));
      lanes.push_back(b_.CreateCall(
          Intrinsic::getOrInsertDeclaration(call.getModule(), Intrinsic::ldexp,
                                            {fp, e->getType()}),
          {t, b_.CreateNeg(e)}));
    } else if (isModf) {
      // The fraction moves with x; the integral part is locally constant.
      if (Value *sp = T(call.getArgOperand(1), k))
        b_.CreateStore(ConstantFP::get(fp, 0.0), sp);
      lanes.push_back(t);
    } else {
      Value *sv = b_.CreateLoad(fp, call.getArgOperand(1));
      Value *cv = b_.CreateLoad(fp, call.getArgOperand(2));
      if (Value *ss = T(call.getArgOperand(1), k))
        b_.CreateStore(b_.CreateFMul(cv, t), ss);
      if (Value *cs = T(call.getArgOperand(2), k))
        b_.CreateStore(b_.CreateFNeg(b_.CreateFMul(sv, t)), cs);
    }
  }
  if (!isSincos)
    SetT(&call, lanes);
  return true;
}

bool ForwardEmitter::VisitComplexCall(CallBase &call, StringRef name) {
  bool isMul = name == "__muldc3" || name == "__mulsc3";
  bool isDiv = name == "__divdc3" || name == "__divsc3";
  StringRef base = name;
  if (base.ends_with("f"))
    base = base.drop_back();
  bool isExp = base == "cexp", isLog = base == "clog", isSqrt = base == "csqrt";
  bool isSin = base == "csin", isCos = base == "ccos";
  if (!isMul && !isDiv && !isExp && !isLog && !isSqrt && !isSin && !isCos)
    return false;
  unsigned nargs = (isMul || isDiv) ? 4 : 2;
  auto *rt = dyn_cast<StructType>(call.getType());
  if (call.arg_size() != nargs || !rt || rt->getNumElements() != 2 ||
      !rt->getElementType(0)->isFloatingPointTy())
    return false;
  Type *fp = rt->getElementType(0);
  for (Value *a : call.args())
    if (a->getType() != fp)
      return false;
  // Complex arithmetic on (re, im) pairs.
  using C = std::pair<Value *, Value *>;
  auto Mul = [&](C x, C y) -> C {
    return {b_.CreateFSub(b_.CreateFMul(x.first, y.first),
                          b_.CreateFMul(x.second, y.second)),
            b_.CreateFAdd(b_.CreateFMul(x.first, y.second),
                          b_.CreateFMul(x.second, y.first))};
  };
  auto Div = [&](C x, C y) -> C {
    Value *den = b_.CreateFAdd(b_.CreateFMul(y.first, y.first),
                               b_.CreateFMul(y.second, y.second));
    return {b_.CreateFDiv(b_.CreateFAdd(b_.CreateFMul(x.first, y.first),
                                        b_.CreateFMul(x.second, y.second)),
                          den),
            b_.CreateFDiv(b_.CreateFSub(b_.CreateFMul(x.second, y.first),
                                        b_.CreateFMul(x.first, y.second)),
                          den)};
  };
  auto Sub = [&](C x, C y) -> C {
    return {b_.CreateFSub(x.first, y.first), b_.CreateFSub(x.second, y.second)};
  };
  auto Add = [&](C x, C y) -> C {
    return {b_.CreateFAdd(x.first, y.first), b_.CreateFAdd(x.second, y.second)};
  };
  C z = {call.getArgOperand(0), call.getArgOperand(1)};
  C r = {b_.CreateExtractValue(&call, {0}), b_.CreateExtractValue(&call, {1})};
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    C dz = {TOrZero(call.getArgOperand(0), k), TOrZero(call.getArgOperand(1), k)};
    C t;
    if (isMul || isDiv) {
      C w = {call.getArgOperand(2), call.getArgOperand(3)};
      C dw = {TOrZero(call.getArgOperand(2), k),
              TOrZero(call.getArgOperand(3), k)};
      if (isMul) // (z w)' = z' w + z w'
        t = Add(Mul(dz, w), Mul(z, dw));
      else // (z / w)' = (z' - q w') / w
        t = Div(Sub(dz, Mul(r, dw)), w);
    } else if (isExp) { // exp(z)' = exp(z) z'
      t = Mul(r, dz);
    } else if (isLog) { // log(z)' = z' / z
      t = Div(dz, z);
    } else if (isSin || isCos) {
      // sin(a + ib)' = cos(a + ib) = cos a cosh b - i sin a sinh b;
      // cos(a + ib)' = -sin(a + ib) = -(sin a cosh b + i cos a sinh b).
      Module *mod = call.getModule();
      auto F = [&](Intrinsic::ID id, Value *v) {
        return b_.CreateCall(
            Intrinsic::getOrInsertDeclaration(mod, id, {fp}), {v});
      };
      Value *sa = F(Intrinsic::sin, z.first), *ca = F(Intrinsic::cos, z.first);
      Value *shb = F(Intrinsic::sinh, z.second),
            *chb = F(Intrinsic::cosh, z.second);
      C d = isSin ? C{b_.CreateFMul(ca, chb),
                      b_.CreateFNeg(b_.CreateFMul(sa, shb))}
                  : C{b_.CreateFNeg(b_.CreateFMul(sa, chb)),
                      b_.CreateFNeg(b_.CreateFMul(ca, shb))};
      t = Mul(d, dz);
    } else { // sqrt(z)' = z' / (2 sqrt(z))
      Value *two = ConstantFP::get(fp, 2.0);
      t = Div(dz, {b_.CreateFMul(two, r.first), b_.CreateFMul(two, r.second)});
    }
    Value *agg = PoisonValue::get(rt);
    agg = b_.CreateInsertValue(agg, t.first, {0});
    agg = b_.CreateInsertValue(agg, t.second, {1});
    lanes.push_back(agg);
  }
  SetT(&call, lanes);
  return true;
}

} // namespace autodiff
