//===- enzyme_bridge/reverse/ReverseComplexCalls.cpp - C99 complex ------===//
//
// The adjoints of C99 complex helpers on (re, im) pairs: clang's
// __muldc3/__divdc3 (and the float forms __mulsc3/__divsc3), which complex
// `*` and `/` become without -ffast-math, and cexp, clog, csqrt, csin,
// ccos. Each is holomorphic: for r = f(z) with f'(z) = d, the adjoint of z
// gains conj(d) * a, where a is r's adjoint as a complex number (a pair of
// real adjoints). For z * w: d/dz = w, d/dw = z; for q = z / w: d/dz =
// 1 / w, d/dw = -q / w; exp: exp z; log: 1 / z; sqrt: 1 / (2 sqrt z);
// sin: cos z; cos: -sin z.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/ReverseEmitter.h"

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Complex arithmetic on (re, im) pairs, built in order (each product is
/// named before its sum, so the IR does not depend on the order in which
/// the C++ compiler evaluates arguments).
class ComplexBuilder {
public:
  using C = std::pair<Value *, Value *>;
  explicit ComplexBuilder(IRBuilder<> &b) : b_(b) {}

  Value *MulAdd(Value *a, Value *b, Value *c, Value *d, bool sub) {
    Value *ab = b_.CreateFMul(a, b);
    Value *cd = b_.CreateFMul(c, d);
    return sub ? b_.CreateFSub(ab, cd) : b_.CreateFAdd(ab, cd);
  }
  C Mul(C x, C y) {
    Value *re = MulAdd(x.first, y.first, x.second, y.second, true);
    Value *im = MulAdd(x.first, y.second, x.second, y.first, false);
    return {re, im};
  }
  C Div(C x, C y) {
    Value *den = MulAdd(y.first, y.first, y.second, y.second, false);
    Value *re = MulAdd(x.first, y.first, x.second, y.second, false);
    Value *im = MulAdd(x.second, y.first, x.first, y.second, true);
    Value *qre = b_.CreateFDiv(re, den);
    Value *qim = b_.CreateFDiv(im, den);
    return {qre, qim};
  }
  C Neg(C x) {
    Value *re = b_.CreateFNeg(x.first);
    Value *im = b_.CreateFNeg(x.second);
    return {re, im};
  }
  /// conj(d) * a.
  C ConjMul(C d, C a) {
    Value *re = MulAdd(d.first, a.first, d.second, a.second, false);
    Value *im = MulAdd(d.first, a.second, d.second, a.first, true);
    return {re, im};
  }

private:
  IRBuilder<> &b_;
};

enum class ComplexFn { None, Mul, Div, Exp, Log, Sqrt, Sin, Cos };

/// The element type of a complex value as the C ABI passes it: a pair
/// `{fp, fp}`, or `<2 x float>` (two floats in one register on x86-64).
Type *PairElement(Type *t) {
  if (auto *st = dyn_cast<StructType>(t))
    if (st->getNumElements() == 2 &&
        st->getElementType(0)->isFloatingPointTy() &&
        st->getElementType(1) == st->getElementType(0))
      return st->getElementType(0);
  if (auto *vt = dyn_cast<FixedVectorType>(t))
    if (vt->getNumElements() == 2 && vt->getElementType()->isFloatingPointTy())
      return vt->getElementType();
  return nullptr;
}

/// How the call passes its complex operands: as (re, im) scalars, or each
/// as one packed value.
ComplexFn ClassifyComplex(const CallBase &call, StringRef name,
                          bool &packed) {
  ComplexFn fn = StringSwitch<ComplexFn>(name)
                     .Cases({"__muldc3", "__mulsc3"}, ComplexFn::Mul)
                     .Cases({"__divdc3", "__divsc3"}, ComplexFn::Div)
                     .Cases({"cexp", "cexpf"}, ComplexFn::Exp)
                     .Cases({"clog", "clogf"}, ComplexFn::Log)
                     .Cases({"csqrt", "csqrtf"}, ComplexFn::Sqrt)
                     .Cases({"csin", "csinf"}, ComplexFn::Sin)
                     .Cases({"ccos", "ccosf"}, ComplexFn::Cos)
                     .Default(ComplexFn::None);
  Type *fp = PairElement(call.getType());
  if (fn == ComplexFn::None || !fp)
    return ComplexFn::None;
  unsigned operands = fn == ComplexFn::Mul || fn == ComplexFn::Div ? 2 : 1;
  packed = call.arg_size() == operands;
  if (!packed && call.arg_size() != 2 * operands)
    return ComplexFn::None;
  for (const Value *a : call.args())
    if (packed ? a->getType() != call.getType() : a->getType() != fp)
      return ComplexFn::None;
  return fn;
}

} // namespace

