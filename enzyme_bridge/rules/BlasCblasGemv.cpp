//===- enzyme_bridge/rules/BlasCblasGemv.cpp - cblas_dgemv and cblas_sgemv ===//
//
// `void cblas_dgemv(layout, trans, int m, int n, double alpha,
// const double *a, int lda, const double *x, int incx, double beta,
// double *y, int incy)`: y = alpha op(A) x + beta y, A m x n in row-major
// (101) or column-major (102) layout, trans 111 (none), 112 or 113. A
// row-major A is the column-major n x m A^T, so the rules work
// column-major (the transpose flipped) and call cblas_dgemv again:
//   forward (before the call, which it needs y of):
//     dy = beta dy + dbeta y + dalpha op(A) x + alpha (op(dA) x + op(A) dx);
//   reverse, G the adjoint of y: dx += alpha op(A)^T G, dA += alpha G x^T
//     (x G^T for a transposed op), dalpha = G . op(A) x, dbeta = G . y
//     (before the call), then dy = beta G.
// The tape keeps alpha, beta, A, x and y densely. `cblas_sgemv` likewise,
// and Fortran's `dgemv_` / `sgemv_` (every argument by pointer; the
// gradients of alpha and beta go to their pointers' shadows).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/BlasIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff::blas {
namespace {

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112;

/// Fortran's dgemv_ / sgemv_: (trans, m, n, alpha, a, lda, x, incx, beta,
/// y, incy), every argument by pointer, column-major.
bool IsFortran(const Function &f) { return f.getName().ends_with("_"); }

Type *GemvElement(const Function &f) {
  FunctionType *t = f.getFunctionType();
  LLVMContext &c = f.getContext();
  StringRef name = f.getName();
  Type *elt = name == "cblas_dgemv" || name == "dgemv_"   ? Type::getDoubleTy(c)
              : name == "cblas_sgemv" || name == "sgemv_" ? Type::getFloatTy(c)
                                                          : nullptr;
  if (!elt || t->isVarArg() || !t->getReturnType()->isVoidTy())
    return nullptr;
  if (IsFortran(f))
    return t->getNumParams() == 11 &&
                   all_of(t->params(),
                          [](Type *p) { return p->isPointerTy(); })
               ? elt
               : nullptr;
  if (t->getNumParams() != 12)
    return nullptr;
  for (unsigned p = 0; p < 12; ++p) {
    Type *have = t->getParamType(p);
    bool scalar = p == 4 || p == 9, pointer = p == 5 || p == 7 || p == 10;
    if (scalar ? have != elt
               : pointer ? !have->isPointerTy() : !have->isIntegerTy())
      return nullptr;
  }
  return elt;
}

/// A call's operands, column-major: A is rows x cols, op(A) = A when
/// `is_n`; x has xlen elements, y ylen.
struct ColGemv {
  bool fortran;
  Value *trans, *rows, *cols, *alpha, *a, *lda, *x, *incx, *beta, *y, *incy;
  Value *da, *dx, *dy;
  /// Fortran: the shadows (tangents) of alpha's and beta's pointers.
  Value *dalpha_ptr = nullptr, *dbeta_ptr = nullptr;
  Value *is_n, *xlen, *ylen;
};

/// Fortran's operands, in cblas's order (a column-major layout first).
ColGemv FortranCanonical(IRBuilder<> &b, Type *elt, ArrayRef<Value *> values,
                         ArrayRef<Value *> shadows) {
  Type *i64 = b.getInt64Ty();
  auto size = [&](unsigned p) {
    return b.CreateSExtOrTrunc(b.CreateLoad(b.getInt32Ty(), values[p]), i64);
  };
  ColGemv g;
  g.fortran = true;
  Value *trans = b.CreateLoad(b.getInt8Ty(), values[0]);
  Value *lower = b.CreateICmpEQ(trans, b.getInt8('n'));
  Value *upper = b.CreateICmpEQ(trans, b.getInt8('N'));
  g.is_n = b.CreateOr(lower, upper);
  g.trans = b.CreateSelect(g.is_n, b.getInt64(kNoTrans), b.getInt64(kTrans));
  g.rows = size(1);
  g.cols = size(2);
  g.alpha = b.CreateLoad(elt, values[3]);
  g.dalpha_ptr = shadows[3];
  g.a = values[4];
  g.da = shadows[4];
  g.lda = size(5);
  g.x = values[6];
  g.dx = shadows[6];
  g.incx = size(7);
  g.beta = b.CreateLoad(elt, values[8]);
  g.dbeta_ptr = shadows[8];
  g.y = values[9];
  g.dy = shadows[9];
  g.incy = size(10);
  g.xlen = b.CreateSelect(g.is_n, g.cols, g.rows);
  g.ylen = b.CreateSelect(g.is_n, g.rows, g.cols);
  return g;
}

ColGemv Canonical(IRBuilder<> &b, const Function &f, ArrayRef<Value *> values,
                  ArrayRef<Value *> shadows) {
  if (IsFortran(f))
    return FortranCanonical(b, GemvElement(f), values, shadows);
  Type *i64 = b.getInt64Ty();
  auto wide = [&](Value *v) { return b.CreateSExtOrTrunc(v, i64); };
  Value *layout = values[0];
  Value *row = b.CreateICmpEQ(
      layout, ConstantInt::get(layout->getType(), kRowMajor));
  ColGemv g;
  g.fortran = false;
  Value *trans = wide(values[1]);
  Value *given = b.CreateICmpEQ(trans, b.getInt64(kNoTrans));
  Value *flipped = b.CreateNot(given);
  g.is_n = b.CreateSelect(row, flipped, given);
  g.trans = b.CreateSelect(g.is_n, b.getInt64(kNoTrans), b.getInt64(kTrans));
  Value *m = wide(values[2]), *n = wide(values[3]);
  g.rows = b.CreateSelect(row, n, m);
  g.cols = b.CreateSelect(row, m, n);
  g.alpha = values[4];
  g.a = values[5];
  g.lda = wide(values[6]);
  g.x = values[7];
  g.incx = wide(values[8]);
  g.beta = values[9];
  g.y = values[10];
  g.incy = wide(values[11]);
  g.da = shadows[5];
  g.dx = shadows[7];
  g.dy = shadows[10];
  g.xlen = b.CreateSelect(g.is_n, g.cols, g.rows);
  g.ylen = b.CreateSelect(g.is_n, g.rows, g.cols);
  return g;
}

/// cblas_?gemv(ColMajor, ...), or ?gemv_ with its arguments in stack
/// slots. `trans` is kNoTrans or kTrans; alpha and beta are values.
void CallCol(IRBuilder<> &b, Function &f, Value *trans, Value *m, Value *n,
             Value *alpha, Value *a, Value *lda, Value *x, Value *incx,
             Value *beta, Value *y, Value *incy) {
  SmallVector<Value *, 12> args;
  if (IsFortran(f)) {
    Value *isN = b.CreateICmpEQ(trans, b.getInt64(kNoTrans));
    Value *ch = b.CreateSelect(isN, b.getInt8('n'), b.getInt8('t'));
    auto i32 = [&](Value *v) {
      return Slot(b, b.getInt32Ty(), b.CreateSExtOrTrunc(v, b.getInt32Ty()));
    };
    Type *elt = alpha->getType();
    Value *in[11] = {Slot(b, b.getInt8Ty(), ch), i32(m), i32(n),
                     Slot(b, elt, alpha), a, i32(lda), x, i32(incx),
                     Slot(b, elt, beta), y, i32(incy)};
    args.append(std::begin(in), std::end(in));
    b.CreateCall(&f, args);
    return;
  }
  Value *in[12] = {b.getInt64(kColMajor), trans, m, n, alpha, a, lda, x,
                   incx, beta, y, incy};
  for (unsigned p = 0; p < 12; ++p) {
    Type *t = f.getFunctionType()->getParamType(p);
    args.push_back(t->isIntegerTy() ? b.CreateSExtOrTrunc(in[p], t) : in[p]);
  }
  b.CreateCall(&f, args);
}

/// Copies n strided elements densely.
void CopyStrided(IRBuilder<> &b, Type *elt, Value *from, Value *inc, Value *n,
                 Value *to) {
  EmitLoop(b, n, [&](IRBuilder<> &lb, Value *i) {
    Value *v = lb.CreateLoad(elt, Element(lb, elt, from, i, inc, n));
    lb.CreateStore(v, lb.CreateGEP(elt, to, i));
  });
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
  ColGemv g = Canonical(b, f, r.value, r.shadow);
  // Tape: alpha, beta, A, x, y (dense); 8 bytes an element.
  Value *aElems = b.CreateMul(g.rows, g.cols);
  Value *xy = b.CreateAdd(g.xlen, g.ylen);
  Value *all = b.CreateAdd(aElems, xy);
  Value *elems = b.CreateAdd(all, b.getInt64(2));
  Value *tape = b.CreateCall(
      m.getOrInsertFunction("malloc", b.getPtrTy(), b.getInt64Ty()),
      {b.CreateMul(elems, b.getInt64(8))}, "tape");
  b.CreateStore(g.alpha, tape);
  b.CreateStore(g.beta, b.CreateGEP(elt, tape, b.getInt64(1)));
  Value *ta = b.CreateGEP(elt, tape, b.getInt64(2));
  Value *tx = b.CreateGEP(elt, ta, aElems);
  Value *ty = b.CreateGEP(elt, tx, g.xlen);
  CopyDense(b, elt, g.a, g.lda, g.rows, g.cols, ta);
  CopyStrided(b, elt, g.x, g.incx, g.xlen, tx);
  CopyStrided(b, elt, g.y, g.incy, g.ylen, ty);
  b.CreateCall(&f, r.value);
  b.CreateRet(tape);
  return aug;
}

Function *MakeReverse(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  Module &m = *f.getParent();
  Type *pair = StructType::get(c, {elt, elt});
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_",
                          IsFortran(f) ? Type::getVoidTy(c) : pair,
                          {PointerType::getUnqual(c)}, have);
  if (!rev)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs r = SplitArgs(*rev, f);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  ColGemv g = Canonical(b, f, r.value, r.shadow);
  Value *alpha = b.CreateLoad(elt, tape);
  Value *beta = b.CreateLoad(elt, b.CreateGEP(elt, tape, b.getInt64(1)));
  Value *ta = b.CreateGEP(elt, tape, b.getInt64(2));
  Value *aElems = b.CreateMul(g.rows, g.cols);
  Value *tx = b.CreateGEP(elt, ta, aElems);
  Value *ty = b.CreateGEP(elt, tx, g.xlen);
  Value *ldTa = AtLeastOne(b, g.rows);
  Value *one = ConstantFP::get(elt, 1.0), *zero = ConstantFP::get(elt, 0.0);
  // dx += alpha op(A)^T G.
  Value *flip = b.CreateSelect(g.is_n, b.getInt64(kTrans),
                               b.getInt64(kNoTrans));
  CallCol(b, f, flip, g.rows, g.cols, alpha, ta, ldTa, g.dy, g.incy, one,
          g.dx, g.incx);
  // dA += alpha G x^T ('n') or alpha x G^T ('t').
  EmitLoop(b, g.cols, [&](IRBuilder<> &jb, Value *j) {
    EmitLoop(jb, g.rows, [&](IRBuilder<> &ib, Value *i) {
      Value *yi = ib.CreateSelect(g.is_n, i, j);
      Value *xi = ib.CreateSelect(g.is_n, j, i);
      Value *gv = ib.CreateLoad(elt, Element(ib, elt, g.dy, yi, g.incy, g.ylen));
      Value *xv = ib.CreateLoad(elt, ib.CreateGEP(elt, tx, xi));
      Value *scaled = ib.CreateFMul(alpha, gv);
      Value *add = ib.CreateFMul(scaled, xv);
      Value *column = ib.CreateMul(j, g.lda);
      Value *p = ib.CreateGEP(elt, g.da, ib.CreateAdd(i, column));
      Value *old = ib.CreateLoad(elt, p);
      ib.CreateStore(ib.CreateFAdd(old, add), p);
    });
  });
  // dalpha = G . op(A) x (made again), dbeta = G . y before the call.
  Value *bytes = b.CreateMul(AtLeastOne(b, g.ylen), b.getInt64(8));
  Value *product = b.CreateCall(
      m.getOrInsertFunction("malloc", b.getPtrTy(), b.getInt64Ty()), {bytes},
      "product");
  CallCol(b, f, g.trans, g.rows, g.cols, one, ta, ldTa, tx, b.getInt64(1),
          zero, product, b.getInt64(1));
  AllocaInst *dalpha = b.CreateAlloca(elt), *dbeta = b.CreateAlloca(elt);
  b.CreateStore(zero, dalpha);
  b.CreateStore(zero, dbeta);
  EmitLoop(b, g.ylen, [&](IRBuilder<> &lb, Value *k) {
    Value *p = Element(lb, elt, g.dy, k, g.incy, g.ylen);
    Value *gv = lb.CreateLoad(elt, p);
    Value *pv = lb.CreateLoad(elt, lb.CreateGEP(elt, product, k));
    Value *yv = lb.CreateLoad(elt, lb.CreateGEP(elt, ty, k));
    Value *da = lb.CreateLoad(elt, dalpha);
    Value *ta2 = lb.CreateFMul(gv, pv);
    lb.CreateStore(lb.CreateFAdd(da, ta2), dalpha);
    Value *db = lb.CreateLoad(elt, dbeta);
    Value *tb2 = UnlessBetaZero(lb, beta, lb.CreateFMul(gv, yv));
    lb.CreateStore(lb.CreateFAdd(db, tb2), dbeta);
    lb.CreateStore(UnlessBetaZero(lb, beta, lb.CreateFMul(beta, gv)),
                   p); // dy = beta G
  });
  FunctionCallee freeFn =
      m.getOrInsertFunction("free", b.getVoidTy(), b.getPtrTy());
  b.CreateCall(freeFn, {product});
  b.CreateCall(freeFn, {tape});
  Value *da = b.CreateLoad(elt, dalpha);
  Value *db = b.CreateLoad(elt, dbeta);
  if (g.fortran) { // Into the shadows of alpha's and beta's pointers.
    Value *oldA = b.CreateLoad(elt, g.dalpha_ptr);
    b.CreateStore(b.CreateFAdd(oldA, da), g.dalpha_ptr);
    Value *oldB = b.CreateLoad(elt, g.dbeta_ptr);
    b.CreateStore(b.CreateFAdd(oldB, db), g.dbeta_ptr);
    b.CreateRetVoid();
    return rev;
  }
  Value *res = b.CreateInsertValue(PoisonValue::get(pair), da, {0});
  b.CreateRet(b.CreateInsertValue(res, db, {1}));
  return rev;
}

