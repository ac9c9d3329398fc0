//===- enzyme_bridge/rules/BlasGemv.cpp - Numba's matrix-vector helper ----===//
//
// `int numba_xxgemv(char kind, char trans, intp m, intp n, void *alpha,
// void *a, intp lda, void *x, void *beta, void *y)`: Numba's entry to BLAS
// gemv, what `A @ x` and `np.dot(A, x)` lower to. Column-major A (m x n,
// leading dimension lda); y = alpha op(A) x + beta y, op(A) = A for trans
// 'n', its transpose for 't'. With x the vector op(A) multiplies:
//   forward: dy = alpha (op(dA) x + op(A) dx) + beta dy;
//   reverse: dx += alpha op(A)^T dy, dA += alpha (dy x^T, or x dy^T for
//            't'), then dy = beta dy (y was overwritten).
// alpha and beta are constants (Numba passes 1 and 0 from the stack). The
// augmented rule keeps A (m x n, dense), x, alpha and beta on the tape:
// the caller may overwrite them before the reverse sweep.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/BlasIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff::blas {
namespace {

/// The operands of a call, as the rules read them.
struct Gemv {
  Value *kind, *trans, *m, *n, *alpha, *a, *lda, *x, *beta, *y;
  Value *da, *dx, *dy;
  Value *is_n; ///< op(A) = A.
  Value *xlen, *ylen;
};

Gemv Operands(IRBuilder<> &b, const RuleArgs &r) {
  Gemv g;
  Type *i64 = b.getInt64Ty();
  g.kind = r.value[0];
  g.trans = r.value[1];
  g.m = b.CreateSExtOrTrunc(r.value[2], i64);
  g.n = b.CreateSExtOrTrunc(r.value[3], i64);
  g.alpha = r.value[4];
  g.a = r.value[5];
  g.lda = b.CreateSExtOrTrunc(r.value[6], i64);
  g.x = r.value[7];
  g.beta = r.value[8];
  g.y = r.value[9];
  g.da = r.shadow[5];
  g.dx = r.shadow[7];
  g.dy = r.shadow[9];
  Type *t = g.trans->getType();
  // Values are named before use throughout: the IR must not depend on the
  // order in which the C++ compiler evaluates arguments.
  Value *lower = b.CreateICmpEQ(g.trans, ConstantInt::get(t, 'n'));
  Value *upper = b.CreateICmpEQ(g.trans, ConstantInt::get(t, 'N'));
  g.is_n = b.CreateOr(lower, upper);
  g.xlen = b.CreateSelect(g.is_n, g.n, g.m);
  g.ylen = b.CreateSelect(g.is_n, g.m, g.n);
  return g;
}

/// Loops over A's m x n elements: body(i, j, index of x, index of y).
void ForEachElement(
    IRBuilder<> &b, const Gemv &g,
    const std::function<void(IRBuilder<> &, Value *, Value *, Value *,
                             Value *)> &body) {
  EmitLoop(b, g.n, [&](IRBuilder<> &jb, Value *j) {
    EmitLoop(jb, g.m, [&](IRBuilder<> &ib, Value *i) {
      Value *xi = ib.CreateSelect(g.is_n, j, i);
      Value *yi = ib.CreateSelect(g.is_n, i, j);
      body(ib, i, j, xi, yi);
    });
  });
}

Function *MakeAugment(Function &f) {
  LLVMContext &c = f.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_",
                          StructType::get(c, {ptr, f.getReturnType()}), {},
                          have);
  if (!aug)
    return have;
  Module &m = *f.getParent();
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs r = SplitArgs(*aug, f);
  Gemv g = Operands(b, r);
  // Tape: alpha, beta, then A dense (m x n), then x; 8 bytes an element.
  Value *matrix = b.CreateMul(g.m, g.n);
  Value *rest = b.CreateAdd(g.xlen, b.getInt64(2));
  Value *elems = b.CreateAdd(matrix, rest);
  Value *tape = b.CreateCall(
      m.getOrInsertFunction("malloc", ptr, b.getInt64Ty()),
      {b.CreateMul(elems, b.getInt64(8))}, "tape");
  ForElementType(b, nullptr, g.kind, "numba_xxgemv",
                 [&](IRBuilder<> &eb, Type *elt) {
    eb.CreateStore(eb.CreateLoad(elt, g.alpha), tape);
    Value *beta = eb.CreateLoad(elt, g.beta);
    eb.CreateStore(beta, eb.CreateGEP(elt, tape, eb.getInt64(1)));
    Value *ta = eb.CreateGEP(elt, tape, eb.getInt64(2));
    Value *tx = eb.CreateGEP(elt, ta, eb.CreateMul(g.m, g.n));
    ForEachElement(eb, g, [&](IRBuilder<> &lb, Value *i, Value *j, Value *,
                              Value *) {
      Value *column = lb.CreateMul(j, g.lda);
      Value *v = lb.CreateLoad(
          elt, lb.CreateGEP(elt, g.a, lb.CreateAdd(i, column)));
      Value *dense = lb.CreateMul(j, g.m);
      Value *to = lb.CreateGEP(elt, ta, lb.CreateAdd(i, dense));
      lb.CreateStore(v, to);
    });
    EmitLoop(eb, g.xlen, [&](IRBuilder<> &lb, Value *k) {
      Value *v = lb.CreateLoad(elt, lb.CreateGEP(elt, g.x, k));
      lb.CreateStore(v, lb.CreateGEP(elt, tx, k));
    });
  });
  CallInst *primal = b.CreateCall(&f, r.value);
  Value *res = b.CreateInsertValue(PoisonValue::get(aug->getReturnType()),
                                   tape, {0});
  b.CreateRet(b.CreateInsertValue(res, primal, {1}));
  return aug;
}

