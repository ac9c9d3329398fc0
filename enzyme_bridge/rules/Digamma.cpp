//===- enzyme_bridge/rules/Digamma.cpp - The derivative of lgamma --------===//
#include "enzyme_bridge/rules/Digamma.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "enzyme_bridge/rules/Rules.h"
#include "llvm/IR/Module.h"

#include <cmath>

using namespace llvm;

namespace autodiff {

/// `double __autodiff_digamma(double)`, emitted once per module: the
/// derivative of lgamma, which libm lacks. Reflection below 1/2, the
/// recurrence psi(x) = psi(x + 1) - 1/x up to 6, then the asymptotic series.
Function *DigammaFunction(Module &m) {
  const char *name = "__autodiff_digamma";
  if (Function *f = m.getFunction(name))
    return f;
  LLVMContext &ctx = m.getContext();
  Type *d = Type::getDoubleTy(ctx);
  Function *f = Function::Create(FunctionType::get(d, {d}, false),
                                 GlobalValue::LinkOnceODRLinkage, name, &m);
  f->setVisibility(GlobalValue::HiddenVisibility);
  f->addFnAttr(Attribute::NoUnwind);
  BasicBlock *entry = BasicBlock::Create(ctx, "entry", f);
  BasicBlock *reflect = BasicBlock::Create(ctx, "reflect", f);
  BasicBlock *loop = BasicBlock::Create(ctx, "loop", f);
  BasicBlock *step = BasicBlock::Create(ctx, "step", f);
  BasicBlock *series = BasicBlock::Create(ctx, "series", f);
  Value *x = f->getArg(0);
  auto C = [&](double v) { return ConstantFP::get(d, v); };
  // GPU device code has no instructions for log and tan: libdevice's.
  bool gpu = IsGpuModule(m);
  auto I = [&](IRBuilder<> &b, Intrinsic::ID id, Value *v) {
    if (gpu)
      return b.CreateCall(
          m.getOrInsertFunction(id == Intrinsic::log ? "__nv_log" : "__nv_tan",
                                d, d),
          {v});
    return b.CreateCall(Intrinsic::getOrInsertDeclaration(&m, id, {d}), {v});
  };
  IRBuilder<> b(entry);
  b.CreateCondBr(b.CreateFCmpOLT(x, C(0.5)), reflect, loop);
  // psi(x) = psi(1 - x) - pi / tan(pi x)
  b.SetInsertPoint(reflect);
  Value *other = b.CreateCall(f, {b.CreateFSub(C(1.0), x)});
  b.CreateRet(b.CreateFSub(
      other, b.CreateFDiv(C(M_PI), I(b, Intrinsic::tan,
                                     b.CreateFMul(C(M_PI), x)))));
  b.SetInsertPoint(loop);
  PHINode *xi = b.CreatePHI(d, 2), *acc = b.CreatePHI(d, 2);
  xi->addIncoming(x, entry);
  acc->addIncoming(C(0.0), entry);
  b.CreateCondBr(b.CreateFCmpOLT(xi, C(6.0)), step, series);
  b.SetInsertPoint(step);
  acc->addIncoming(b.CreateFSub(acc, b.CreateFDiv(C(1.0), xi)), step);
  xi->addIncoming(b.CreateFAdd(xi, C(1.0)), step);
  b.CreateBr(loop);
  // log x - 1/(2x) - sum B2k / (2k x^2k)
  b.SetInsertPoint(series);
  Value *f2 = b.CreateFDiv(C(1.0), b.CreateFMul(xi, xi));
  Value *poly = C(1.0 / 132);
  for (double c : {1.0 / 240, 1.0 / 252, 1.0 / 120, 1.0 / 12})
    poly = b.CreateFSub(C(c), b.CreateFMul(f2, poly));
  Value *logx = I(b, Intrinsic::log, xi);
  Value *half = b.CreateFDiv(C(0.5), xi);
  Value *r = b.CreateFSub(logx, half);
  r = b.CreateFSub(r, b.CreateFMul(f2, poly));
  b.CreateRet(b.CreateFAdd(acc, r));
  return f;
}

} // namespace autodiff
