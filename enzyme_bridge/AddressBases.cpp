//===- enzyme_bridge/AddressBases.cpp - Addresses back in the base --------===//
//
// See AddressBases.h.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/AddressBases.h"
#include "enzyme_bridge/analysis/ActivityAnalysis.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace autodiff {

/// The integer a pointer was made of (`inttoptr`, instruction or constant
/// expression); null for other pointers.
static Value *MadeOfInteger(Value *p) {
  auto *op = dyn_cast<Operator>(p);
  return op && op->getOpcode() == Instruction::IntToPtr ? op->getOperand(0)
                                                        : nullptr;
}

bool PutAddressesInBase(Function &f) {
  SmallVector<GetElementPtrInst *, 8> swaps;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      auto *gep = dyn_cast<GetElementPtrInst>(&i);
      if (!gep || gep->getNumIndices() != 1 ||
          !gep->getSourceElementType()->isIntegerTy(8) ||
          gep->getType()->isVectorTy())
        continue;
      Value *offset = MadeOfInteger(gep->getPointerOperand());
      Value *address = gep->getOperand(1);
      if (offset && offset->getType() == address->getType() &&
          IsAddressInteger(address, /*offsets_only=*/true) &&
          !IsAddressInteger(offset))
        swaps.push_back(gep);
    }
  for (GetElementPtrInst *gep : swaps) {
    IRBuilder<> b(gep);
    Value *offset = MadeOfInteger(gep->getPointerOperand());
    Value *base = b.CreateIntToPtr(gep->getOperand(1),
                                   gep->getPointerOperand()->getType(),
                                   gep->getName() + ".base");
    // No inbounds: the offset alone need not point into the object.
    Value *swapped = b.CreateGEP(b.getInt8Ty(), base, offset);
    swapped->takeName(gep);
    gep->replaceAllUsesWith(swapped);
    gep->eraseFromParent();
  }
  return !swaps.empty();
}

} // namespace autodiff
