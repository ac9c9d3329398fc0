//===- enzyme_bridge/rules/BlasGemm.cpp - gemm of Numba and Fortran -------===//
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
// alpha and beta come through pointers; their shadows get
//   dalpha += G . op(A) op(B) (the product made again), dbeta += G . C,
// and forward mode adds dalpha op(A) op(B) + dbeta C (Numba passes
// constants: the contributions go to the sink). The augmented rule keeps
// alpha, beta, A, B and C (dense) on the tape: the caller may overwrite
// them before the reverse sweep. The forward rule runs before the call
// (it reads C).
//
// Fortran's `dgemm_` / `sgemm_` (every argument by pointer, a void
// result) are the same operation and get the same rules.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/BlasIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff::blas {
namespace {

/// Numba's helper takes the element kind, characters and sizes by value;
/// Fortran's dgemm_ / sgemm_ take everything by pointer.
enum class Dialect { Numba, Fortran };

Dialect DialectOf(const Function &f) {
  return f.getName().starts_with("numba_") ? Dialect::Numba
                                           : Dialect::Fortran;
}

/// The operands of a call, as the rules read them.
struct Gemm {
  Dialect dialect;
  Value *kind, *ta, *tb, *m, *n, *k, *alpha, *a, *lda, *b, *ldb, *beta, *c,
      *ldc;
  Value *da, *db, *dc, *dalpha, *dbeta;
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

/// Fortran's parameter index for Numba's `p` (Numba's 0 is the kind).
unsigned Param(Dialect d, unsigned p) {
  return d == Dialect::Numba ? p : p - 1;
}

Gemm Operands(IRBuilder<> &b, const RuleArgs &r, const Function &f) {
  Gemm g;
  g.dialect = DialectOf(f);
  Type *i64 = b.getInt64Ty();
  bool fortran = g.dialect == Dialect::Fortran;
  auto at = [&](unsigned p) { return r.value[Param(g.dialect, p)]; };
  // Values are named before use throughout: the IR must not depend on the
  // order in which the C++ compiler evaluates arguments.
  auto character = [&](unsigned p) -> Value * {
    return fortran ? b.CreateLoad(b.getInt8Ty(), at(p)) : at(p);
  };
  auto size = [&](unsigned p) {
    Value *v = fortran ? b.CreateLoad(b.getInt32Ty(), at(p)) : at(p);
    return b.CreateSExtOrTrunc(v, i64);
  };
  g.kind = fortran ? b.getInt8(f.getName().starts_with("d") ? 'd' : 's')
                   : r.value[0];
  g.ta = character(1);
  g.tb = character(2);
  g.m = size(3);
  g.n = size(4);
  g.k = size(5);
  g.alpha = at(6);
  g.a = at(7);
  g.lda = size(8);
  g.b = at(9);
  g.ldb = size(10);
  g.beta = at(11);
  g.c = at(12);
  g.ldc = size(13);
  g.dalpha = r.shadow[Param(g.dialect, 6)];
  g.da = r.shadow[Param(g.dialect, 7)];
  g.db = r.shadow[Param(g.dialect, 9)];
  g.dbeta = r.shadow[Param(g.dialect, 11)];
  g.dc = r.shadow[Param(g.dialect, 12)];
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

void CallGemm(IRBuilder<> &b, Function &f, const Gemm &op, const GemmCall &g) {
  Value *in[14] = {op.kind, g.ta,  g.tb, g.m,   g.n,    g.k, g.alpha,
                   g.a,     g.lda, g.b,  g.ldb, g.beta, g.c, g.ldc};
  SmallVector<Value *, 14> args;
  if (op.dialect == Dialect::Numba) {
    for (unsigned p = 0; p < 14; ++p) {
      Type *t = f.getFunctionType()->getParamType(p);
      args.push_back(t->isPointerTy() ? in[p]
                                      : b.CreateSExtOrTrunc(in[p], t));
    }
  } else {
    // Fortran: characters and sizes from stack slots.
    for (unsigned p = 1; p < 14; ++p) {
      bool matrixOrScalar = p == 6 || p == 7 || p == 9 || p == 11 || p == 12;
      if (matrixOrScalar) {
        args.push_back(in[p]);
        continue;
      }
      Type *t = p <= 2 ? b.getInt8Ty() : b.getInt32Ty();
      args.push_back(Slot(b, t, b.CreateSExtOrTrunc(in[p], t)));
    }
  }
  b.CreateCall(&f, args);
}

/// *p += v.
void AddInto(IRBuilder<> &b, Type *elt, Value *p, Value *v) {
  Value *old = b.CreateLoad(elt, p);
  b.CreateStore(b.CreateFAdd(old, v), p);
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
  Type *rt = f.getReturnType();
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_",
                          rt->isVoidTy() ? ptr : StructType::get(c, {ptr, rt}),
                          {}, have);
  if (!aug)
    return have;
  Module &m = *f.getParent();
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs r = SplitArgs(*aug, f);
  Gemm g = Operands(b, r, f);
  // Tape: alpha, beta, A, B, C dense; 8 bytes an element.
  Value *aElems = b.CreateMul(g.a_rows, g.a_cols);
  Value *bElems = b.CreateMul(g.b_rows, g.b_cols);
  Value *cElems = b.CreateMul(g.m, g.n);
  Value *ab = b.CreateAdd(aElems, bElems);
  Value *matrices = b.CreateAdd(ab, cElems);
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
    Value *tc = eb.CreateGEP(elt, tb, bElems);
    CopyDense(eb, elt, g.a, g.lda, g.a_rows, g.a_cols, ta);
    CopyDense(eb, elt, g.b, g.ldb, g.b_rows, g.b_cols, tb);
    CopyDense(eb, elt, g.c, g.ldc, g.m, g.n, tc);
  });
  CallInst *primal = b.CreateCall(&f, r.value);
  if (rt->isVoidTy()) {
    b.CreateRet(tape);
    return aug;
  }
  Value *res = b.CreateInsertValue(PoisonValue::get(aug->getReturnType()),
                                   tape, {0});
  b.CreateRet(b.CreateInsertValue(res, primal, {1}));
  return aug;
}