Function *MakeReverse(Function &f) {
  LLVMContext &c = f.getContext();
  Type *ptr = PointerType::getUnqual(c);
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_", Type::getVoidTy(c),
                          {ptr}, have);
  if (!rev)
    return have;
  Module &m = *f.getParent();
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs r = SplitArgs(*rev, f);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  Gemv g = Operands(b, r);
  ForElementType(b, nullptr, g.kind, "numba_xxgemv",
                 [&](IRBuilder<> &eb, Type *elt) {
    Value *alpha = eb.CreateLoad(elt, tape);
    Value *beta = eb.CreateLoad(elt, eb.CreateGEP(elt, tape, eb.getInt64(1)));
    Value *ta = eb.CreateGEP(elt, tape, eb.getInt64(2));
    Value *tx = eb.CreateGEP(elt, ta, eb.CreateMul(g.m, g.n));
    ForEachElement(eb, g, [&](IRBuilder<> &lb, Value *i, Value *j, Value *xi,
                              Value *yi) {
      Value *dense = lb.CreateMul(j, g.m);
      Value *aij = lb.CreateLoad(
          elt, lb.CreateGEP(elt, ta, lb.CreateAdd(i, dense)));
      Value *dyv = lb.CreateLoad(elt, lb.CreateGEP(elt, g.dy, yi));
      Value *ybar = lb.CreateFMul(alpha, dyv);
      Value *pdx = lb.CreateGEP(elt, g.dx, xi);
      Value *oldx = lb.CreateLoad(elt, pdx);
      Value *addx = lb.CreateFMul(aij, ybar);
      lb.CreateStore(lb.CreateFAdd(oldx, addx), pdx);
      Value *column = lb.CreateMul(j, g.lda);
      Value *pda = lb.CreateGEP(elt, g.da, lb.CreateAdd(i, column));
      Value *xv = lb.CreateLoad(elt, lb.CreateGEP(elt, tx, xi));
      Value *olda = lb.CreateLoad(elt, pda);
      Value *adda = lb.CreateFMul(ybar, xv);
      lb.CreateStore(lb.CreateFAdd(olda, adda), pda);
    });
    EmitLoop(eb, g.ylen, [&](IRBuilder<> &lb, Value *k) {
      Value *p = lb.CreateGEP(elt, g.dy, k);
      Value *v = lb.CreateLoad(elt, p);
      lb.CreateStore(UnlessBetaZero(lb, beta, lb.CreateFMul(beta, v)), p);
    });
  });
  b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), ptr), {tape});
  b.CreateRetVoid();
  return rev;
}

} // namespace

