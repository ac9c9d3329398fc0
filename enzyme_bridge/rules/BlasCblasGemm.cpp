//===- enzyme_bridge/rules/BlasCblasGemm.cpp - cblas_dgemm and cblas_sgemm ===//
//
// `void cblas_dgemm(layout, transa, transb, int m, int n, int k,
// double alpha, const double *a, int lda, const double *b, int ldb,
// double beta, double *c, int ldc)`: C = alpha op(A) op(B) + beta C, in
// row-major (101) or column-major (102) layout; transposes 111 (none),
// 112 and 113 (transpose). A row-major call is the column-major one of the
// transposes (A and B swap places), so the rules work column-major and
// call cblas_dgemm again for their products. alpha and beta are by-value
// floats with derivatives of their own:
//   forward (before the primal call, which it needs C of):
//     dC = beta dC + dbeta C + dalpha op(A) op(B)
//          + alpha (op(dA) op(B) + op(A) op(dB));
//   reverse, G the adjoint of C: dA and dB as for numba_xxgemm
//     (BlasGemm.cpp), dalpha = G . op(A) op(B), dbeta = G . C (before the
//     call), then dC = beta G.
// The tape keeps alpha, beta, A, B and C densely. `cblas_sgemm` likewise.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/BlasIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff::blas {
namespace {

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112;

/// The element type of cblas_dgemm / cblas_sgemm `f`, or null.
Type *GemmElement(const Function &f) {
  FunctionType *t = f.getFunctionType();
  LLVMContext &c = f.getContext();
  Type *elt = f.getName() == "cblas_dgemm"   ? Type::getDoubleTy(c)
              : f.getName() == "cblas_sgemm" ? Type::getFloatTy(c)
                                             : nullptr;
  if (!elt || t->isVarArg() || t->getNumParams() != 14 ||
      !t->getReturnType()->isVoidTy())
    return nullptr;
  for (unsigned p = 0; p < 14; ++p) {
    Type *want = p == 6 || p == 11 ? elt : nullptr;
    bool pointer = p == 7 || p == 9 || p == 12;
    Type *have = t->getParamType(p);
    if (want ? have != want
             : pointer ? !have->isPointerTy() : !have->isIntegerTy())
      return nullptr;
  }
  return elt;
}

/// A call's operands in column-major form (a row-major call's A and B
/// swapped, with their transposes, sizes and shadows).
struct ColGemm {
  Value *ta, *tb, *m, *n, *k, *alpha, *a, *lda, *b, *ldb, *beta, *c, *ldc;
  Value *da, *db, *dc;
  Value *a_is_n, *b_is_n;
  Value *a_rows, *a_cols, *b_rows, *b_cols;
};

/// `values` and `shadows`: per parameter of f (shadows null where none).
ColGemm Canonical(IRBuilder<> &b, ArrayRef<Value *> values,
                  ArrayRef<Value *> shadows) {
  Type *i64 = b.getInt64Ty();
  Value *layout = values[0];
  Value *row = b.CreateICmpEQ(layout, ConstantInt::get(layout->getType(),
                                                       kRowMajor));
  auto pick = [&](Value *ifRow, Value *ifCol) {
    return b.CreateSelect(row, ifRow, ifCol);
  };
  auto wide = [&](Value *v) { return b.CreateSExtOrTrunc(v, i64); };
  ColGemm g;
  Value *ta = wide(values[1]), *tb = wide(values[2]);
  g.ta = pick(tb, ta);
  g.tb = pick(ta, tb);
  Value *m = wide(values[3]), *n = wide(values[4]);
  g.m = pick(n, m);
  g.n = pick(m, n);
  g.k = wide(values[5]);
  g.alpha = values[6];
  g.a = pick(values[9], values[7]);
  g.b = pick(values[7], values[9]);
  Value *lda = wide(values[8]), *ldb = wide(values[10]);
  g.lda = pick(ldb, lda);
  g.ldb = pick(lda, ldb);
  g.beta = values[11];
  g.c = values[12];
  g.ldc = wide(values[13]);
  g.da = shadows[7] ? pick(shadows[9], shadows[7]) : nullptr;
  g.db = shadows[9] ? pick(shadows[7], shadows[9]) : nullptr;
  g.dc = shadows[12];
  Value *noTrans = b.getInt64(kNoTrans);
  g.a_is_n = b.CreateICmpEQ(g.ta, noTrans);
  g.b_is_n = b.CreateICmpEQ(g.tb, noTrans);
  g.a_rows = b.CreateSelect(g.a_is_n, g.m, g.k);
  g.a_cols = b.CreateSelect(g.a_is_n, g.k, g.m);
  g.b_rows = b.CreateSelect(g.b_is_n, g.k, g.n);
  g.b_cols = b.CreateSelect(g.b_is_n, g.n, g.k);
  return g;
}

/// cblas_?gemm(ColMajor, ...): scalars by value, integers converted to
/// the parameters' types.
void CallCol(IRBuilder<> &b, Function &f, Value *ta, Value *tb, Value *m,
             Value *n, Value *k, Value *alpha, Value *a, Value *lda, Value *bb,
             Value *ldb, Value *beta, Value *c, Value *ldc) {
  Value *in[14] = {b.getInt64(kColMajor), ta, tb, m, n, k, alpha, a, lda, bb,
                   ldb, beta, c, ldc};
  SmallVector<Value *, 14> args;
  for (unsigned p = 0; p < 14; ++p) {
    Type *t = f.getFunctionType()->getParamType(p);
    args.push_back(t->isIntegerTy() ? b.CreateSExtOrTrunc(in[p], t) : in[p]);
  }
  b.CreateCall(&f, args);
}

Value *Flip(IRBuilder<> &b, Value *isN) {
  return b.CreateSelect(isN, b.getInt64(kTrans), b.getInt64(kNoTrans));
}

Function *MakeAugment(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Module &m = *f.getParent();
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_",
                          PointerType::getUnqual(c), {}, have);
  if (!aug)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs r = SplitArgs(*aug, f);
  ColGemm g = Canonical(b, r.value, r.shadow);
  // Tape: alpha, beta, A, B, C (dense); 8 bytes an element.
  Value *aElems = b.CreateMul(g.a_rows, g.a_cols);
  Value *bElems = b.CreateMul(g.b_rows, g.b_cols);
  Value *cElems = b.CreateMul(g.m, g.n);
  Value *ab = b.CreateAdd(aElems, bElems);
  Value *abc = b.CreateAdd(ab, cElems);
  Value *elems = b.CreateAdd(abc, b.getInt64(2));
  Value *tape = b.CreateCall(
      m.getOrInsertFunction("malloc", b.getPtrTy(), b.getInt64Ty()),
      {b.CreateMul(elems, b.getInt64(8))}, "tape");
  b.CreateStore(g.alpha, tape);
  b.CreateStore(g.beta, b.CreateGEP(elt, tape, b.getInt64(1)));
  Value *ta = b.CreateGEP(elt, tape, b.getInt64(2));
  Value *tb = b.CreateGEP(elt, ta, aElems);
  Value *tc = b.CreateGEP(elt, tb, bElems);
  CopyDense(b, elt, g.a, g.lda, g.a_rows, g.a_cols, ta);
  CopyDense(b, elt, g.b, g.ldb, g.b_rows, g.b_cols, tb);
  CopyDense(b, elt, g.c, g.ldc, g.m, g.n, tc);
  b.CreateCall(&f, r.value);
  b.CreateRet(tape);
  return aug;
}

