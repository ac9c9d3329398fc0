//===- enzyme_bridge/rules/BlasGemm.cpp - Numba's matrix-matrix helper ----===//
//
// `int numba_xxgemm(char kind, char transa, char transb, intp m, intp n,
// intp k, void *alpha, void *a, intp lda, void *b, intp ldb, void *beta,
// void *c, intp ldc)`: Numba's entry to BLAS gemm, what `A @ B` and
// `np.dot(A, B)` of matrices lower to. Column-major, as Fortran's gemm:
// C (m x n) = alpha op(A) op(B) + beta C, op(A) m x k, op(B) k x n. The
// derivatives call numba_xxgemm again (two products each way):
//   forward: dC = alpha op(dA) op(B) + beta dC, then dC += alpha op(A) op(dB);
//   reverse, with G the adjoint of C:
//     dA += alpha G op(B)^T        (transa 'n'; 't': dA += alpha op(B) G^T)
//     dB += alpha op(A)^T G        (transb 'n'; 't': dB += alpha G^T op(A))
//     dC = beta G                  (C was overwritten).
// alpha and beta are constants. The augmented rule keeps alpha, beta, A
// and B (dense) on the tape: the caller may overwrite them before the
// reverse sweep.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/BlasIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff::blas {
namespace {

/// The operands of a call, as the rules read them.
struct Gemm {
  Value *kind, *ta, *tb, *m, *n, *k, *alpha, *a, *lda, *b, *ldb, *beta, *c,
      *ldc;
  Value *da, *db, *dc;
  Value *a_is_n, *b_is_n;
  /// A and B as stored: rows x columns.
  Value *a_rows, *a_cols, *b_rows, *b_cols;
};

Value *IsNoTrans(IRBuilder<> &b, Value *trans) {
  Type *t = trans->getType();
  Value *lower = b.CreateICmpEQ(trans, ConstantInt::get(t, 'n'));
  Value *upper = b.CreateICmpEQ(trans, ConstantInt::get(t, 'N'));
  return b.CreateOr(lower, upper);
}

Gemm Operands(IRBuilder<> &b, const RuleArgs &r) {
  Gemm g;
  Type *i64 = b.getInt64Ty();
  g.kind = r.value[0];
  g.ta = r.value[1];
  g.tb = r.value[2];
  // Values are named before use throughout: the IR must not depend on the
  // order in which the C++ compiler evaluates arguments.
  g.m = b.CreateSExtOrTrunc(r.value[3], i64);
  g.n = b.CreateSExtOrTrunc(r.value[4], i64);
  g.k = b.CreateSExtOrTrunc(r.value[5], i64);
  g.alpha = r.value[6];
  g.a = r.value[7];
  g.lda = b.CreateSExtOrTrunc(r.value[8], i64);
  g.b = r.value[9];
  g.ldb = b.CreateSExtOrTrunc(r.value[10], i64);
  g.beta = r.value[11];
  g.c = r.value[12];
  g.ldc = b.CreateSExtOrTrunc(r.value[13], i64);
  g.da = r.shadow[7];
  g.db = r.shadow[9];
  g.dc = r.shadow[12];
  g.a_is_n = IsNoTrans(b, g.ta);
  g.b_is_n = IsNoTrans(b, g.tb);
  g.a_rows = b.CreateSelect(g.a_is_n, g.m, g.k);
  g.a_cols = b.CreateSelect(g.a_is_n, g.k, g.m);
  g.b_rows = b.CreateSelect(g.b_is_n, g.k, g.n);
  g.b_cols = b.CreateSelect(g.b_is_n, g.n, g.k);
  return g;
}

/// The arguments of one call of numba_xxgemm, in IR values of any integer
/// width (converted to the parameters' types).
struct GemmCall {
  Value *ta, *tb, *m, *n, *k, *alpha, *a, *lda, *b, *ldb, *beta, *c, *ldc;
};

void CallGemm(IRBuilder<> &b, Function &f, Value *kind, const GemmCall &g) {
  Value *in[14] = {kind,    g.ta, g.tb,  g.m,    g.n, g.k, g.alpha,
                   g.a,     g.lda, g.b,  g.ldb,  g.beta, g.c, g.ldc};
  SmallVector<Value *, 14> args;
  for (unsigned p = 0; p < 14; ++p) {
    Type *t = f.getFunctionType()->getParamType(p);
    args.push_back(t->isPointerTy() ? in[p] : b.CreateSExtOrTrunc(in[p], t));
  }
  b.CreateCall(&f, args);
}

/// A character constant of `trans`'s type.
Value *Char(Value *like, char c) { return ConstantInt::get(like->getType(), c); }

/// 'n' for 't' and the other way round.
Value *Flip(IRBuilder<> &b, Value *trans) {
  Value *isN = IsNoTrans(b, trans);
  return b.CreateSelect(isN, Char(trans, 't'), Char(trans, 'n'));
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
  Gemm g = Operands(b, r);
  // Tape: alpha, beta, A dense, B dense; 8 bytes an element.
  Value *aElems = b.CreateMul(g.a_rows, g.a_cols);
  Value *bElems = b.CreateMul(g.b_rows, g.b_cols);
  Value *matrices = b.CreateAdd(aElems, bElems);
  Value *elems = b.CreateAdd(matrices, b.getInt64(2));
  Value *tape = b.CreateCall(
      m.getOrInsertFunction("malloc", ptr, b.getInt64Ty()),
      {b.CreateMul(elems, b.getInt64(8))}, "tape");
  ForElementType(b, nullptr, g.kind, "numba_xxgemm",
                 [&](IRBuilder<> &eb, Type *elt) {
    eb.CreateStore(eb.CreateLoad(elt, g.alpha), tape);
    Value *beta = eb.CreateLoad(elt, g.beta);
    eb.CreateStore(beta, eb.CreateGEP(elt, tape, eb.getInt64(1)));
    Value *ta = eb.CreateGEP(elt, tape, eb.getInt64(2));
    Value *tb = eb.CreateGEP(elt, ta, aElems);
    CopyDense(eb, elt, g.a, g.lda, g.a_rows, g.a_cols, ta);
    CopyDense(eb, elt, g.b, g.ldb, g.b_rows, g.b_cols, tb);
  });
  CallInst *primal = b.CreateCall(&f, r.value);
  Value *res = b.CreateInsertValue(PoisonValue::get(aug->getReturnType()),
                                   tape, {0});
  b.CreateRet(b.CreateInsertValue(res, primal, {1}));
  return aug;
}

/// The reverse sweep's products, for one element type: dA and dB from the
/// adjoint G of C and the taped A (ta) and B (tb), then dC = beta G.
void EmitReverseProducts(IRBuilder<> &b, Function &f, const Gemm &g, Type *elt,
                         Value *tape) {
  Value *alpha = b.CreateLoad(elt, tape);
  Value *beta = b.CreateLoad(elt, b.CreateGEP(elt, tape, b.getInt64(1)));
  Value *ta = b.CreateGEP(elt, tape, b.getInt64(2));
  Value *aElems = b.CreateMul(g.a_rows, g.a_cols);
  Value *tb = b.CreateGEP(elt, ta, aElems);
  Value *alphaP = Slot(b, elt, alpha);
  Value *oneP = Slot(b, elt, ConstantFP::get(elt, 1.0));
  Value *ldTa = AtLeastOne(b, g.a_rows), *ldTb = AtLeastOne(b, g.b_rows);
  Value *n = Char(g.ta, 'n'), *t = Char(g.ta, 't');
  // dA: 'n': (m x k) += alpha G op(B)^T; 't': (k x m) += alpha op(B) G^T.
  {
    Value *flipB = Flip(b, g.tb);
    GemmCall call;
    call.ta = b.CreateSelect(g.a_is_n, n, g.tb);
    call.tb = b.CreateSelect(g.a_is_n, flipB, t);
    call.m = b.CreateSelect(g.a_is_n, g.m, g.k);
    call.n = b.CreateSelect(g.a_is_n, g.k, g.m);
    call.k = g.n;
    call.alpha = alphaP;
    call.a = b.CreateSelect(g.a_is_n, g.dc, tb);
    call.lda = b.CreateSelect(g.a_is_n, g.ldc, ldTb);
    call.b = b.CreateSelect(g.a_is_n, tb, g.dc);
    call.ldb = b.CreateSelect(g.a_is_n, ldTb, g.ldc);
    call.beta = oneP;
    call.c = g.da;
    call.ldc = g.lda;
    CallGemm(b, f, g.kind, call);
  }
  // dB: 'n': (k x n) += alpha op(A)^T G; 't': (n x k) += alpha G^T op(A).
  {
    Value *flipA = Flip(b, g.ta);
    GemmCall call;
    call.ta = b.CreateSelect(g.b_is_n, flipA, t);
    call.tb = b.CreateSelect(g.b_is_n, n, g.ta);
    call.m = b.CreateSelect(g.b_is_n, g.k, g.n);
    call.n = b.CreateSelect(g.b_is_n, g.n, g.k);
    call.k = g.m;
    call.alpha = alphaP;
    call.a = b.CreateSelect(g.b_is_n, ta, g.dc);
    call.lda = b.CreateSelect(g.b_is_n, ldTa, g.ldc);
    call.b = b.CreateSelect(g.b_is_n, g.dc, ta);
    call.ldb = b.CreateSelect(g.b_is_n, g.ldc, ldTa);
    call.beta = oneP;
    call.c = g.db;
    call.ldc = g.ldb;
    CallGemm(b, f, g.kind, call);
  }
  // dC = beta G.
  EmitLoop(b, g.n, [&](IRBuilder<> &jb, Value *j) {
    EmitLoop(jb, g.m, [&](IRBuilder<> &ib, Value *i) {
      Value *column = ib.CreateMul(j, g.ldc);
      Value *p = ib.CreateGEP(elt, g.dc, ib.CreateAdd(i, column));
      Value *v = ib.CreateLoad(elt, p);
      ib.CreateStore(ib.CreateFMul(beta, v), p);
    });
  });
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
  Gemm g = Operands(b, r);
  ForElementType(b, nullptr, g.kind, "numba_xxgemm",
                 [&](IRBuilder<> &eb, Type *elt) {
    EmitReverseProducts(eb, f, g, elt, tape);
  });
  b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), ptr), {tape});
  b.CreateRetVoid();
  return rev;
}

} // namespace

