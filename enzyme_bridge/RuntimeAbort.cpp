//===- enzyme_bridge/RuntimeAbort.cpp - Stop a program from IR ------------===//
#include "enzyme_bridge/RuntimeAbort.h"

#include "enzyme_bridge/rules/Rules.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

namespace autodiff {

using namespace llvm;

void EmitRuntimeAbort(IRBuilderBase &b, StringRef msg) {
  Module &m = *b.GetInsertBlock()->getModule();
  if (IsGpuModule(m)) {
    // The string lives in global memory (address space 1), as clang puts
    // device strings; vprintf takes a generic pointer.
    Constant *text = ConstantDataArray::getString(m.getContext(), msg);
    auto *g = new GlobalVariable(m, text->getType(), /*isConstant=*/true,
                                 GlobalValue::PrivateLinkage, text,
                                 "autodiff.abort.msg", nullptr,
                                 GlobalValue::NotThreadLocal, 1);
    Value *generic = b.CreateAddrSpaceCast(g, b.getPtrTy());
    FunctionCallee vprintf = m.getOrInsertFunction(
        "vprintf", b.getInt32Ty(), b.getPtrTy(), b.getPtrTy());
    b.CreateCall(vprintf, {generic, ConstantPointerNull::get(b.getPtrTy())});
    b.CreateIntrinsic(Intrinsic::trap, {});
    b.CreateUnreachable();
    return;
  }
  FunctionCallee write = m.getOrInsertFunction(
      "write", b.getInt64Ty(), b.getInt32Ty(), b.getPtrTy(), b.getInt64Ty());
  b.CreateCall(write, {b.getInt32(2), b.CreateGlobalString(msg),
                       b.getInt64(msg.size())});
  b.CreateCall(m.getOrInsertFunction("abort", b.getVoidTy()));
  b.CreateUnreachable();
}

} // namespace autodiff