Function *MakeReverse(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Module &m = *f.getParent();
  Type *pair = StructType::get(c, {elt, elt});
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_", pair,
                          {PointerType::getUnqual(c)}, have);
  if (!rev)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs r = SplitArgs(*rev, f);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  ColGemm g = Canonical(b, r.value, r.shadow);
  Value *alpha = b.CreateLoad(elt, tape);
  Value *beta = b.CreateLoad(elt, b.CreateGEP(elt, tape, b.getInt64(1)));
  Value *ta = b.CreateGEP(elt, tape, b.getInt64(2));
  Value *aElems = b.CreateMul(g.a_rows, g.a_cols);
  Value *tb = b.CreateGEP(elt, ta, aElems);
  Value *bElems = b.CreateMul(g.b_rows, g.b_cols);
  Value *tc = b.CreateGEP(elt, tb, bElems);
  Value *one = ConstantFP::get(elt, 1.0), *zero = ConstantFP::get(elt, 0.0);
  Value *ldTa = AtLeastOne(b, g.a_rows), *ldTb = AtLeastOne(b, g.b_rows);
  Value *ldM = AtLeastOne(b, g.m);
  Value *nT = b.getInt64(kNoTrans), *tT = b.getInt64(kTrans);
  // dA: 'n': (m x k) += alpha G op(B)^T; 't': (k x m) += alpha op(B) G^T.
  Value *flipB = Flip(b, g.b_is_n);
  Value *aTa = b.CreateSelect(g.a_is_n, nT, g.tb);
  Value *aTb = b.CreateSelect(g.a_is_n, flipB, tT);
  Value *aM = b.CreateSelect(g.a_is_n, g.m, g.k);
  Value *aN = b.CreateSelect(g.a_is_n, g.k, g.m);
  Value *aA = b.CreateSelect(g.a_is_n, g.dc, tb);
  Value *aLda = b.CreateSelect(g.a_is_n, g.ldc, ldTb);
  Value *aB = b.CreateSelect(g.a_is_n, tb, g.dc);
  Value *aLdb = b.CreateSelect(g.a_is_n, ldTb, g.ldc);
  CallCol(b, f, aTa, aTb, aM, aN, g.n, alpha, aA, aLda, aB, aLdb, one, g.da,
          g.lda);
  // dB: 'n': (k x n) += alpha op(A)^T G; 't': (n x k) += alpha G^T op(A).
  Value *flipA = Flip(b, g.a_is_n);
  Value *bTa = b.CreateSelect(g.b_is_n, flipA, tT);
  Value *bTb = b.CreateSelect(g.b_is_n, nT, g.ta);
  Value *bM = b.CreateSelect(g.b_is_n, g.k, g.n);
  Value *bN = b.CreateSelect(g.b_is_n, g.n, g.k);
  Value *bA = b.CreateSelect(g.b_is_n, ta, g.dc);
  Value *bLda = b.CreateSelect(g.b_is_n, ldTa, g.ldc);
  Value *bB = b.CreateSelect(g.b_is_n, g.dc, ta);
  Value *bLdb = b.CreateSelect(g.b_is_n, g.ldc, ldTa);
  CallCol(b, f, bTa, bTb, bM, bN, g.m, alpha, bA, bLda, bB, bLdb, one, g.db,
          g.ldb);
  // dalpha = G . op(A) op(B), the product made again in a scratch matrix.
  Value *cElems = b.CreateMul(g.m, g.n);
  Value *bytes = b.CreateMul(AtLeastOne(b, cElems), b.getInt64(8));
  Value *product = b.CreateCall(
      m.getOrInsertFunction("malloc", b.getPtrTy(), b.getInt64Ty()), {bytes},
      "product");
  CallCol(b, f, g.ta, g.tb, g.m, g.n, g.k, one, ta, ldTa, tb, ldTb, zero,
          product, ldM);
  Value *dalpha = MatrixDot(b, elt, g.dc, g.ldc, product, ldM, g.m, g.n);
  // dbeta = G . C before the call.
  Value *dbeta = UnlessBetaZero(
      b, beta, MatrixDot(b, elt, g.dc, g.ldc, tc, ldM, g.m, g.n));
  // dC = beta G.
  EmitLoop(b, g.n, [&](IRBuilder<> &jb, Value *j) {
    EmitLoop(jb, g.m, [&](IRBuilder<> &ib, Value *i) {
      Value *column = ib.CreateMul(j, g.ldc);
      Value *p = ib.CreateGEP(elt, g.dc, ib.CreateAdd(i, column));
      Value *v = ib.CreateLoad(elt, p);
      ib.CreateStore(UnlessBetaZero(ib, beta, ib.CreateFMul(beta, v)), p);
    });
  });
  FunctionCallee freeFn =
      m.getOrInsertFunction("free", b.getVoidTy(), b.getPtrTy());
  b.CreateCall(freeFn, {product});
  b.CreateCall(freeFn, {tape});
  Value *res = b.CreateInsertValue(PoisonValue::get(pair), dalpha, {0});
  b.CreateRet(b.CreateInsertValue(res, dbeta, {1}));
  return rev;
}

