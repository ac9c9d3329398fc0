//===- enzyme_bridge/Bridge.cpp - Differentiate __enzyme_* calls ----------===//
//
// Initial version: recognizes requests and reports that differentiation is
// not available yet. Replaced by the forward-mode core.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Bridge.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

namespace autodiff {

absl::Status DifferentiateModule(llvm::Module &m, const BridgeOptions &) {
  for (llvm::Function &f : m)
    for (llvm::BasicBlock &bb : f)
      for (llvm::Instruction &i : bb)
        if (auto *cb = llvm::dyn_cast<llvm::CallBase>(&i))
          if (llvm::Function *callee = cb->getCalledFunction())
            if (callee->getName().contains("__enzyme_"))
              return absl::UnimplementedError(
                  "in function `" + f.getName().str() + "`: call to `" +
                  callee->getName().str() +
                  "`: the differentiation core cannot differentiate yet");
  return absl::OkStatus();
}

} // namespace autodiff