bool IsNumbaGemv(const Function &f) {
  FunctionType *t = f.getFunctionType();
  if (f.getName() != "numba_xxgemv" || t->isVarArg() ||
      t->getNumParams() != 10 || !t->getReturnType()->isIntegerTy())
    return false;
  static const bool pointer[10] = {false, false, false, false, true,
                                   true,  false, true,  true,  true};
  for (unsigned k = 0; k < 10; ++k)
    if (t->getParamType(k)->isPointerTy() != pointer[k] ||
        (!pointer[k] && !t->getParamType(k)->isIntegerTy()))
      return false;
  return true;
}

ReverseRule GemvReverseRule(Function &f) {
  ReverseRule r;
  r.source = "the built-in BLAS rules";
  r.augment = MakeAugment(f);
  r.reverse = MakeReverse(f);
  return r;
}

Function *GemvForwardRule(Function &f) {
  Type *rt = f.getReturnType();
  Function *have = nullptr;
  // The tangent alone: the primal call stays where it is and runs once,
  // also with enzyme_width > 1, when this rule is called once per lane
  // (beta C makes running it twice wrong).
  Function *fwd = NewRule(f, "__autodiff_blas_forward_", rt, {}, have);
  if (!fwd)
    return have;
  IRBuilder<> b(BasicBlock::Create(f.getContext(), "entry", fwd));
  RuleArgs r = SplitArgs(*fwd, f);
  Gemv g = Operands(b, r);
  ForElementType(b, nullptr, g.kind, "numba_xxgemv",
                 [&](IRBuilder<> &eb, Type *elt) {
    Value *alpha = eb.CreateLoad(elt, g.alpha);
    Value *beta = eb.CreateLoad(elt, g.beta);
    AllocaInst *acc = eb.CreateAlloca(elt);
    // Per element of y: dy = alpha (op(dA) x + op(A) dx) + beta dy.
    EmitLoop(eb, g.ylen, [&](IRBuilder<> &ob, Value *yi) {
      ob.CreateStore(ConstantFP::get(elt, 0.0), acc);
      EmitLoop(ob, g.xlen, [&](IRBuilder<> &lb, Value *xi) {
        Value *i = lb.CreateSelect(g.is_n, yi, xi);
        Value *j = lb.CreateSelect(g.is_n, xi, yi);
        Value *column = lb.CreateMul(j, g.lda);
        Value *at = lb.CreateAdd(i, column);
        Value *aij = lb.CreateLoad(elt, lb.CreateGEP(elt, g.a, at));
        Value *dxv = lb.CreateLoad(elt, lb.CreateGEP(elt, g.dx, xi));
        Value *daij = lb.CreateLoad(elt, lb.CreateGEP(elt, g.da, at));
        Value *xv = lb.CreateLoad(elt, lb.CreateGEP(elt, g.x, xi));
        Value *left = lb.CreateFMul(aij, dxv);
        Value *right = lb.CreateFMul(daij, xv);
        Value *term = lb.CreateFAdd(left, right);
        Value *sum = lb.CreateLoad(elt, acc);
        lb.CreateStore(lb.CreateFAdd(sum, term), acc);
      });
      Value *p = ob.CreateGEP(elt, g.dy, yi);
      Value *sum = ob.CreateLoad(elt, acc);
      Value *scaled = ob.CreateFMul(alpha, sum);
      Value *old = ob.CreateLoad(elt, p);
      Value *kept = UnlessBetaZero(ob, beta, ob.CreateFMul(beta, old));
      ob.CreateStore(ob.CreateFAdd(scaled, kept), p);
    });
  });
  b.CreateRet(Constant::getNullValue(rt));
  return fwd;
}

} // namespace autodiff::blas
