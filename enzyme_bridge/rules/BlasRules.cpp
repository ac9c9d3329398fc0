//===- enzyme_bridge/rules/BlasRules.cpp - Built-in BLAS rules ------------===//
//
// The rules are IR functions in the custom-rule convention (each pointer
// parameter followed by its shadow or tangent):
//   forward: calls the BLAS function and returns {result, dx . y + x . dy}
//            (Numba's helper writes the tangent through its result's
//            tangent pointer and returns {status, 0});
//   augment: calls the BLAS function, copies the n elements of x and y it
//            read into a heap tape (the caller may overwrite them before
//            the reverse sweep), returns {tape, result};
//   reverse: d = the differential return (cblas, Fortran) or the adjoint
//            in the result's shadow, which it consumes (Numba's helper);
//            dx[i] += d * y[i], dy[i] += d * x[i] with the BLAS strides
//            (a negative increment walks from the end), frees the tape.
// Numba's helper picks its element type at run time from `kind`: 'd' and
// 's' are done, 'c' and 'z' (complex) stop the program with a message (a
// constant complex kind is a diagnostic at the call, ReverseRuleCalls.cpp).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/BlasRules.h"
#include "enzyme_bridge/RuntimeAbort.h"
#include "enzyme_bridge/rules/BlasIR.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <cstring>
#include <functional>

using namespace llvm;

