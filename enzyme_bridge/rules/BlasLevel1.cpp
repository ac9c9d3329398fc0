//===- enzyme_bridge/rules/BlasLevel1.cpp - axpy, scal and nrm2 -----------===//
//
// `void cblas_daxpy(int n, double alpha, const double *x, int incx,
// double *y, int incy)` (y += alpha x), `void cblas_dscal(int n,
// double alpha, double *x, int incx)` (x = alpha x) and `double
// cblas_dnrm2(int n, const double *x, int incx)` (the Euclidean norm), their
// single precision forms (`cblas_saxpy`, ...), Fortran's `daxpy_`,
// `dscal_`, `dnrm2_`, `saxpy_`, ... (every argument by pointer), and
// Numba's `int numba_xxnrm2(char kind, intp n, void *x, intp incx,
// void *result)` behind `np.linalg.norm` (element type chosen by `kind` at
// run time, the norm written through `result`, whose shadow holds the seed):
//   axpy forward: dy += dalpha x + alpha dx; reverse: dx += alpha G,
//                 dalpha = G . x, G (the adjoint of y) passes on. The tape
//                 keeps alpha and x.
//   scal forward: dx = dalpha x + alpha dx; reverse: dalpha = G . x,
//                 dx = alpha G. The tape keeps alpha and x.
//   nrm2 forward: dr = (x . dx) / r; reverse: dx += dret x / r (0 when
//                 r is 0). The tape keeps x and r.
// cblas's alpha is a by-value float: its tangent follows it in the forward
// rule, and the reverse rule returns its gradient. Fortran's alpha is a
// pointer: the gradient is added to its shadow, the tangent read from it.
// The forward rules of axpy and scal give no result: they run before the
// call (scal overwrites x).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/BlasIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

#include <cstring>
#include <optional>

using namespace llvm;

