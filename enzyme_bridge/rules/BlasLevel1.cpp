//===- enzyme_bridge/rules/BlasLevel1.cpp - cblas axpy and nrm2 -----------===//
//
// `void cblas_daxpy(int n, double alpha, const double *x, int incx,
// double *y, int incy)` (y += alpha x), `double cblas_dnrm2(int n,
// const double *x, int incx)` (the Euclidean norm) and `void
// cblas_dscal(int n, double alpha, double *x, int incx)` (x = alpha x),
// with their single precision forms `cblas_saxpy`, `cblas_snrm2`,
// `cblas_sscal`:
//   axpy forward: dy += dalpha x + alpha dx (after the primal call, which
//                 leaves x alone); reverse: dx += alpha G, dalpha = G . x,
//                 G (the adjoint of y) passes on unchanged. The tape keeps
//                 alpha and x.
//   nrm2 forward: dr = (x . dx) / r; reverse: dx += dret x / r (0 when
//                 r is 0). The tape keeps x and r.
//   scal forward: dx = dalpha x + alpha dx (before the call); reverse:
//                 dalpha = G . x, dx = alpha G. The tape keeps alpha, x.
// alpha is a by-value float: its tangent follows it in the forward rule,
// and the reverse rule returns its gradient.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/BlasIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

#include <cstring>

using namespace llvm;

namespace autodiff::blas {
namespace {

enum class Level1 { Axpy, Nrm2, Scal };

/// The element type of a cblas axpy, nrm2 or scal `f` (by name and
/// signature), or null; `kind` says which.
Type *Level1Element(const Function &f, Level1 &kind) {
  StringRef name = f.getName();
  FunctionType *t = f.getFunctionType();
  LLVMContext &c = f.getContext();
  if (t->isVarArg())
    return nullptr;
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
    bool d = elt->isDoubleTy();
    Type *ret = t->getReturnType();
    if (name == (d ? "cblas_daxpy" : "cblas_saxpy") && ret->isVoidTy() &&
        shape("ifpipi", elt)) {
      kind = Level1::Axpy;
      return elt;
    }
    if (name == (d ? "cblas_dnrm2" : "cblas_snrm2") && ret == elt &&
        shape("ipi", elt)) {
      kind = Level1::Nrm2;
      return elt;
    }
    if (name == (d ? "cblas_dscal" : "cblas_sscal") && ret->isVoidTy() &&
        shape("ifpi", elt)) {
      kind = Level1::Scal;
      return elt;
    }
  }
  return nullptr;
}

Value *Wide(IRBuilder<> &b, Value *v) {
  return b.CreateSExtOrTrunc(v, b.getInt64Ty());
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

Function *AxpyAugment(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_",
                          PointerType::getUnqual(c), {}, have);
  if (!aug)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs r = SplitArgs(*aug, f);
  Value *n = Wide(b, r.value[0]);
  Value *tape = NewTape(b, elt, n);
  // Tape: alpha, then x.
  b.CreateStore(r.value[1], tape);
  Value *tx = b.CreateGEP(elt, tape, b.getInt64(1));
  Value *incx = Wide(b, r.value[3]);
  CopyVector(b, elt, r.value[2], incx, n, tx);
  b.CreateCall(&f, r.value);
  b.CreateRet(tape);
  return aug;
}

Function *AxpyReverse(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_", elt,
                          {PointerType::getUnqual(c)}, have);
  if (!rev)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs r = SplitArgs(*rev, f);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  Value *n = Wide(b, r.value[0]);
  Value *incx = Wide(b, r.value[3]);
  Value *incy = Wide(b, r.value[5]);
  Value *alpha = b.CreateLoad(elt, tape);
  Value *tx = b.CreateGEP(elt, tape, b.getInt64(1));
  AllocaInst *dalpha = b.CreateAlloca(elt);
  b.CreateStore(ConstantFP::get(elt, 0.0), dalpha);
  EmitLoop(b, n, [&](IRBuilder<> &lb, Value *i) {
    Value *g = lb.CreateLoad(elt, Element(lb, elt, r.shadow[4], i, incy, n));
    Value *pdx = Element(lb, elt, r.shadow[2], i, incx, n);
    Value *old = lb.CreateLoad(elt, pdx);
    Value *add = lb.CreateFMul(alpha, g);
    lb.CreateStore(lb.CreateFAdd(old, add), pdx);
    Value *xi = lb.CreateLoad(elt, lb.CreateGEP(elt, tx, i));
    Value *sum = lb.CreateLoad(elt, dalpha);
    Value *term = lb.CreateFMul(g, xi);
    lb.CreateStore(lb.CreateFAdd(sum, term), dalpha);
  });
  FreeTape(b, tape);
  b.CreateRet(b.CreateLoad(elt, dalpha));
  return rev;
}