/// The reverse sweep's products, for one element type: dA, dB, dalpha and
/// dbeta from the adjoint G of C and the taped A, B and C, then
/// dC = beta G.
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
    CallGemm(b, f, g, call);
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
    CallGemm(b, f, g, call);
  }
  // dalpha += G . op(A) op(B), the product made again in a scratch matrix;
  // dbeta += G . C before the call.
  Module &m = *f.getParent();
  Value *cElems = b.CreateMul(g.m, g.n);
  Value *bytes = b.CreateMul(AtLeastOne(b, cElems), b.getInt64(8));
  Value *product = b.CreateCall(
      m.getOrInsertFunction("malloc", b.getPtrTy(), b.getInt64Ty()), {bytes},
      "product");
  Value *ldM = AtLeastOne(b, g.m);
  Value *zeroP = Slot(b, elt, ConstantFP::get(elt, 0.0));
  GemmCall again{g.ta, g.tb, g.m,   g.n,   g.k,     oneP, ta,
                 ldTa, tb,   ldTb,  zeroP, product, ldM};
  CallGemm(b, f, g, again);
  Value *tc = b.CreateGEP(elt, tb, b.CreateMul(g.b_rows, g.b_cols));
  Value *dalpha = MatrixDot(b, elt, g.dc, g.ldc, product, ldM, g.m, g.n);
  Value *dbeta = UnlessBetaZero(
      b, beta, MatrixDot(b, elt, g.dc, g.ldc, tc, ldM, g.m, g.n));
  AddInto(b, elt, g.dalpha, dalpha);
  AddInto(b, elt, g.dbeta, dbeta);
  b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), b.getPtrTy()),
               {product});
  // dC = beta G.
  EmitLoop(b, g.n, [&](IRBuilder<> &jb, Value *j) {
    EmitLoop(jb, g.m, [&](IRBuilder<> &ib, Value *i) {
      Value *column = ib.CreateMul(j, g.ldc);
      Value *p = ib.CreateGEP(elt, g.dc, ib.CreateAdd(i, column));
      Value *v = ib.CreateLoad(elt, p);
      ib.CreateStore(UnlessBetaZero(ib, beta, ib.CreateFMul(beta, v)), p);
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
  Gemm g = Operands(b, r, f);
  ForElementType(b, nullptr, g.kind, "numba_xxgemm",
                 [&](IRBuilder<> &eb, Type *elt) {
    EmitReverseProducts(eb, f, g, elt, tape);
  });
  b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), ptr), {tape});
  b.CreateRetVoid();
  return rev;
}

} // namespace

/// *p, or 0 when p is null (a tangent forward mode did not give).
Value *LoadOrZero(IRBuilder<> &b, Type *elt, Value *p) {
  Function *f = b.GetInsertBlock()->getParent();
  LLVMContext &c = f->getContext();
  BasicBlock *from = b.GetInsertBlock();
  auto *load = BasicBlock::Create(c, "load", f);
  auto *join = BasicBlock::Create(c, "loaded", f);
  b.CreateCondBr(b.CreateIsNull(p), join, load);
  b.SetInsertPoint(load);
  Value *v = b.CreateLoad(elt, p);
  b.CreateBr(join);
  b.SetInsertPoint(join);
  PHINode *phi = b.CreatePHI(elt, 2);
  phi->addIncoming(ConstantFP::get(elt, 0.0), from);
  phi->addIncoming(v, load);
  return phi;
}