namespace autodiff::blas {
namespace {

enum class Level1 { Axpy, Nrm2, Scal };

struct Level1Kind {
  Level1 op;
  Type *elt; ///< Null for Numba's helper (chosen by `kind` at run time).
  bool fortran;
  bool numba = false;
};

/// `int numba_xxnrm2(char kind, intp n, void *x, intp incx, void *result)`.
bool IsNumbaNrm2(const Function &f) {
  FunctionType *t = f.getFunctionType();
  if (f.getName() != "numba_xxnrm2" || t->isVarArg() ||
      t->getNumParams() != 5 || !t->getReturnType()->isIntegerTy())
    return false;
  static const bool pointer[5] = {false, false, true, false, true};
  for (unsigned k = 0; k < 5; ++k)
    if (t->getParamType(k)->isPointerTy() != pointer[k] ||
        (!pointer[k] && !t->getParamType(k)->isIntegerTy()))
      return false;
  return true;
}

/// Which level-1 function `f` is, by name and signature.
std::optional<Level1Kind> Classify(const Function &f) {
  StringRef name = f.getName();
  FunctionType *t = f.getFunctionType();
  LLVMContext &c = f.getContext();
  if (t->isVarArg())
    return std::nullopt;
  if (IsNumbaNrm2(f))
    return Level1Kind{Level1::Nrm2, nullptr, false, true};
  // Parameter shapes: 'i' integer, 'f' the element type, 'p' pointer.
  auto shape = [&](const char *want, Type *elt) {
    if (t->getNumParams() != strlen(want))
      return false;
    for (unsigned p = 0; want[p]; ++p) {
      Type *have = t->getParamType(p);
      if (want[p] == 'i' ? !have->isIntegerTy()
                         : want[p] == 'f' ? have != elt : !have->isPointerTy())
        return false;
    }
    return true;
  };
  for (Type *elt : {Type::getDoubleTy(c), Type::getFloatTy(c)}) {
    std::string p = elt->isDoubleTy() ? "d" : "s";
    Type *ret = t->getReturnType();
    struct Form {
      Level1 op;
      const char *name, *cblas, *fortran;
      bool returns;
    };
    for (const Form &form : {Form{Level1::Axpy, "axpy", "ifpipi", "pppppp", false},
                             Form{Level1::Scal, "scal", "ifpi", "pppp", false},
                             Form{Level1::Nrm2, "nrm2", "ipi", "ppp", true}}) {
      bool retOk = form.returns ? ret == elt : ret->isVoidTy();
      if (!retOk)
        continue;
      if (name == "cblas_" + p + form.name && shape(form.cblas, elt))
        return Level1Kind{form.op, elt, false};
      if (name == p + form.name + "_" && shape(form.fortran, elt))
        return Level1Kind{form.op, elt, true};
    }
  }
  return std::nullopt;
}

/// A call's operands (n, alpha, x, incx, y, incy as the op has them; sizes
/// as i64).
struct Ops {
  Value *n = nullptr, *alpha = nullptr, *x = nullptr, *incx = nullptr,
        *y = nullptr, *incy = nullptr;
  /// Shadows (tangents) of x and y; for Fortran, alpha's pointer's too.
  Value *dx = nullptr, *dy = nullptr, *dalpha_ptr = nullptr;
  /// Numba's helper: its kind, and the result pointer and its shadow.
  Value *kind = nullptr, *result = nullptr, *dresult = nullptr;
};

Ops Read(IRBuilder<> &b, const Level1Kind &k, ArrayRef<Value *> values,
         ArrayRef<Value *> shadows) {
  auto size = [&](unsigned p) {
    Value *v = k.fortran ? b.CreateLoad(b.getInt32Ty(), values[p]) : values[p];
    return b.CreateSExtOrTrunc(v, b.getInt64Ty());
  };
  Ops o;
  if (k.numba) {
    o.kind = values[0];
    o.n = size(1);
    o.x = values[2];
    o.dx = shadows[2];
    o.incx = size(3);
    o.result = values[4];
    o.dresult = shadows[4];
    return o;
  }
  o.n = size(0);
  if (k.op == Level1::Nrm2) {
    o.x = values[1];
    o.dx = shadows[1];
    o.incx = size(2);
    return o;
  }
  o.alpha = k.fortran ? b.CreateLoad(k.elt, values[1]) : values[1];
  if (k.fortran)
    o.dalpha_ptr = shadows[1];
  o.x = values[2];
  o.dx = shadows[2];
  o.incx = size(3);
  if (k.op == Level1::Axpy) {
    o.y = values[4];
    o.dy = shadows[4];
    o.incy = size(5);
  }
  return o;
}

/// Copies x's n elements (stride inc) densely to `to`.
void CopyVector(IRBuilder<> &b, Type *elt, Value *x, Value *inc, Value *n,
                Value *to) {
  EmitLoop(b, n, [&](IRBuilder<> &lb, Value *i) {
    Value *v = lb.CreateLoad(elt, Element(lb, elt, x, i, inc, n));
    lb.CreateStore(v, lb.CreateGEP(elt, to, i));
  });
}

/// malloc((count + 1) elements of `elt`).
Value *NewTape(IRBuilder<> &b, Type *elt, Value *count) {
  Module &m = *b.GetInsertBlock()->getModule();
  const DataLayout &dl = m.getDataLayout();
  Value *positive = b.CreateICmpSGT(count, b.getInt64(0));
  Value *elems = b.CreateSelect(positive, count, b.getInt64(0));
  Value *room = b.CreateAdd(elems, b.getInt64(1));
  Value *bytes = b.CreateMul(room, b.getInt64(dl.getTypeAllocSize(elt)));
  return b.CreateCall(m.getOrInsertFunction("malloc", b.getPtrTy(),
                                            b.getInt64Ty()),
                      {bytes}, "tape");
}

void FreeTape(IRBuilder<> &b, Value *tape) {
  Module &m = *b.GetInsertBlock()->getModule();
  b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), b.getPtrTy()),
               {tape});
}