/// The forward rule takes each argument followed by its tangent (floats
/// and pointers) and gives the tangent alone: the primal call stays.
Function *AxpyForward(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Module &m = *f.getParent();
  std::string name = "__autodiff_blas_forward_" + f.getName().str();
  if (Function *have = m.getFunction(name))
    return have;
  SmallVector<Type *, 10> params;
  for (Type *t : f.getFunctionType()->params()) {
    params.push_back(t);
    if (!t->isIntegerTy())
      params.push_back(t);
  }
  Function *fwd = Function::Create(
      FunctionType::get(Type::getVoidTy(c), params, false),
      GlobalValue::InternalLinkage, name, &m);
  // (n, alpha, dalpha, x, dx, incx, y, dy, incy)
  IRBuilder<> b(BasicBlock::Create(c, "entry", fwd));
  Value *n = Wide(b, fwd->getArg(0));
  Value *alpha = fwd->getArg(1), *dalpha = fwd->getArg(2);
  Value *x = fwd->getArg(3), *dx = fwd->getArg(4);
  Value *incx = Wide(b, fwd->getArg(5));
  Value *dy = fwd->getArg(7);
  Value *incy = Wide(b, fwd->getArg(8));
  EmitLoop(b, n, [&](IRBuilder<> &lb, Value *i) {
    Value *xi = lb.CreateLoad(elt, Element(lb, elt, x, i, incx, n));
    Value *dxi = lb.CreateLoad(elt, Element(lb, elt, dx, i, incx, n));
    Value *pdy = Element(lb, elt, dy, i, incy, n);
    Value *left = lb.CreateFMul(dalpha, xi);
    Value *right = lb.CreateFMul(alpha, dxi);
    Value *term = lb.CreateFAdd(left, right);
    Value *old = lb.CreateLoad(elt, pdy);
    lb.CreateStore(lb.CreateFAdd(old, term), pdy);
  });
  b.CreateRetVoid();
  return fwd;
}

Function *Nrm2Augment(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_",
                          StructType::get(c, {PointerType::getUnqual(c), elt}),
                          {}, have);
  if (!aug)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs r = SplitArgs(*aug, f);
  CallInst *norm = b.CreateCall(&f, r.value);
  Value *n = Wide(b, r.value[0]);
  Value *tape = NewTape(b, elt, n);
  // Tape: r, then x.
  b.CreateStore(norm, tape);
  Value *tx = b.CreateGEP(elt, tape, b.getInt64(1));
  Value *inc = Wide(b, r.value[2]);
  CopyVector(b, elt, r.value[1], inc, n, tx);
  Value *res = b.CreateInsertValue(PoisonValue::get(aug->getReturnType()),
                                   tape, {0});
  b.CreateRet(b.CreateInsertValue(res, norm, {1}));
  return aug;
}