/// Each argument followed by its tangent (floats and pointers); runs
/// before the call (it reads y).
Function *MakeForward(Function &f, Type *elt) {
  LLVMContext &c = f.getContext();
  RuleArgs r;
  Function *have = nullptr;
  Function *fwd = NewForwardRule(f, Type::getVoidTy(c), r, have);
  if (!fwd)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", fwd));
  ArrayRef<Value *> values = r.value, tangents = r.shadow;
  ColGemv g = Canonical(b, f, values, tangents);
  Value *dalpha = g.fortran ? LoadOrZero(b, elt, g.dalpha_ptr) : tangents[4];
  Value *dbeta = g.fortran ? LoadOrZero(b, elt, g.dbeta_ptr) : tangents[9];
  // dy = beta dy + dbeta y.
  EmitLoop(b, g.ylen, [&](IRBuilder<> &lb, Value *k) {
    Value *p = Element(lb, elt, g.dy, k, g.incy, g.ylen);
    Value *old = lb.CreateLoad(elt, p);
    Value *yv = lb.CreateLoad(elt, Element(lb, elt, g.y, k, g.incy, g.ylen));
    Value *kept = lb.CreateFMul(g.beta, old);
    Value *moved = lb.CreateFMul(dbeta, yv);
    lb.CreateStore(UnlessBetaZero(lb, g.beta, lb.CreateFAdd(kept, moved)), p);
  });
  Value *one = ConstantFP::get(elt, 1.0);
  CallCol(b, f, g.trans, g.rows, g.cols, dalpha, g.a, g.lda, g.x, g.incx, one,
          g.dy, g.incy);
  CallCol(b, f, g.trans, g.rows, g.cols, g.alpha, g.da, g.lda, g.x, g.incx,
          one, g.dy, g.incy);
  CallCol(b, f, g.trans, g.rows, g.cols, g.alpha, g.a, g.lda, g.dx, g.incx,
          one, g.dy, g.incy);
  b.CreateRetVoid();
  return fwd;
}

} // namespace

bool IsCblasGemv(const Function &f) { return GemvElement(f) != nullptr; }

ReverseRule CblasGemvReverseRule(Function &f) {
  Type *elt = GemvElement(f);
  ReverseRule r;
  r.source = "the built-in BLAS rules";
  r.augment = MakeAugment(f, elt);
  r.reverse = MakeReverse(f, elt);
  return r;
}

Function *CblasGemvForwardRule(Function &f) {
  return MakeForward(f, GemvElement(f));
}

} // namespace autodiff::blas
