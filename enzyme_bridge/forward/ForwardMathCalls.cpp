//===- enzyme_bridge/ForwardMathCalls.cpp - Special math calls ------------===//
//
// libm calls the rule table cannot express: those with output pointers
// (frexp, modf, sincos) and C99 complex helpers on (re, im) pairs
// (__muldc3, __divdc3, cexp, clog, csqrt, csin, ccos).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/forward/ForwardEmitter.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/rules/Digamma.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <cmath>

using namespace llvm;

namespace autodiff {

bool ForwardEmitter::VisitOutputPointerMath(CallBase &call, StringRef name) {
  StringRef base = name;
  base.consume_front("__nv_"); // libdevice's sincos, frexp, modf
  if (base.ends_with("f") || base.ends_with("l"))
    base = base.drop_back();
  bool isFrexp = base == "frexp", isModf = base == "modf",
       isSincosPi = base == "sincospi",
       isSincos = base == "sincos" || isSincosPi;
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
      // sincospi: sin(pi x)' = pi cos(pi x), cos(pi x)' = -pi sin(pi x).
      if (isSincosPi)
        t = b_.CreateFMul(t, ConstantFP::get(fp, M_PI));
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

/// lgamma'(x) = digamma(x); tgamma'(x) = tgamma(x) digamma(x).
bool ForwardEmitter::VisitGammaCall(CallBase &call, StringRef name) {
  StringRef base = name;
  if (base.ends_with("f") || base.ends_with("l"))
    base = base.drop_back();
  bool isL = base == "lgamma", isT = base == "tgamma";
  Value *x = call.arg_size() == 1 ? call.getArgOperand(0) : nullptr;
  if ((!isL && !isT) || !x || !x->getType()->isFloatingPointTy() ||
      call.getType() != x->getType())
    return false;
  Type *fp = x->getType();
  Value *xd = b_.CreateFPCast(x, b_.getDoubleTy());
  Value *psi = b_.CreateFPCast(
      b_.CreateCall(DigammaFunction(*call.getModule()), {xd}), fp);
  Value *partial = isL ? psi : b_.CreateFMul(&call, psi);
  SetLanes(&call, [&](unsigned k) {
    return b_.CreateFMul(partial, TOrZero(x, k));
  });
  return true;
}

/// cabsf / cargf of a float complex passed as `<2 x float>` (the double
/// forms, two scalars, are in the rule table): |z|' = (re re' + im im') /
/// |z|, arg(z)' = (re im' - im re') / |z|^2.
bool ForwardEmitter::VisitPackedComplexReal(CallBase &call, StringRef name) {
  bool isAbs = name == "cabsf", isArg = name == "cargf";
  auto *vt = call.arg_size() == 1
                 ? dyn_cast<FixedVectorType>(call.getArgOperand(0)->getType())
                 : nullptr;
  if ((!isAbs && !isArg) || !vt || vt->getNumElements() != 2 ||
      vt->getElementType() != call.getType())
    return false;
  Value *z = call.getArgOperand(0);
  Value *re = b_.CreateExtractElement(z, uint64_t(0));
  Value *im = b_.CreateExtractElement(z, 1);
  Value *re2 = b_.CreateFMul(re, re);
  Value *im2 = b_.CreateFMul(im, im);
  Value *norm2 = b_.CreateFAdd(re2, im2);
  SetLanes(&call, [&](unsigned k) -> Value * {
    Value *dz = TOrZero(z, k);
    Value *dre = b_.CreateExtractElement(dz, uint64_t(0));
    Value *dim = b_.CreateExtractElement(dz, 1);
    if (isAbs) {
      Value *a = b_.CreateFMul(re, dre);
      Value *b = b_.CreateFMul(im, dim);
      return b_.CreateFDiv(b_.CreateFAdd(a, b), &call);
    }
    Value *a = b_.CreateFMul(re, dim);
    Value *b = b_.CreateFMul(im, dre);
    return b_.CreateFDiv(b_.CreateFSub(a, b), norm2);
  });
  return true;
}

bool ForwardEmitter::VisitComplexCall(CallBase &call, StringRef name) {
  if (VisitPackedComplexReal(call, name))
    return true;
  bool isMul = name == "__muldc3" || name == "__mulsc3";
  bool isDiv = name == "__divdc3" || name == "__divsc3";
  StringRef base = name;
  if (base.ends_with("f"))
    base = base.drop_back();
  bool isExp = base == "cexp", isLog = base == "clog", isSqrt = base == "csqrt";
  bool isSin = base == "csin", isCos = base == "ccos";
  if (!isMul && !isDiv && !isExp && !isLog && !isSqrt && !isSin && !isCos)
    return false;
  // A complex value as the C ABI passes it: `{fp, fp}`, or `<2 x float>`
  // (two floats in one register on x86-64), as the result and, for the
  // one-operand functions, as the operand (`packed`).
  Type *rt = call.getType();
  Type *fp = nullptr;
  if (auto *st = dyn_cast<StructType>(rt);
      st && st->getNumElements() == 2 && st->getElementType(1) == st->getElementType(0))
    fp = st->getElementType(0);
  if (auto *vt = dyn_cast<FixedVectorType>(rt); vt && vt->getNumElements() == 2)
    fp = vt->getElementType();
  if (!fp || !fp->isFloatingPointTy())
    return false;
  unsigned operands = (isMul || isDiv) ? 2 : 1;
  bool packed = call.arg_size() == operands;
  if (!packed && call.arg_size() != 2 * operands)
    return false;
  for (Value *a : call.args())
    if (a->getType() != (packed ? rt : fp))
      return false;
  auto part = [&](Value *v, unsigned i) -> Value * {
    return isa<StructType>(v->getType()) ? b_.CreateExtractValue(v, {i})
                                         : b_.CreateExtractElement(v, i);
  };
  // Complex arithmetic on (re, im) pairs.
  using C = std::pair<Value *, Value *>;
  // Each product is named before its sum: argument evaluation order is
  // the C++ compiler's choice, and the emitted IR must not depend on it.
  auto MulAdd = [&](Value *a, Value *b, Value *c, Value *d, bool sub) {
    Value *ab = b_.CreateFMul(a, b);
    Value *cd = b_.CreateFMul(c, d);
    return sub ? b_.CreateFSub(ab, cd) : b_.CreateFAdd(ab, cd);
  };
  auto Mul = [&](C x, C y) -> C {
    Value *re = MulAdd(x.first, y.first, x.second, y.second, true);
    Value *im = MulAdd(x.first, y.second, x.second, y.first, false);
    return {re, im};
  };
  auto Div = [&](C x, C y) -> C {
    Value *den = MulAdd(y.first, y.first, y.second, y.second, false);
    Value *re = MulAdd(x.first, y.first, x.second, y.second, false);
    Value *im = MulAdd(x.second, y.first, x.first, y.second, true);
    return {b_.CreateFDiv(re, den), b_.CreateFDiv(im, den)};
  };
  auto Sub = [&](C x, C y) -> C {
    return {b_.CreateFSub(x.first, y.first), b_.CreateFSub(x.second, y.second)};
  };
  auto Add = [&](C x, C y) -> C {
    return {b_.CreateFAdd(x.first, y.first), b_.CreateFAdd(x.second, y.second)};
  };
  // Complex operand `k` (z is 0, w is 1), or its tangent in lane `lane`.
  auto operand = [&](unsigned k, int lane) -> C {
    auto value = [&](Value *v) { return lane < 0 ? v : TOrZero(v, lane); };
    if (packed) {
      Value *v = value(call.getArgOperand(k));
      Value *re = part(v, 0);
      Value *im = part(v, 1);
      return {re, im};
    }
    return {value(call.getArgOperand(2 * k)),
            value(call.getArgOperand(2 * k + 1))};
  };
  C z = operand(0, -1);
  Value *rre = part(&call, 0);
  Value *rim = part(&call, 1);
  C r = {rre, rim};
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    C dz = operand(0, k);
    C t;
    if (isMul || isDiv) {
      C w = operand(1, -1);
      C dw = operand(1, k);
      if (isMul) { // (z w)' = z' w + z w'
        C dzw = Mul(dz, w);
        C zdw = Mul(z, dw);
        t = Add(dzw, zdw);
      } else { // (z / w)' = (z' - q w') / w
        t = Div(Sub(dz, Mul(r, dw)), w);
      }
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
    if (isa<StructType>(rt)) {
      agg = b_.CreateInsertValue(agg, t.first, {0});
      agg = b_.CreateInsertValue(agg, t.second, {1});
    } else {
      agg = b_.CreateInsertElement(agg, t.first, uint64_t(0));
      agg = b_.CreateInsertElement(agg, t.second, 1);
    }
    lanes.push_back(agg);
  }
  SetT(&call, lanes);
  return true;
}

} // namespace autodiff