Function *Nrm2Reverse(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_", Type::getVoidTy(c),
                          {elt, PointerType::getUnqual(c)}, have);
  if (!rev)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs r = SplitArgs(*rev, f);
  Value *dret = rev->getArg(rev->arg_size() - 2);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  Value *n = Wide(b, r.value[0]);
  Value *inc = Wide(b, r.value[2]);
  Value *norm = b.CreateLoad(elt, tape);
  Value *tx = b.CreateGEP(elt, tape, b.getInt64(1));
  // dret / r, or 0 at r = 0 (a subgradient).
  Value *zero = ConstantFP::get(elt, 0.0);
  Value *isZero = b.CreateFCmpOEQ(norm, zero);
  Value *quotient = b.CreateFDiv(dret, norm);
  Value *scale = b.CreateSelect(isZero, zero, quotient);
  EmitLoop(b, n, [&](IRBuilder<> &lb, Value *i) {
    Value *xi = lb.CreateLoad(elt, lb.CreateGEP(elt, tx, i));
    Value *pdx = Element(lb, elt, r.shadow[1], i, inc, n);
    Value *old = lb.CreateLoad(elt, pdx);
    Value *add = lb.CreateFMul(scale, xi);
    lb.CreateStore(lb.CreateFAdd(old, add), pdx);
  });
  FreeTape(b, tape);
  b.CreateRetVoid();
  return rev;
}

/// Returns {r, dr}: the norm has no side effects, so computing it in the
/// rule (once per lane) is harmless.
Function *Nrm2Forward(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Function *have = nullptr;
  Function *fwd = NewRule(f, "__autodiff_blas_forward_",
                          StructType::get(c, {elt, elt}), {}, have);
  if (!fwd)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", fwd));
  RuleArgs r = SplitArgs(*fwd, f);
  CallInst *norm = b.CreateCall(&f, r.value);
  Value *n = Wide(b, r.value[0]);
  Value *inc = Wide(b, r.value[2]);
  AllocaInst *dot = b.CreateAlloca(elt);
  b.CreateStore(ConstantFP::get(elt, 0.0), dot);
  EmitLoop(b, n, [&](IRBuilder<> &lb, Value *i) {
    Value *xi = lb.CreateLoad(elt, Element(lb, elt, r.value[1], i, inc, n));
    Value *dxi = lb.CreateLoad(elt, Element(lb, elt, r.shadow[1], i, inc, n));
    Value *term = lb.CreateFMul(xi, dxi);
    Value *sum = lb.CreateLoad(elt, dot);
    lb.CreateStore(lb.CreateFAdd(sum, term), dot);
  });
  Value *zero = ConstantFP::get(elt, 0.0);
  Value *isZero = b.CreateFCmpOEQ(norm, zero);
  Value *sum = b.CreateLoad(elt, dot);
  Value *quotient = b.CreateFDiv(sum, norm);
  Value *tangent = b.CreateSelect(isZero, zero, quotient);
  Value *res = b.CreateInsertValue(PoisonValue::get(fwd->getReturnType()),
                                   norm, {0});
  b.CreateRet(b.CreateInsertValue(res, tangent, {1}));
  return fwd;
}

Function *ScalAugment(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_",
                          PointerType::getUnqual(c), {}, have);
  if (!aug)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs r = SplitArgs(*aug, f);
  Value *n = Wide(b, r.value[0]);
  Value *tape = NewTape(b, elt, n);
  // Tape: alpha, then x before the call.
  b.CreateStore(r.value[1], tape);
  Value *tx = b.CreateGEP(elt, tape, b.getInt64(1));
  Value *inc = Wide(b, r.value[3]);
  CopyVector(b, elt, r.value[2], inc, n, tx);
  b.CreateCall(&f, r.value);
  b.CreateRet(tape);
  return aug;
}