/// Each argument followed by its tangent (floats and pointers); runs
/// before the primal call (it reads C).
Function *MakeForward(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  RuleArgs r;
  Function *have = nullptr;
  Function *fwd = NewForwardRule(f, Type::getVoidTy(c), r, have);
  if (!fwd)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", fwd));
  ArrayRef<Value *> values = r.value, tangents = r.shadow;
  ColGemm g = Canonical(b, values, tangents);
  Value *dalpha = tangents[6], *dbeta = tangents[11];
  // dC = beta dC + dbeta C.
  EmitLoop(b, g.n, [&](IRBuilder<> &jb, Value *j) {
    EmitLoop(jb, g.m, [&](IRBuilder<> &ib, Value *i) {
      Value *column = ib.CreateMul(j, g.ldc);
      Value *at = ib.CreateAdd(i, column);
      Value *p = ib.CreateGEP(elt, g.dc, at);
      Value *old = ib.CreateLoad(elt, p);
      Value *cv = ib.CreateLoad(elt, ib.CreateGEP(elt, g.c, at));
      Value *kept = ib.CreateFMul(g.beta, old);
      Value *moved = ib.CreateFMul(dbeta, cv);
      ib.CreateStore(
          UnlessBetaZero(ib, g.beta, ib.CreateFAdd(kept, moved)), p);
    });
  });
  Value *one = ConstantFP::get(elt, 1.0);
  CallCol(b, f, g.ta, g.tb, g.m, g.n, g.k, dalpha, g.a, g.lda, g.b, g.ldb,
          one, g.dc, g.ldc);
  CallCol(b, f, g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.da, g.lda, g.b, g.ldb,
          one, g.dc, g.ldc);
  CallCol(b, f, g.ta, g.tb, g.m, g.n, g.k, g.alpha, g.a, g.lda, g.db, g.ldb,
          one, g.dc, g.ldc);
  b.CreateRetVoid();
  return fwd;
}

} // namespace

bool IsCblasGemm(const Function &f) { return GemmElement(f) != nullptr; }

ReverseRule CblasGemmReverseRule(Function &f) {
  Type *elt = GemmElement(f);
  ReverseRule r;
  r.source = "the built-in BLAS rules";
  r.augment = MakeAugment(f, elt);
  r.reverse = MakeReverse(f, elt);
  return r;
}

Function *CblasGemmForwardRule(Function &f) {
  return MakeForward(f, GemmElement(f));
}

} // namespace autodiff::blas