/// cabsf / cargf of a float complex passed as `<2 x float>` (the double
/// forms, two scalars, are in the rule table): |z| gives (re, im) a / |z|,
/// arg(z) gives (-im, re) a / |z|^2.
bool ReverseEmitter::VisitPackedComplexReal(CallBase &call, StringRef name) {
  bool isAbs = name == "cabsf", isArg = name == "cargf";
  Value *z = call.arg_size() == 1 ? call.getArgOperand(0) : nullptr;
  auto *vt = z ? dyn_cast<FixedVectorType>(z->getType()) : nullptr;
  if ((!isAbs && !isArg) || !vt || vt->getNumElements() != 2 ||
      vt->getElementType() != call.getType())
    return false;
  Value *a = TakeAdjoint(&call);
  if (!HasAdjoint(z))
    return true;
  Value *zv = Lookup(z);
  Value *re = rb_.CreateExtractElement(zv, uint64_t(0));
  Value *im = rb_.CreateExtractElement(zv, 1);
  Value *dre, *dim;
  if (isAbs) {
    Value *r = Lookup(&call);
    Value *scale = rb_.CreateFDiv(a, r);
    dre = rb_.CreateFMul(re, scale);
    dim = rb_.CreateFMul(im, scale);
  } else {
    Value *re2 = rb_.CreateFMul(re, re);
    Value *im2 = rb_.CreateFMul(im, im);
    Value *norm2 = rb_.CreateFAdd(re2, im2);
    Value *scale = rb_.CreateFDiv(a, norm2);
    Value *minus_im = rb_.CreateFNeg(im);
    dre = rb_.CreateFMul(minus_im, scale);
    dim = rb_.CreateFMul(re, scale);
  }
  Value *dz = Constant::getNullValue(vt);
  dz = rb_.CreateInsertElement(dz, dre, uint64_t(0));
  dz = rb_.CreateInsertElement(dz, dim, 1);
  AddAdjoint(z, dz);
  return true;
}

bool ReverseEmitter::VisitComplexCall(CallBase &call, StringRef name) {
  if (VisitPackedComplexReal(call, name))
    return true;
  bool packed = false;
  ComplexFn fn = ClassifyComplex(call, name, packed);
  if (fn == ComplexFn::None)
    return false;
  using C = ComplexBuilder::C;
  ComplexBuilder cb(rb_);
  auto part = [&](Value *v, unsigned i) -> Value * {
    return isa<StructType>(v->getType()) ? rb_.CreateExtractValue(v, {i})
                                         : rb_.CreateExtractElement(v, i);
  };
  // Complex operand `k` (z is 0, w is 1) as a pair of primal values.
  auto operand = [&](unsigned k) -> C {
    if (packed) {
      Value *v = Lookup(call.getArgOperand(k));
      Value *re = part(v, 0);
      Value *im = part(v, 1);
      return {re, im};
    }
    Value *re = Lookup(call.getArgOperand(2 * k));
    Value *im = Lookup(call.getArgOperand(2 * k + 1));
    return {re, im};
  };
  Value *adj = TakeAdjoint(&call);
  Value *are = part(adj, 0);
  Value *aim = part(adj, 1);
  C a = {are, aim};
  C z = operand(0);
  auto give = [&](unsigned k, C d) {
    Value *first = call.getArgOperand(packed ? k : 2 * k);
    Value *second = packed ? first : call.getArgOperand(2 * k + 1);
    if (!HasAdjoint(first) && !HasAdjoint(second))
      return;
    C g = cb.ConjMul(d, a);
    if (packed) {
      Value *v = Constant::getNullValue(first->getType());
      v = rb_.CreateInsertElement(v, g.first, uint64_t(0));
      v = rb_.CreateInsertElement(v, g.second, 1);
      AddAdjoint(first, v);
      return;
    }
    AddAdjoint(first, g.first);
    AddAdjoint(second, g.second);
  };
  Value *zre = z.first;
  Type *fp = zre->getType();
  C one = {ConstantFP::get(fp, 1.0), ConstantFP::get(fp, 0.0)};
  auto result = [&]() -> C {
    Value *r = Lookup(&call);
    Value *rre = part(r, 0);
    Value *rim = part(r, 1);
    return {rre, rim};
  };
  auto intrinsic = [&](Intrinsic::ID id, Value *v) -> Value * {
    return rb_.CreateCall(
        Intrinsic::getOrInsertDeclaration(call.getModule(), id, {fp}), {v});
  };
  switch (fn) {
  case ComplexFn::Mul:
    give(0, operand(1));
    give(1, z);
    break;
  case ComplexFn::Div: {
    C w = operand(1);
    C inv = cb.Div(one, w);
    give(0, inv);
    C q = cb.Div(z, w);
    give(1, cb.Neg(cb.Mul(q, inv)));
    break;
  }
  case ComplexFn::Exp:
    give(0, result());
    break;
  case ComplexFn::Log:
    give(0, cb.Div(one, z));
    break;
  case ComplexFn::Sqrt: {
    C r = result();
    Value *two = ConstantFP::get(fp, 2.0);
    Value *rre = rb_.CreateFMul(two, r.first);
    Value *rim = rb_.CreateFMul(two, r.second);
    give(0, cb.Div(one, {rre, rim}));
    break;
  }
  case ComplexFn::Sin:
  case ComplexFn::Cos: {
    // cos(a + ib) = cos a cosh b - i sin a sinh b;
    // -sin(a + ib) = -(sin a cosh b + i cos a sinh b).
    Value *sa = intrinsic(Intrinsic::sin, z.first);
    Value *ca = intrinsic(Intrinsic::cos, z.first);
    Value *shb = intrinsic(Intrinsic::sinh, z.second);
    Value *chb = intrinsic(Intrinsic::cosh, z.second);
    C d;
    if (fn == ComplexFn::Sin) {
      Value *re = rb_.CreateFMul(ca, chb);
      Value *im = rb_.CreateFNeg(rb_.CreateFMul(sa, shb));
      d = {re, im};
    } else {
      Value *re = rb_.CreateFNeg(rb_.CreateFMul(sa, chb));
      Value *im = rb_.CreateFNeg(rb_.CreateFMul(ca, shb));
      d = {re, im};
    }
    give(0, d);
    break;
  }
  case ComplexFn::None:
    break;
  }
  return true;
}

} // namespace autodiff