/// The augmented rule: the tape (alpha, then x; nrm2: r, then x), then the
/// primal call; returns the tape, with nrm2's result.
Function *MakeAugment(Function &f, const Level1Kind &k) {
  LLVMContext &c = f.getContext();
  Type *ptr = PointerType::getUnqual(c);
  bool nrm2 = k.op == Level1::Nrm2;
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_",
                          nrm2 ? StructType::get(c, {ptr, k.elt}) : ptr, {},
                          have);
  if (!aug)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs r = SplitArgs(*aug, f);
  Ops o = Read(b, k, r.value, r.shadow);
  Value *tape = NewTape(b, k.elt, o.n);
  Value *tx = b.CreateGEP(k.elt, tape, b.getInt64(1));
  CopyVector(b, k.elt, o.x, o.incx, o.n, tx);
  if (!nrm2) {
    b.CreateStore(o.alpha, tape);
    b.CreateCall(&f, r.value);
    b.CreateRet(tape);
    return aug;
  }
  CallInst *norm = b.CreateCall(&f, r.value);
  b.CreateStore(norm, tape);
  Value *res = b.CreateInsertValue(PoisonValue::get(aug->getReturnType()),
                                   tape, {0});
  b.CreateRet(b.CreateInsertValue(res, norm, {1}));
  return aug;
}

/// axpy and scal: dx and dalpha from G (the adjoint of y, or of x for
/// scal); returns dalpha.
Value *EmitScaledReverse(IRBuilder<> &b, const Level1Kind &k, const Ops &o,
                         Value *tape) {
  Type *elt = k.elt;
  Value *alpha = b.CreateLoad(elt, tape);
  Value *tx = b.CreateGEP(elt, tape, b.getInt64(1));
  AllocaInst *dalpha = b.CreateAlloca(elt);
  b.CreateStore(ConstantFP::get(elt, 0.0), dalpha);
  bool axpy = k.op == Level1::Axpy;
  EmitLoop(b, o.n, [&](IRBuilder<> &lb, Value *i) {
    Value *pg = axpy ? Element(lb, elt, o.dy, i, o.incy, o.n)
                     : Element(lb, elt, o.dx, i, o.incx, o.n);
    Value *g = lb.CreateLoad(elt, pg);
    Value *xi = lb.CreateLoad(elt, lb.CreateGEP(elt, tx, i));
    Value *sum = lb.CreateLoad(elt, dalpha);
    Value *term = lb.CreateFMul(g, xi);
    lb.CreateStore(lb.CreateFAdd(sum, term), dalpha);
    Value *scaled = lb.CreateFMul(alpha, g);
    if (!axpy) {
      lb.CreateStore(scaled, pg); // dx = alpha G
      return;
    }
    Value *pdx = Element(lb, elt, o.dx, i, o.incx, o.n);
    Value *old = lb.CreateLoad(elt, pdx);
    lb.CreateStore(lb.CreateFAdd(old, scaled), pdx);
  });
  return b.CreateLoad(elt, dalpha);
}

void EmitNrm2Reverse(IRBuilder<> &b, Type *elt, const Ops &o, Value *dret,
                     Value *tape) {
  Value *norm = b.CreateLoad(elt, tape);
  Value *tx = b.CreateGEP(elt, tape, b.getInt64(1));
  // dret / r, or 0 at r = 0 (a subgradient).
  Value *zero = ConstantFP::get(elt, 0.0);
  Value *isZero = b.CreateFCmpOEQ(norm, zero);
  Value *quotient = b.CreateFDiv(dret, norm);
  Value *scale = b.CreateSelect(isZero, zero, quotient);
  EmitLoop(b, o.n, [&](IRBuilder<> &lb, Value *i) {
    Value *xi = lb.CreateLoad(elt, lb.CreateGEP(elt, tx, i));
    Value *pdx = Element(lb, elt, o.dx, i, o.incx, o.n);
    Value *old = lb.CreateLoad(elt, pdx);
    Value *add = lb.CreateFMul(scale, xi);
    lb.CreateStore(lb.CreateFAdd(old, add), pdx);
  });
}

/// Numba's nrm2 helper, augmented: the tape holds the norm, then x's n
/// elements (room for doubles, whatever the kind); returns {tape, status}.
Function *MakeNumbaAugment(Function &f, const Level1Kind &k) {
  LLVMContext &c = f.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_",
                          StructType::get(c, {ptr, f.getReturnType()}), {},
                          have);
  if (!aug)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs r = SplitArgs(*aug, f);
  Ops o = Read(b, k, r.value, r.shadow);
  Value *tape = NewTape(b, b.getDoubleTy(), o.n);
  CallInst *status = b.CreateCall(&f, r.value);
  ForElementType(b, nullptr, o.kind, "numba_xxnrm2",
                 [&](IRBuilder<> &eb, Type *elt) {
    Value *tx = eb.CreateGEP(elt, tape, eb.getInt64(1));
    CopyVector(eb, elt, o.x, o.incx, o.n, tx);
    eb.CreateStore(eb.CreateLoad(elt, o.result), tape);
  });
  Value *res = b.CreateInsertValue(PoisonValue::get(aug->getReturnType()),
                                   tape, {0});
  b.CreateRet(b.CreateInsertValue(res, status, {1}));
  return aug;
}