/// Sum over the m x n matrices of x[i + j ldx] * y[i + j ldy].
Value *MatrixDot(IRBuilder<> &b, Type *elt, Value *x, Value *ldx, Value *y,
                 Value *ldy, Value *m, Value *n) {
  AllocaInst *acc = b.CreateAlloca(elt);
  b.CreateStore(ConstantFP::get(elt, 0.0), acc);
  EmitLoop(b, n, [&](IRBuilder<> &jb, Value *j) {
    EmitLoop(jb, m, [&](IRBuilder<> &ib, Value *i) {
      Value *cx = ib.CreateMul(j, ldx);
      Value *xv = ib.CreateLoad(elt, ib.CreateGEP(elt, x, ib.CreateAdd(i, cx)));
      Value *cy = ib.CreateMul(j, ldy);
      Value *yv = ib.CreateLoad(elt, ib.CreateGEP(elt, y, ib.CreateAdd(i, cy)));
      Value *term = ib.CreateFMul(xv, yv);
      Value *sum = ib.CreateLoad(elt, acc);
      ib.CreateStore(ib.CreateFAdd(sum, term), acc);
    });
  });
  return b.CreateLoad(elt, acc);
}

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

Value *UnlessBetaZero(IRBuilder<> &b, Value *beta, Value *v) {
  Value *zero = ConstantFP::get(v->getType(), 0.0);
  return b.CreateSelect(b.CreateFCmpOEQ(beta, zero), zero, v);
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
  if (t->isVarArg())
    return false;
  if (f.getName() == "dgemm_" || f.getName() == "sgemm_") {
    // Fortran: 13 pointers, no result.
    return t->getNumParams() == 13 && t->getReturnType()->isVoidTy() &&
           all_of(t->params(), [](Type *p) { return p->isPointerTy(); });
  }
  if (f.getName() != "numba_xxgemm" || t->getNumParams() != 14 ||
      !t->getReturnType()->isIntegerTy())
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
  // The tangent alone, computed before the call (it reads C), which stays
  // and runs once, also with enzyme_width > 1 when this rule is called
  // once per lane (beta C makes running it twice wrong).
  Function *fwd = NewRule(f, "__autodiff_blas_forward_", rt, {}, have);
  if (!fwd)
    return have;
  IRBuilder<> b(BasicBlock::Create(f.getContext(), "entry", fwd));
  RuleArgs r = SplitArgs(*fwd, f);
  Gemm g = Operands(b, r, f);
  ForElementType(b, nullptr, g.kind, "numba_xxgemm",
                 [&](IRBuilder<> &eb, Type *elt) {
    Value *beta = eb.CreateLoad(elt, g.beta);
    Value *dalpha = LoadOrZero(eb, elt, g.dalpha);
    Value *dbeta = LoadOrZero(eb, elt, g.dbeta);
    // dC = beta dC + dbeta C.
    EmitLoop(eb, g.n, [&](IRBuilder<> &jb, Value *j) {
      EmitLoop(jb, g.m, [&](IRBuilder<> &ib, Value *i) {
        Value *column = ib.CreateMul(j, g.ldc);
        Value *at = ib.CreateAdd(i, column);
        Value *p = ib.CreateGEP(elt, g.dc, at);
        Value *old = ib.CreateLoad(elt, p);
        Value *cv = ib.CreateLoad(elt, ib.CreateGEP(elt, g.c, at));
        Value *kept = ib.CreateFMul(beta, old);
        Value *moved = ib.CreateFMul(dbeta, cv);
        ib.CreateStore(UnlessBetaZero(ib, beta, ib.CreateFAdd(kept, moved)),
                       p);
      });
    });
    // dC += dalpha op(A) op(B) + alpha op(dA) op(B) + alpha op(A) op(dB).
    Value *oneP = Slot(eb, elt, ConstantFP::get(elt, 1.0));
    Value *dalphaP = Slot(eb, elt, dalpha);
    GemmCall call{g.ta,  g.tb, g.m,   g.n,  g.k,  dalphaP, g.a,
                  g.lda, g.b,  g.ldb, oneP, g.dc, g.ldc};
    CallGemm(eb, f, g, call);
    call.alpha = g.alpha;
    call.a = g.da;
    CallGemm(eb, f, g, call);
    call.a = g.a;
    call.b = g.db;
    CallGemm(eb, f, g, call);
  });
  if (rt->isVoidTy())
    b.CreateRetVoid();
  else
    b.CreateRet(Constant::getNullValue(rt));
  return fwd;
}

} // namespace autodiff::blas