/// A stack slot holding `v`, for BLAS's scalar pointers.
Value *Slot(IRBuilder<> &b, Type *elt, Value *v) {
  AllocaInst *slot = b.CreateAlloca(elt);
  b.CreateStore(v, slot);
  return slot;
}

/// The larger of `v` and 1 (BLAS wants leading dimensions >= 1).
Value *AtLeastOne(IRBuilder<> &b, Value *v) {
  Value *small = b.CreateICmpSLT(v, b.getInt64(1));
  return b.CreateSelect(small, b.getInt64(1), v);
}

/// Copies the rows x cols matrix at `from` (leading dimension ld) densely
/// to `to`.
void CopyDense(IRBuilder<> &b, Type *elt, Value *from, Value *ld, Value *rows,
               Value *cols, Value *to) {
  EmitLoop(b, cols, [&](IRBuilder<> &jb, Value *j) {
    EmitLoop(jb, rows, [&](IRBuilder<> &ib, Value *i) {
      Value *column = ib.CreateMul(j, ld);
      Value *src = ib.CreateGEP(elt, from, ib.CreateAdd(i, column));
      Value *v = ib.CreateLoad(elt, src);
      Value *dense = ib.CreateMul(j, rows);
      ib.CreateStore(v, ib.CreateGEP(elt, to, ib.CreateAdd(i, dense)));
    });
  });
}