namespace autodiff {
namespace {

enum class DotForm { Cblas, Fortran, Numba };

struct DotSignature {
  DotForm form;
  Type *elt; ///< Null for Numba's helper (chosen by `kind` at run time).
};

std::optional<DotSignature> Classify(const Function &f) {
  StringRef name = f.getName();
  FunctionType *t = f.getFunctionType();
  LLVMContext &c = f.getContext();
  auto params = [&](unsigned n, auto pred) {
    if (t->getNumParams() != n || t->isVarArg())
      return false;
    for (unsigned k = 0; k < n; ++k)
      if (!pred(k, t->getParamType(k)))
        return false;
    return true;
  };
  for (Type *elt : {Type::getDoubleTy(c), Type::getFloatTy(c)}) {
    std::string p = elt->isDoubleTy() ? "d" : "s";
    if (name == "cblas_" + p + "dot" && t->getReturnType() == elt &&
        params(5, [](unsigned k, Type *x) {
          return k % 2 ? x->isPointerTy() : x->isIntegerTy();
        }))
      return DotSignature{DotForm::Cblas, elt};
    if ((name == p + "dot_" || name == p + "dot") &&
        t->getReturnType() == elt &&
        params(5, [](unsigned, Type *x) { return x->isPointerTy(); }))
      return DotSignature{DotForm::Fortran, elt};
  }
  if (name == "numba_xxdot" && t->getReturnType()->isIntegerTy() &&
      params(6, [](unsigned k, Type *x) {
        return k < 3 ? x->isIntegerTy() : x->isPointerTy();
      }))
    return DotSignature{DotForm::Numba, nullptr};
  return std::nullopt;
}

} // namespace

namespace blas {

/// Element i of a strided BLAS vector: from the end when inc < 0.
Value *Element(IRBuilder<> &b, Type *elt, Value *base, Value *i, Value *inc,
               Value *n) {
  // Each value named before use: the IR must not depend on the order in
  // which the C++ compiler evaluates arguments (scripts/check-compilers.sh).
  Value *zero = b.getInt64(0);
  Value *last = b.CreateSub(n, b.getInt64(1));
  Value *back = b.CreateNeg(inc);
  Value *negStart = b.CreateMul(last, back);
  Value *negative = b.CreateICmpSLT(inc, zero);
  Value *start = b.CreateSelect(negative, negStart, zero);
  Value *step = b.CreateMul(i, inc);
  return b.CreateGEP(elt, base, b.CreateAdd(start, step));
}

/// for (i = 0; i < n; ++i) body(i); leaves `b` after the loop.
void EmitLoop(IRBuilder<> &b, Value *n,
              const std::function<void(IRBuilder<> &, Value *)> &body) {
  Function *f = b.GetInsertBlock()->getParent();
  LLVMContext &c = f->getContext();
  BasicBlock *pre = b.GetInsertBlock();
  auto *loop = BasicBlock::Create(c, "loop", f);
  auto *exit = BasicBlock::Create(c, "loop.end", f);
  b.CreateCondBr(b.CreateICmpSGT(n, b.getInt64(0)), loop, exit);
  b.SetInsertPoint(loop);
  PHINode *i = b.CreatePHI(b.getInt64Ty(), 2, "i");
  i->addIncoming(b.getInt64(0), pre);
  body(b, i);
  Value *next = b.CreateAdd(i, b.getInt64(1));
  i->addIncoming(next, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpSLT(next, n), loop, exit);
  b.SetInsertPoint(exit);
}

/// Runs `per_type` for Numba's helper's element types ('d', 's') in a
/// switch on `kind`; other kinds stop the program. Fixed types run once.
void ForElementType(IRBuilder<> &b, Type *fixed, Value *kind,
                    const char *helper,
                    const std::function<void(IRBuilder<> &, Type *)> &per_type) {
  if (fixed) {
    per_type(b, fixed);
    return;
  }
  Function *f = b.GetInsertBlock()->getParent();
  Module &m = *f->getParent();
  LLVMContext &c = f->getContext();
  auto *dbl = BasicBlock::Create(c, "kind.d", f);
  auto *flt = BasicBlock::Create(c, "kind.s", f);
  auto *other = BasicBlock::Create(c, "kind.complex", f);
  auto *done = BasicBlock::Create(c, "kind.done", f);
  SwitchInst *sw = b.CreateSwitch(kind, other, 2);
  sw->addCase(cast<ConstantInt>(ConstantInt::get(kind->getType(), 'd')), dbl);
  sw->addCase(cast<ConstantInt>(ConstantInt::get(kind->getType(), 's')), flt);
  for (auto [bb, t] : {std::pair<BasicBlock *, Type *>{dbl, b.getDoubleTy()},
                       {flt, b.getFloatTy()}}) {
    b.SetInsertPoint(bb);
    per_type(b, t);
    b.CreateBr(done);
  }
  b.SetInsertPoint(other);
  std::string msg = std::string("autodiff: the derivative of ") + helper +
                    " for complex kinds ('c', 'z') is not implemented\n";
  EmitRuntimeAbort(b, msg);
  b.SetInsertPoint(done);
}

/// A new internal rule function `prefix + f's name` taking f's parameters,
/// each pointer followed by its shadow, then `extra`; null when the module
/// already has it (`have` is set to it then).
Function *NewRule(Function &f, const char *prefix, Type *rt,
                  ArrayRef<Type *> extra, Function *&have) {
  Module &m = *f.getParent();
  std::string name = prefix + f.getName().str();
  have = m.getFunction(name);
  if (have)
    return nullptr;
  SmallVector<Type *, 12> params;
  for (Type *t : f.getFunctionType()->params()) {
    params.push_back(t);
    if (t->isPointerTy())
      params.push_back(t);
  }
  params.append(extra.begin(), extra.end());
  return Function::Create(FunctionType::get(rt, params, false),
                          GlobalValue::InternalLinkage, name, &m);
}

Function *NewForwardRule(Function &f, Type *rt, RuleArgs &args,
                         Function *&have) {
  Module &m = *f.getParent();
  std::string name = "__autodiff_blas_forward_" + f.getName().str();
  have = m.getFunction(name);
  if (have)
    return nullptr;
  SmallVector<Type *, 20> params;
  for (Type *t : f.getFunctionType()->params()) {
    params.push_back(t);
    if (!t->isIntegerTy())
      params.push_back(t);
  }
  Function *fwd = Function::Create(FunctionType::get(rt, params, false),
                                   GlobalValue::InternalLinkage, name, &m);
  unsigned pos = 0;
  for (Type *t : f.getFunctionType()->params()) {
    args.value.push_back(fwd->getArg(pos++));
    args.shadow.push_back(t->isIntegerTy() ? nullptr : fwd->getArg(pos++));
  }
  return fwd;
}

RuleArgs SplitArgs(Function &rule, const Function &f) {
  RuleArgs a;
  unsigned pos = 0;
  for (unsigned k = 0; k < f.arg_size(); ++k) {
    a.value.push_back(rule.getArg(pos++));
    a.shadow.push_back(f.getFunctionType()->getParamType(k)->isPointerTy()
                           ? rule.getArg(pos++)
                           : nullptr);
  }
  return a;
}

} // namespace blas

namespace {
using namespace blas;

/// n, x, incx, y, incy of a dot product, as i64 and pointers.
struct DotOperands {
  Value *n, *x, *incx, *y, *incy;
  Value *dx, *dy;
};

DotOperands Operands(IRBuilder<> &b, DotForm form, const RuleArgs &a) {
  Type *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
  auto wide = [&](Value *v) { return b.CreateSExtOrTrunc(v, i64); };
  switch (form) {
  case DotForm::Cblas:
    return {wide(a.value[0]), a.value[1], wide(a.value[2]),
            a.value[3],       wide(a.value[4]), a.shadow[1], a.shadow[3]};
  case DotForm::Fortran:
    return {wide(b.CreateLoad(i32, a.value[0])), a.value[1],
            wide(b.CreateLoad(i32, a.value[2])), a.value[3],
            wide(b.CreateLoad(i32, a.value[4])), a.shadow[1], a.shadow[3]};
  case DotForm::Numba:
    return {wide(a.value[2]), a.value[3], b.getInt64(1), a.value[4],
            b.getInt64(1),    a.shadow[3], a.shadow[4]};
  }
  return {};
}

Function *MakeAugment(Function &f, const DotSignature &sig) {
  Module &m = *f.getParent();
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c);
  auto *rt = StructType::get(c, {ptr, f.getReturnType()});
  Function *have = nullptr;
  Function *aug = NewRule(f, "__autodiff_blas_augment_", rt, {}, have);
  if (!aug)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", aug));
  RuleArgs a = SplitArgs(*aug, f);
  CallInst *primal = b.CreateCall(&f, a.value);
  DotOperands d = Operands(b, sig.form, a);
  Value *kind = sig.elt ? nullptr : a.value[0];
  // Room for n elements of x and of y at the widest type.
  Value *positive = b.CreateICmpSGT(d.n, b.getInt64(0));
  Value *count = b.CreateSelect(positive, d.n, b.getInt64(1));
  Value *bytes = b.CreateMul(count, b.getInt64(16));
  Value *tape = b.CreateCall(m.getOrInsertFunction("malloc", ptr,
                                                   b.getInt64Ty()),
                             {bytes}, "tape");
  ForElementType(b, sig.elt, kind, "numba_xxdot", [&](IRBuilder<> &ib, Type *elt) {
    Value *ty = ib.CreateGEP(elt, tape, d.n);
    EmitLoop(ib, d.n, [&](IRBuilder<> &lb, Value *i) {
      Value *x = lb.CreateLoad(elt, Element(lb, elt, d.x, i, d.incx, d.n));
      Value *tx = lb.CreateGEP(elt, tape, i);
      lb.CreateStore(x, tx);
      Value *y = lb.CreateLoad(elt, Element(lb, elt, d.y, i, d.incy, d.n));
      Value *typ = lb.CreateGEP(elt, ty, i);
      lb.CreateStore(y, typ);
    });
  });
  Value *r = b.CreateInsertValue(PoisonValue::get(rt), tape, {0});
  b.CreateRet(b.CreateInsertValue(r, primal, {1}));
  return aug;
}

Function *MakeReverse(Function &f, const DotSignature &sig) {
  Module &m = *f.getParent();
  LLVMContext &c = m.getContext();
  Type *ptr = PointerType::getUnqual(c);
  bool dret = sig.form != DotForm::Numba;
  SmallVector<Type *, 2> extra;
  if (dret)
    extra.push_back(f.getReturnType());
  extra.push_back(ptr);
  Function *have = nullptr;
  Function *rev = NewRule(f, "__autodiff_blas_reverse_", Type::getVoidTy(c),
                          extra, have);
  if (!rev)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", rev));
  RuleArgs a = SplitArgs(*rev, f);
  Value *tape = rev->getArg(rev->arg_size() - 1);
  DotOperands d = Operands(b, sig.form, a);
  Value *kind = sig.elt ? nullptr : a.value[0];
  ForElementType(b, sig.elt, kind, "numba_xxdot", [&](IRBuilder<> &ib, Type *elt) {
    Value *seed;
    if (dret) {
      seed = rev->getArg(rev->arg_size() - 2);
    } else {
      Value *dout = a.shadow[5];
      seed = ib.CreateLoad(elt, dout, "seed");
      ib.CreateStore(ConstantFP::get(elt, 0.0), dout);
    }
    Value *ty = ib.CreateGEP(elt, tape, d.n);
    EmitLoop(ib, d.n, [&](IRBuilder<> &lb, Value *i) {
      Value *xi = lb.CreateLoad(elt, lb.CreateGEP(elt, tape, i));
      Value *yi = lb.CreateLoad(elt, lb.CreateGEP(elt, ty, i));
      Value *px = Element(lb, elt, d.dx, i, d.incx, d.n);
      Value *py = Element(lb, elt, d.dy, i, d.incy, d.n);
      Value *oldx = lb.CreateLoad(elt, px);
      Value *addx = lb.CreateFMul(seed, yi);
      lb.CreateStore(lb.CreateFAdd(oldx, addx), px);
      Value *oldy = lb.CreateLoad(elt, py);
      Value *addy = lb.CreateFMul(seed, xi);
      lb.CreateStore(lb.CreateFAdd(oldy, addy), py);
    });
  });
  b.CreateCall(m.getOrInsertFunction("free", b.getVoidTy(), ptr), {tape});
  b.CreateRetVoid();
  return rev;
}

/// The forward rule: each pointer followed by its tangent; returns
/// {primal, tangent} (Numba's helper: {status, 0}, the tangent of the
/// result written through the result's tangent pointer).
Function *MakeForward(Function &f, const DotSignature &sig) {
  LLVMContext &c = f.getContext();
  Type *rt = f.getReturnType();
  auto *pair = StructType::get(c, {rt, rt});
  Function *have = nullptr;
  Function *fwd = NewRule(f, "__autodiff_blas_forward_", pair, {}, have);
  if (!fwd)
    return have;
  IRBuilder<> b(BasicBlock::Create(c, "entry", fwd));
  RuleArgs a = SplitArgs(*fwd, f);
  CallInst *primal = b.CreateCall(&f, a.value);
  DotOperands d = Operands(b, sig.form, a);
  Value *kind = sig.elt ? nullptr : a.value[0];
  AllocaInst *acc = sig.elt ? b.CreateAlloca(sig.elt) : nullptr;
  ForElementType(b, sig.elt, kind, "numba_xxdot", [&](IRBuilder<> &ib, Type *elt) {
    Value *slot = acc ? static_cast<Value *>(acc) : a.shadow[5];
    ib.CreateStore(ConstantFP::get(elt, 0.0), slot);
    EmitLoop(ib, d.n, [&](IRBuilder<> &lb, Value *i) {
      Value *x = lb.CreateLoad(elt, Element(lb, elt, d.x, i, d.incx, d.n));
      Value *y = lb.CreateLoad(elt, Element(lb, elt, d.y, i, d.incy, d.n));
      Value *dx = lb.CreateLoad(elt, Element(lb, elt, d.dx, i, d.incx, d.n));
      Value *dy = lb.CreateLoad(elt, Element(lb, elt, d.dy, i, d.incy, d.n));
      Value *left = lb.CreateFMul(dx, y);
      Value *right = lb.CreateFMul(x, dy);
      Value *term = lb.CreateFAdd(left, right);
      Value *sum = lb.CreateLoad(elt, slot);
      lb.CreateStore(lb.CreateFAdd(sum, term), slot);
    });
  });
  Value *tangent = acc ? static_cast<Value *>(b.CreateLoad(sig.elt, acc))
                       : Constant::getNullValue(rt);
  Value *r = b.CreateInsertValue(PoisonValue::get(pair), primal, {0});
  b.CreateRet(b.CreateInsertValue(r, tangent, {1}));
  return fwd;
}

} // namespace

