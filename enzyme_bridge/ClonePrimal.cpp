//===- enzyme_bridge/ClonePrimal.cpp - The primal copied into a derivative ===//
#include "enzyme_bridge/ClonePrimal.h"

#include "enzyme_bridge/Diagnostics.h"

#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace autodiff {
namespace {

/// The derivative writes shadow memory and may return something else than
/// the primal: drop attributes that would now lie.
void DropPrimalOnlyAttributes(Function &out, const Function &f) {
  out.setLinkage(GlobalValue::InternalLinkage);
  out.setMemoryEffects(MemoryEffects::unknown());
  // Inlining attributes carry over (a noinline primal gets a noinline
  // derivative, so the inliner is given no more than the primal pipeline
  // allows), except clang's -O0 pair `noinline optnone`: derivatives are
  // optimized whatever the primal's level.
  if (out.hasFnAttribute(Attribute::OptimizeNone))
    out.removeFnAttr(Attribute::NoInline);
  for (Attribute::AttrKind k :
       {Attribute::Speculatable, Attribute::OptimizeNone, Attribute::Naked})
    out.removeFnAttr(k);
  out.removeRetAttrs(AttributeFuncs::typeIncompatible(
      out.getReturnType(), out.getAttributes().getRetAttrs()));
  if (out.getReturnType() != f.getReturnType())
    out.removeRetAttrs(AttributeMask()
                           .addAttribute(Attribute::NonNull)
                           .addAttribute(Attribute::NoAlias)
                           .addAttribute(Attribute::Dereferenceable)
                           .addAttribute(Attribute::DereferenceableOrNull)
                           .addAttribute(Attribute::Range)
                           .addAttribute(Attribute::NoFPClass)
                           .addAttribute(Attribute::Alignment)
                           .addAttribute(Attribute::NoUndef)
                           .addAttribute(Attribute::ZExt)
                           .addAttribute(Attribute::SExt));
  for (Argument &a : out.args()) {
    a.removeAttr(Attribute::Returned);
    a.removeAttr(Attribute::ReadNone);
    a.removeAttr(Attribute::ReadOnly);
  }
  // Last: each step above makes a new attribute list, kept by the context
  // for good (with a 1.5 KB string-attribute map per set). Until this one,
  // they are the same for every primal with the same attributes and so are
  // shared; this one is the function's own.
  out.addFnAttr(kPrimalAttr, f.getName());
}

/// A computed goto (`goto *table[op]`, an `indirectbr`) in the copy would
/// jump through addresses of the primal's blocks, which a static label
/// table holds: into the other function. Each becomes a chain of
/// comparisons with the addresses its destinations may have (the primal
/// block's, or the copy's own where the copy takes it), branching to the
/// copy's block; no match is unreachable, as a jump to any other address
/// was undefined.
void LowerIndirectBranches(Function &out, const Function &f,
                           ValueToValueMapTy &vmap) {
  DenseMap<BasicBlock *, BasicBlock *> original;
  for (const BasicBlock &bb : f)
    if (Value *copy = vmap.lookup(&bb))
      original[cast<BasicBlock>(copy)] = const_cast<BasicBlock *>(&bb);
  SmallVector<IndirectBrInst *, 2> branches;
  for (BasicBlock &bb : out)
    if (auto *ib = dyn_cast<IndirectBrInst>(bb.getTerminator()))
      branches.push_back(ib);
  LLVMContext &ctx = out.getContext();
  for (IndirectBrInst *ib : branches) {
    BasicBlock *from = ib->getParent();
    Value *addr = ib->getAddress();
    SmallVector<BasicBlock *, 8> dests;
    DenseMap<BasicBlock *, unsigned> edges;
    for (BasicBlock *d : ib->successors())
      if (edges[d]++ == 0)
        dests.push_back(d);
    BasicBlock *check = from;
    IRBuilder<> b(ib);
    for (BasicBlock *d : dests) {
      Value *match = b.getFalse();
      if (BasicBlock *o = original.lookup(d))
        if (BlockAddress *ba = BlockAddress::lookup(o)) {
          // Textual IR cannot refer to a numbered block of another
          // function: the primal's block gets a name (nothing else changes).
          if (!o->hasName())
            o->setName("label");
          match = b.CreateOr(match, b.CreateICmpEQ(addr, ba));
        }
      if (BlockAddress *own = BlockAddress::lookup(d))
        match = b.CreateOr(match, b.CreateICmpEQ(addr, own));
      BasicBlock *next = BasicBlock::Create(ctx, "computed.goto.next", &out);
      b.CreateCondBr(match, d, next);
      for (PHINode &phi : d->phis()) {
        for (unsigned k = 1; k < edges[d]; ++k)
          phi.removeIncomingValue(from, /*DeletePHIIfEmpty=*/false);
        phi.replaceIncomingBlockWith(from, check);
      }
      check = next;
      b.SetInsertPoint(next);
    }
    b.CreateUnreachable();
    ib->eraseFromParent();
  }
}

} // namespace