/// Numba's nrm2 helper, reversed: the seed is the adjoint in the result's
/// shadow, which it consumes.
Function *MakeNumbaReverse(Function &f, const Level1Kind &k) {
  LLVMContext &c = f.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_", Type::getVoidTy(c),
                          {ptr}, have);
  if (!rev)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs r = SplitArgs(*rev, f);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  Ops o = Read(b, k, r.value, r.shadow);
  ForElementType(b, nullptr, o.kind, "numba_xxnrm2",
                 [&](IRBuilder<> &eb, Type *elt) {
    Value *seed = eb.CreateLoad(elt, o.dresult, "seed");
    eb.CreateStore(ConstantFP::get(elt, 0.0), o.dresult);
    EmitNrm2Reverse(eb, elt, o, seed, tape);
  });
  FreeTape(b, tape);
  b.CreateRetVoid();
  return rev;
}

/// dr = (x . dx) / r, or 0 at r = 0.
Value *EmitNrm2Tangent(IRBuilder<> &b, Type *elt, const Ops &o, Value *norm) {
  AllocaInst *dot = b.CreateAlloca(elt);
  b.CreateStore(ConstantFP::get(elt, 0.0), dot);
  EmitLoop(b, o.n, [&](IRBuilder<> &lb, Value *i) {
    Value *xi = lb.CreateLoad(elt, Element(lb, elt, o.x, i, o.incx, o.n));
    Value *dxi = lb.CreateLoad(elt, Element(lb, elt, o.dx, i, o.incx, o.n));
    Value *term = lb.CreateFMul(xi, dxi);
    Value *sum = lb.CreateLoad(elt, dot);
    lb.CreateStore(lb.CreateFAdd(sum, term), dot);
  });
  Value *zero = ConstantFP::get(elt, 0.0);
  Value *isZero = b.CreateFCmpOEQ(norm, zero);
  Value *sum = b.CreateLoad(elt, dot);
  Value *quotient = b.CreateFDiv(sum, norm);
  return b.CreateSelect(isZero, zero, quotient);
}

/// Numba's nrm2 helper, forward: calls it, writes the norm's tangent
/// through the result's tangent pointer and returns {status, 0}.
Function *MakeNumbaForward(Function &f, const Level1Kind &k) {
  LLVMContext &c = f.getContext();
  Type *rt = f.getReturnType();
  auto *pair = StructType::get(c, {rt, rt});
  Function *have = nullptr;
  Function *fwd = NewRule(f, "__autodiff_blas_forward_", pair, {}, have);
  if (!fwd)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", fwd));
  RuleArgs r = SplitArgs(*fwd, f);
  Ops o = Read(b, k, r.value, r.shadow);
  CallInst *status = b.CreateCall(&f, r.value);
  ForElementType(b, nullptr, o.kind, "numba_xxnrm2",
                 [&](IRBuilder<> &eb, Type *elt) {
    Value *norm = eb.CreateLoad(elt, o.result);
    eb.CreateStore(EmitNrm2Tangent(eb, elt, o, norm), o.dresult);
  });
  Value *res = b.CreateInsertValue(PoisonValue::get(pair), status, {0});
  b.CreateRet(b.CreateInsertValue(res, Constant::getNullValue(rt), {1}));
  return fwd;
}