Function *BuiltinForwardRule(Function &f) {
  if (IsNumbaGemv(f))
    return GemvForwardRule(f);
  if (IsNumbaGemm(f))
    return GemmForwardRule(f);
  if (IsCblasLevel1(f))
    return Level1ForwardRule(f);
  if (IsCblasGemm(f))
    return CblasGemmForwardRule(f);
  if (IsCblasGemv(f))
    return CblasGemvForwardRule(f);
  std::optional<DotSignature> sig = Classify(f);
  return sig ? MakeForward(f, *sig) : nullptr;
}

bool HasBuiltinReverseRule(const Function &f) {
  return Classify(f).has_value() || IsNumbaGemv(f) || IsNumbaGemm(f) ||
         IsCblasLevel1(f) || IsCblasGemm(f) || IsCblasGemv(f);
}

std::optional<ReverseRule> BuiltinReverseRule(Function &f) {
  if (IsNumbaGemv(f))
    return GemvReverseRule(f);
  if (IsNumbaGemm(f))
    return GemmReverseRule(f);
  if (IsCblasLevel1(f))
    return Level1ReverseRule(f);
  if (IsCblasGemm(f))
    return CblasGemmReverseRule(f);
  if (IsCblasGemv(f))
    return CblasGemvReverseRule(f);
  std::optional<DotSignature> sig = Classify(f);
  if (!sig)
    return std::nullopt;
  ReverseRule r;
  r.source = "the built-in BLAS rules";
  r.augment = MakeAugment(f, *sig);
  r.reverse = MakeReverse(f, *sig);
  return r;
}