/// x = alpha x: dalpha = G . x, then dx = alpha G.
Function *ScalReverse(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_", elt,
                          {PointerType::getUnqual(c)}, have);
  if (!rev)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs r = SplitArgs(*rev, f);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  Value *n = Wide(b, r.value[0]);
  Value *inc = Wide(b, r.value[3]);
  Value *alpha = b.CreateLoad(elt, tape);
  Value *tx = b.CreateGEP(elt, tape, b.getInt64(1));
  AllocaInst *dalpha = b.CreateAlloca(elt);
  b.CreateStore(ConstantFP::get(elt, 0.0), dalpha);
  EmitLoop(b, n, [&](IRBuilder<> &lb, Value *i) {
    Value *pdx = Element(lb, elt, r.shadow[2], i, inc, n);
    Value *g = lb.CreateLoad(elt, pdx);
    Value *xi = lb.CreateLoad(elt, lb.CreateGEP(elt, tx, i));
    Value *sum = lb.CreateLoad(elt, dalpha);
    Value *term = lb.CreateFMul(g, xi);
    lb.CreateStore(lb.CreateFAdd(sum, term), dalpha);
    lb.CreateStore(lb.CreateFMul(alpha, g), pdx);
  });
  FreeTape(b, tape);
  b.CreateRet(b.CreateLoad(elt, dalpha));
  return rev;
}

/// dx = dalpha x + alpha dx, before the call (it reads x).
Function *ScalForward(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Module &m = *f.getParent();
  std::string name = "__autodiff_blas_forward_" + f.getName().str();
  if (Function *have = m.getFunction(name))
    return have;
  SmallVector<Type *, 8> params;
  for (Type *t : f.getFunctionType()->params()) {
    params.push_back(t);
    if (!t->isIntegerTy())
      params.push_back(t);
  }
  Function *fwd = Function::Create(
      FunctionType::get(Type::getVoidTy(c), params, false),
      GlobalValue::InternalLinkage, name, &m);
  // (n, alpha, dalpha, x, dx, incx)
  IRBuilder<> b(BasicBlock::Create(c, "entry", fwd));
  Value *n = Wide(b, fwd->getArg(0));
  Value *alpha = fwd->getArg(1), *dalpha = fwd->getArg(2);
  Value *x = fwd->getArg(3), *dx = fwd->getArg(4);
  Value *inc = Wide(b, fwd->getArg(5));
  EmitLoop(b, n, [&](IRBuilder<> &lb, Value *i) {
    Value *xi = lb.CreateLoad(elt, Element(lb, elt, x, i, inc, n));
    Value *pdx = Element(lb, elt, dx, i, inc, n);
    Value *dxi = lb.CreateLoad(elt, pdx);
    Value *left = lb.CreateFMul(dalpha, xi);
    Value *right = lb.CreateFMul(alpha, dxi);
    lb.CreateStore(lb.CreateFAdd(left, right), pdx);
  });
  b.CreateRetVoid();
  return fwd;
}

} // namespace

bool IsCblasLevel1(const Function &f) {
  Level1 kind;
  return Level1Element(f, kind) != nullptr;
}

ReverseRule Level1ReverseRule(Function &f) {
  Level1 kind = Level1::Axpy;
  Type *elt = Level1Element(f, kind);
  ReverseRule r;
  r.source = "the built-in BLAS rules";
  switch (kind) {
  case Level1::Axpy:
    r.augment = AxpyAugment(f, elt);
    r.reverse = AxpyReverse(f, elt);
    break;
  case Level1::Nrm2:
    r.augment = Nrm2Augment(f, elt);
    r.reverse = Nrm2Reverse(f, elt);
    break;
  case Level1::Scal:
    r.augment = ScalAugment(f, elt);
    r.reverse = ScalReverse(f, elt);
    break;
  }
  return r;
}

Function *Level1ForwardRule(Function &f) {
  Level1 kind = Level1::Axpy;
  Type *elt = Level1Element(f, kind);
  switch (kind) {
  case Level1::Axpy:
    return AxpyForward(f, elt);
  case Level1::Nrm2:
    return Nrm2Forward(f, elt);
  case Level1::Scal:
    return ScalForward(f, elt);
  }
  return nullptr;
}

} // namespace autodiff::blas