/// The reverse rule: returns cblas's dalpha; Fortran's goes to the shadow
/// of alpha's pointer.
Function *MakeReverse(Function &f, const Level1Kind &k) {
  LLVMContext &c = f.getContext();
  Type *ptr = PointerType::getUnqual(c);
  bool nrm2 = k.op == Level1::Nrm2;
  Type *rt = nrm2 || k.fortran ? Type::getVoidTy(c) : k.elt;
  SmallVector<Type *, 2> extra;
  if (nrm2)
    extra.push_back(k.elt); // the differential return
  extra.push_back(ptr);
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_", rt, extra, have);
  if (!rev)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs r = SplitArgs(*rev, f);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  Ops o = Read(b, k, r.value, r.shadow);
  if (nrm2) {
    EmitNrm2Reverse(b, k.elt, o, rev->getArg(rev->arg_size() - 2), tape);
    FreeTape(b, tape);
    b.CreateRetVoid();
    return rev;
  }
  Value *dalpha = EmitScaledReverse(b, k, o, tape);
  FreeTape(b, tape);
  if (!k.fortran) {
    b.CreateRet(dalpha);
    return rev;
  }
  Value *old = b.CreateLoad(k.elt, o.dalpha_ptr);
  b.CreateStore(b.CreateFAdd(old, dalpha), o.dalpha_ptr);
  b.CreateRetVoid();
  return rev;
}

/// The forward rule: each argument followed by its tangent (floats and
/// pointers). axpy and scal give no result (the call stays and runs after
/// the rule); nrm2, which has no side effects, returns {r, dr}.
Function *MakeForward(Function &f, const Level1Kind &k) {
  LLVMContext &c = f.getContext();
  bool nrm2 = k.op == Level1::Nrm2;
  Type *rt = nrm2 ? StructType::get(c, {k.elt, k.elt}) : Type::getVoidTy(c);
  RuleArgs r;
  Function *have = nullptr;
  Function *fwd = NewForwardRule(f, rt, r, have);
  if (!fwd)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", fwd));
  ArrayRef<Value *> values = r.value, tangents = r.shadow;
  Ops o = Read(b, k, values, tangents);
  Type *elt = k.elt;
  if (nrm2) {
    CallInst *norm = b.CreateCall(&f, values);
    Value *tangent = EmitNrm2Tangent(b, elt, o, norm);
    Value *res = b.CreateInsertValue(PoisonValue::get(rt), norm, {0});
    b.CreateRet(b.CreateInsertValue(res, tangent, {1}));
    return fwd;
  }
  Value *dalpha = k.fortran ? LoadOrZero(b, elt, tangents[1]) : tangents[1];
  bool axpy = k.op == Level1::Axpy;
  // axpy: dy += dalpha x + alpha dx; scal: dx = dalpha x + alpha dx.
  EmitLoop(b, o.n, [&](IRBuilder<> &lb, Value *i) {
    Value *xi = lb.CreateLoad(elt, Element(lb, elt, o.x, i, o.incx, o.n));
    Value *pdx = Element(lb, elt, o.dx, i, o.incx, o.n);
    Value *dxi = lb.CreateLoad(elt, pdx);
    Value *left = lb.CreateFMul(dalpha, xi);
    Value *right = lb.CreateFMul(o.alpha, dxi);
    Value *term = lb.CreateFAdd(left, right);
    if (!axpy) {
      lb.CreateStore(term, pdx);
      return;
    }
    Value *pdy = Element(lb, elt, o.dy, i, o.incy, o.n);
    Value *old = lb.CreateLoad(elt, pdy);
    lb.CreateStore(lb.CreateFAdd(old, term), pdy);
  });
  b.CreateRetVoid();
  return fwd;
}

} // namespace

bool IsCblasLevel1(const Function &f) { return Classify(f).has_value(); }

bool IsNumbaLevel1(const Function &f) { return IsNumbaNrm2(f); }

bool Level1WritesParam(const Function &f, unsigned arg) {
  std::optional<Level1Kind> k = Classify(f);
  if (k && k->numba)
    return arg == 4; // the result
  if (!k || k->op == Level1::Nrm2)
    return false;
  return arg == (k->op == Level1::Axpy ? 4u : 2u);
}

ReverseRule Level1ReverseRule(Function &f) {
  Level1Kind k = *Classify(f);
  ReverseRule r;
  r.source = "the built-in BLAS rules";
  r.augment = k.numba ? MakeNumbaAugment(f, k) : MakeAugment(f, k);
  r.reverse = k.numba ? MakeNumbaReverse(f, k) : MakeReverse(f, k);
  return r;
}

Function *Level1ForwardRule(Function &f) {
  Level1Kind k = *Classify(f);
  return k.numba ? MakeNumbaForward(f, k) : MakeForward(f, k);
}

} // namespace autodiff::blas