std::string BuiltinRuleLimitation(const CallBase &call, const Function &f) {
  std::optional<DotSignature> dot = Classify(f);
  bool numba = (dot && dot->form == DotForm::Numba) || IsNumbaGemv(f) ||
               IsNumbaGemm(f) || IsNumbaLevel1(f);
  if (!numba || call.arg_size() == 0)
    return "";
  auto *kind = dyn_cast<ConstantInt>(call.getArgOperand(0));
  if (!kind || kind->getZExtValue() == 'd' || kind->getZExtValue() == 's')
    return "";
  return "the derivative of " + f.getName().str() +
         " for complex numbers (kind '" +
         std::string(1, char(kind->getZExtValue())) +
         "') is not built in; register a rule for it";
}

bool BlasParamReadOnly(const Function &f, unsigned arg) {
  if (IsNumbaGemv(f))
    return arg != 9; // y
  if (IsNumbaGemm(f))
    return arg != (f.getName() == "numba_xxgemm" ? 12u : 11u); // c
  if (IsCblasLevel1(f))
    return !Level1WritesParam(f, arg);
  if (IsCblasGemm(f))
    return arg != 12; // c
  if (IsCblasGemv(f))
    return arg != 10; // y
  std::optional<DotSignature> sig = Classify(f);
  if (!sig)
    return false;
  // Numba's helper writes its result through parameter 5.
  return sig->form != DotForm::Numba || arg != 5;
}

} // namespace autodiff
