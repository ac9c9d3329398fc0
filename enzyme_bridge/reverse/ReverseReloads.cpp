//===- enzyme_bridge/reverse/ReverseReloads.cpp - Loads read again ---------===//
//
// A load of the primal need not be cached when the reverse sweep can
// execute it again and read the same value: when no write of the primal
// that may run after it (a store, a call, a memory intrinsic, a free) can
// change the memory it read. Alias analysis (basic, type-based and scoped)
// answers "can change", asked across loop iterations, since a write in a
// later iteration of the same loop is a later write; the control-flow graph
// answers "may run after". When either cannot tell, the load is cached.
//
// The reverse sweep itself writes only shadow memory and tape, never primal
// memory, so what holds at the end of the forward sweep holds throughout.
// Calls to read-only functions of the module (recursive ones, which stay
// calls) are asked the same question: the reverse sweep runs them again.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/reverse/ReverseEmitter.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/Analysis/AliasAnalysis.h"
#include "llvm/Analysis/BasicAliasAnalysis.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ScopedNoAliasAA.h"
#include "llvm/Analysis/TypeBasedAliasAnalysis.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace autodiff {

/// Alias queries allowed for one function, load by write pair; beyond this
/// the remaining loads are cached without asking (quadratic cost guard).
static constexpr unsigned kMaxAliasQueries = 200000;

/// Writes that cannot change memory a load of the primal reads. Math
/// functions of the rule table write errno at most, which derivatives do
/// not depend on.
static bool IgnorableWrite(const Instruction &i) {
  if (auto *call = dyn_cast<CallBase>(&i))
    if (!isa<IntrinsicInst>(call) && FindRule(*call))
      return true;
  if (auto *ii = dyn_cast<IntrinsicInst>(&i))
    switch (ii->getIntrinsicID()) {
    case Intrinsic::assume:
    case Intrinsic::experimental_noalias_scope_decl:
    case Intrinsic::dbg_declare:
    case Intrinsic::dbg_value:
    case Intrinsic::dbg_label:
    case Intrinsic::lifetime_start:
      return true;
    default:
      break;
    }
  return false;
}

void ReverseEmitter::FindReloadableLoads() {
  SmallVector<Instruction *, 32> writes;
  SmallVector<Instruction *, 64> reads;
  for (BasicBlock *bb : blocks_)
    for (Instruction *i : primal_insts_[bb]) {
      if (isa<LoadInst>(i) || IsRepeatableCall(*i))
        reads.push_back(i);
      if (i->mayWriteToMemory() && !IgnorableWrite(*i))
        writes.push_back(i);
    }
  if (reads.empty())
    return;
  AAResults aa(*tli_);
  BasicAAResult basic(out_.getDataLayout(), out_, *tli_, *ac_, dt_.get());
  TypeBasedAAResult tbaa(/*UsingTypeSanitizer=*/false);
  ScopedNoAliasAAResult scoped;
  aa.addAAResult(basic);
  aa.addAAResult(tbaa);
  aa.addAAResult(scoped);
  BatchAAResults batch(aa);
  batch.enableCrossIterationMode();
  unsigned queries = 0;
  for (Instruction *r : reads) {
    auto *ld = dyn_cast<LoadInst>(r);
    if (ld && !ld->isSimple()) {
      clobbers_[r] = r;
      continue;
    }
    const Instruction *clobber = nullptr;
    for (Instruction *w : writes) {
      if (++queries > kMaxAliasQueries) {
        clobber = w;
        break;
      }
      ModRefInfo mr = ld ? batch.getModRefInfo(w, MemoryLocation::get(ld))
                         : batch.getModRefInfo(w, cast<CallBase>(r));
      if (!isModSet(mr))
        continue;
      if (isPotentiallyReachable(r, w, nullptr, dt_.get(), li_.get())) {
        clobber = w;
        break;
      }
    }
    clobbers_[r] = clobber;
  }
}

/// Calls to functions of the module that write nothing their caller sees
/// (MarkReadOnlyModuleCalls): the reverse sweep may run them again.
bool ReverseEmitter::IsRepeatableCall(const Instruction &i) const {
  auto *call = dyn_cast<CallInst>(&i);
  Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && !callee->isDeclaration() && call->onlyReadsMemory();
}

bool ReverseEmitter::Reloadable(const Instruction &i) const {
  auto it = clobbers_.find(&i);
  return it != clobbers_.end() && !it->second;
}

} // namespace autodiff