void EraseBody(Function &f) {
  for (BasicBlock &bb : f)
    bb.dropAllReferences();
  while (!f.empty())
    f.begin()->eraseFromParent();
}

ClonedPrimal ClonePrimalBody(const DiffRequest &r, Function &out) {
  const Function &f = *r.fn;
  ClonedPrimal cloned;
  ValueToValueMapTy vmap;
  unsigned pos = 0;
  for (const Argument &a : f.args()) {
    Argument *primal = out.getArg(pos++);
    primal->setName(a.getName());
    vmap[&a] = primal;
    ArgActivity act = r.args[a.getArgNo()];
    if (act == ArgActivity::Out)
      cloned.active.push_back(primal);
    if (act != ArgActivity::Dup && act != ArgActivity::DupNoNeed)
      continue;
    Lanes lanes;
    for (unsigned k = 0; k < r.width; ++k) {
      Argument *s = out.getArg(pos++);
      s->setName(a.getName() + "'" + (r.width > 1 ? std::to_string(k) : ""));
      lanes.push_back(s);
    }
    cloned.shadows.push_back({primal, lanes});
    cloned.active.push_back(primal);
  }
  SmallVector<ReturnInst *, 4> rets;
  CloneFunctionInto(&out, &f, vmap, CloneFunctionChangeType::LocalChangesOnly,
                    rets);
  DropPrimalOnlyAttributes(out, f);
  for (unsigned i = 0; i < r.arg_types.size() && i < f.arg_size(); ++i)
    if (!r.arg_types[i].empty())
      cast<Argument>(vmap[f.getArg(i)])
          ->addAttr(Attribute::get(out.getContext(), "enzyme_type",
                                   r.arg_types[i]));
  LowerIndirectBranches(out, f, vmap);

  // A by-value argument is the callee's own copy: in forward mode so is
  // its shadow (tangents written into it stay there). In reverse mode the
  // shadow is where the caller wants the adjoints: they are added into the
  // memory the caller passed, as for a pointer.
  if (r.mode != Mode::Forward)
    return cloned;
  IRBuilder<> entryB(&*out.getEntryBlock().getFirstInsertionPt());
  for (auto &entry : cloned.shadows) {
    Argument *primal = entry.first;
    if (Type *byval = primal->getParamByValType())
      for (Value *&lane : entry.second) {
        AllocaInst *copy = entryB.CreateAlloca(byval, nullptr,
                                               primal->getName() + "'byval");
        copy->setAlignment(primal->getParamAlign().valueOrOne());
        entryB.CreateMemCpy(copy, copy->getAlign(), lane, copy->getAlign(),
                            out.getDataLayout().getTypeAllocSize(byval));
        lane = copy;
      }
  }
  return cloned;
}

} // namespace autodiff
