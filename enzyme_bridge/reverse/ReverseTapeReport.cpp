//===- enzyme_bridge/reverse/ReverseTapeReport.cpp - What the tape holds ---===//
//
// The report of `print<autodiff-tape>`: for one reverse derivative, each
// loop with how its caches are sized and what they hold per iteration, then
// the values kept once in stack slots, each with the reason it could not be
// recomputed in the reverse sweep. Values are named as in the prepared copy
// of the primal (the derivative's forward sweep).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/reverse/ReverseEmitter.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace autodiff {

static std::string OperandText(const Value &v) {
  std::string text;
  raw_string_ostream os(text);
  v.printAsOperand(os, /*PrintType=*/false);
  return text;
}

static std::string InstructionText(const Instruction &i) {
  std::string text;
  raw_string_ostream os(text);
  i.print(os);
  StringRef trimmed = StringRef(text).trim();
  constexpr size_t kMax = 100;
  if (trimmed.size() > kMax)
    return (trimmed.take_front(kMax) + " ...").str();
  return trimmed.str();
}

static std::string BlockName(const BasicBlock &bb) {
  return OperandText(bb);
}

/// Names the copy's unnamed blocks and values, so the report's names stay
/// the same while the emitter adds instructions.
void NameForReport(Function &f) {
  for (BasicBlock &bb : f) {
    if (!bb.hasName())
      bb.setName("bb");
    for (Instruction &i : bb)
      if (!i.hasName() && !i.getType()->isVoidTy())
        i.setName("v");
  }
}

std::string ReverseEmitter::CacheReason(Instruction &i) {
  for (auto &[bb, phi] : come_from_)
    if (phi == &i)
      return "which predecessor the forward sweep entered " + BlockName(*bb) +
             " from";
  for (auto &[loop, tape] : tapes_)
    for (auto &[exit, trips] : tape.exit_trip_counts)
      if (trips == &i)
        return "the trip count of loop " + BlockName(*loop->getHeader()) +
               " when it left through " + BlockName(*exit);
  if (CallBase *call = tape_of_call_.lookup(&i))
    return "the tape of the call to @" +
           CalledFunction(*call)->getName().str() +
           ", for its reverse sweep";
  if (auto *ld = dyn_cast<LoadInst>(&i)) {
    const Instruction *clobber = clobbers_.lookup(&i);
    if (caller_memory_loads_.count(ld))
      return "the caller may write the memory it read before the reverse "
             "sweep runs (split derivative)";
    if (clobber == ld)
      return "an atomic or volatile load";
    if (clobber)
      return "a later write may change the memory it read: " +
             InstructionText(*clobber);
    return "its address " + OperandText(*ld->getPointerOperand()) +
           " is not recomputable";
  }
  if (auto *phi = dyn_cast<PHINode>(&i)) {
    Loop *l = loop_of_.lookup(phi->getParent());
    if (l && l->getHeader() == phi->getParent())
      return "a value carried from one iteration to the next";
    return "a value merged from several predecessors";
  }
  if (auto *call = dyn_cast<CallBase>(&i)) {
    Function *callee = call->getCalledFunction();
    return "the result of a call to " +
           (callee ? "@" + callee->getName().str() : "a function pointer");
  }
  for (Value *op : i.operands())
    if (isa<Instruction>(op) && !CanRecompute(op, 1))
      return "it uses " + OperandText(*op) + ", which is not recomputable";
  return "recomputing it would take too many steps";
}

void ReverseEmitter::PrintTape(raw_ostream &os) {
  os << "tape of " << out_.getName() << " (" << req_.ToString() << ")\n";
  if (!versioned_on_.empty()) {
    os << "  versioned on disjoint arguments";
    for (Argument *a : versioned_on_) {
      os << " ";
      a->printAsOperand(os, /*PrintType=*/false);
    }
    os << ": the copy of the body taken when they do not overlap reads "
          "them again\n";
  }
  if (!undo_log_.entry_words.empty()) {
    bool one = undo_log_.entry_words.size() == 1;
    os << "  undo log: " << undo_log_.entry_words.size()
       << (one ? " store keeps what it overwrites"
               : " stores keep what they overwrite")
       << ", entries of address"
       << (undo_log_.sized ? ", size" : "") << " and bytes\n";
    for (auto &[store, words] : undo_log_.entry_words) {
      os << "    " << InstructionText(*store) << "\n      " << 8 * words
         << " bytes per execution";
      if (Loop *l = undo_log_.loop_of_store.lookup(store))
        os << " in loop " << BlockName(*l->getHeader());
      unsigned n = undo_log_.reloads.lookup(store);
      os << "; " << n << (n == 1 ? " load" : " loads")
         << " read again instead of cached\n";
    }
  }
  for (auto &[loop, refills] : refills_) {
    os << "  refilled at each reverse iteration of loop "
       << BlockName(*loop->getHeader()) << " (" << refills.loads.size()
       << (refills.loads.size() == 1 ? " load" : " loads")
       << " read again instead of cached"
       << (refills.barrier ? ", between two barriers" : "") << "):\n";
    for (StoreInst *s : refills.stores)
      os << "    " << InstructionText(*s) << "\n";
  }
  if (!shared_checks_.empty()) {
    os << "  checked at the entry not to point into shared arrays the "
          "function writes:";
    for (auto &[arg, globals] : shared_checks_) {
      os << " ";
      arg->printAsOperand(os, /*PrintType=*/false);
    }
    os << "\n";
  }
  const DataLayout &dl = out_.getDataLayout();
  DenseMap<Loop *, SmallVector<Instruction *, 4>> per_loop;
  SmallVector<Instruction *, 8> once;
  DenseMap<Instruction *, StringRef> reasons;
  for (auto &[i, reason] : cached_in_order_) {
    reasons[i] = reason;
    if (Loop *l = loop_of_.lookup(i->getParent()))
      per_loop[l].push_back(i);
    else
      once.push_back(i);
  }
  for (auto &[loop, tape] : tapes_) {
    SmallVector<Instruction *, 4> &values = per_loop[loop];
    uint64_t bytes = 0;
    for (Instruction *i : values)
      bytes += dl.getTypeAllocSize(i->getType());
    os << "  loop " << BlockName(*loop->getHeader()) << " (depth "
       << loop->getLoopDepth() << "): ";
    if (values.empty()) {
      os << "nothing cached per iteration\n";
      continue;
    }
    os << values.size() << (values.size() == 1 ? " value" : " values")
       << ", " << bytes << " bytes per iteration, ";
    if (!tape.backedge_count) {
      os << "grown geometrically (trip count known at exit)";
    } else if (tape.reserved_before && tape.reserved_before != tape.loop) {
      os << "reserved at an entry for the rest of loop %"
         << tape.reserved_before->getHeader()->getName()
         << " (trip counts known at entry)";
    } else {
      os << "reserved once per entry (trip count known at entry)";
    }
    if (gpu_)
      os << "; in the thread's local memory up to " << kLocalTapeElements
         << " iterations, beyond that on the device heap";
    os << "\n";
    for (Instruction *i : values)
      os << "    " << InstructionText(*i) << "\n      because: "
         << reasons[i] << "\n";
  }
  os << "  outside loops: ";
  if (once.empty()) {
    os << "nothing cached\n";
    return;
  }
  os << once.size() << (once.size() == 1 ? " value" : " values")
     << " in stack slots\n";
  for (Instruction *i : once)
    os << "    " << InstructionText(*i) << "\n      because: " << reasons[i]
       << "\n";
}

} // namespace autodiff