bool IsNumbaGemm(const Function &f) {
  FunctionType *t = f.getFunctionType();
  if (f.getName() != "numba_xxgemm" || t->isVarArg() ||
      t->getNumParams() != 14 || !t->getReturnType()->isIntegerTy())
    return false;
  static const bool pointer[14] = {false, false, false, false, false,
                                   false, true,  true,  false, true,
                                   false, true,  true,  false};
  for (unsigned p = 0; p < 14; ++p)
    if (t->getParamType(p)->isPointerTy() != pointer[p] ||
        (!pointer[p] && !t->getParamType(p)->isIntegerTy()))
      return false;
  return true;
}

ReverseRule GemmReverseRule(Function &f) {
  ReverseRule r;
  r.source = "the built-in BLAS rules";
  r.augment = MakeAugment(f);
  r.reverse = MakeReverse(f);
  return r;
}

Function *GemmForwardRule(Function &f) {
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
  Gemm g = Operands(b, r);
  ForElementType(b, nullptr, g.kind, "numba_xxgemm",
                 [&](IRBuilder<> &eb, Type *elt) {
    Value *oneP = Slot(eb, elt, ConstantFP::get(elt, 1.0));
    // dC = alpha op(dA) op(B) + beta dC; dC += alpha op(A) op(dB).
    GemmCall call{g.ta, g.tb, g.m,   g.n,    g.k,  g.alpha, g.da,
                  g.lda, g.b, g.ldb, g.beta, g.dc, g.ldc};
    CallGemm(eb, f, g.kind, call);
    call.a = g.a;
    call.b = g.db;
    call.beta = oneP;
    CallGemm(eb, f, g.kind, call);
  });
  b.CreateRet(Constant::getNullValue(rt));
  return fwd;
}

} // namespace autodiff::blas
