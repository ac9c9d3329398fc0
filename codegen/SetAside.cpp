//===- codegen/SetAside.cpp - Functions post-optimization leaves alone ----===//
//
// Design. After differentiation the module holds three kinds of functions:
// those differentiation created or changed (derivatives, and the functions
// whose requests it replaced), those they reach through any reference
// (callees, vtables, aliases), and the rest. Post-optimization needs the
// first two; the rest is set aside:
//
//   1. The globals the set-aside bodies refer to, and those sharing a
//      comdat with them, that the optimizer could delete, specialize or
//      constant-fold once it sees no other use become visible for the time
//      being: local linkage becomes external, linkonce becomes weak (still
//      interposable: nothing may be inlined or inferred from the body) and
//      linkonce_odr weak_odr; unnamed ones are named (the linker matches by
//      name). The set-aside functions become external, without comdats.
//      Both stay in llvm.compiler.used meanwhile, so no name is freed for
//      the optimizer to reuse (a library call it creates, `exp2` for
//      `pow(2, x)`, would otherwise be linked to a set-aside `exp2`).
//   2. The whole module is written as bitcode (a few percent of its size in
//      memory), and the set-aside functions become declarations.
//   3. After post-optimization the bitcode is read lazily; everything but
//      the set-aside bodies becomes a declaration there (or is dropped:
//      appending globals, named metadata, module asm, which the module
//      already has), and LLVM's linker links those bodies over their
//      declarations. Linkage, comdats and names are then restored.
//
// Correctness rests on step 1: during post-optimization the set-aside code
// is an unknown external caller of what it uses. A function whose block
// address is taken, that takes one, or that an alias names, is never set
// aside (a declaration can have neither, and linking a block address back
// needs its function's body). Debug information comes back with the
// bodies; its compile units, which the linker copies, are folded into the
// module's. Modules with ifuncs are post-optimized whole.
//
//===----------------------------------------------------------------------===//
#include "codegen/SetAside.h"

#include "enzyme_bridge/requests/CallSite.h"

#include "absl/strings/str_cat.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>
#include <string>
#include <vector>

namespace autodiff {

namespace {

/// Calls `on_global(g, block_address)` for each global value `c` refers
/// to, looking through constant expressions and aggregates (a block address
/// refers to its function, with `block_address` true).
template <typename Fn>
void ForEachGlobalIn(const llvm::Constant *c,
                     llvm::SmallPtrSetImpl<const llvm::Constant *> &seen,
                     Fn &&on_global) {
  llvm::SmallVector<const llvm::Constant *, 8> work{c};
  while (!work.empty()) {
    const llvm::Constant *k = work.pop_back_val();
    if (!seen.insert(k).second)
      continue;
    if (auto *gv = llvm::dyn_cast<llvm::GlobalValue>(k)) {
      on_global(gv, /*block_address=*/false);
      continue;
    }
    if (auto *ba = llvm::dyn_cast<llvm::BlockAddress>(k)) {
      on_global(ba->getFunction(), /*block_address=*/true);
      continue;
    }
    for (const llvm::Use &op : k->operands())
      if (auto *kc = llvm::dyn_cast<llvm::Constant>(op.get()))
        work.push_back(kc);
  }
}

/// Calls `on_global` for each global value the body of `f` (with its
/// personality, prefix and prologue) refers to.
template <typename Fn>
void ForEachGlobalUsedBy(const llvm::Function &f,
                         llvm::SmallPtrSetImpl<const llvm::Constant *> &seen,
                         Fn &&on_global) {
  if (f.hasPersonalityFn())
    ForEachGlobalIn(f.getPersonalityFn(), seen, on_global);
  if (f.hasPrefixData())
    ForEachGlobalIn(f.getPrefixData(), seen, on_global);
  if (f.hasPrologueData())
    ForEachGlobalIn(f.getPrologueData(), seen, on_global);
  for (const llvm::BasicBlock &bb : f)
    for (const llvm::Instruction &i : bb)
      for (const llvm::Use &op : i.operands())
        if (auto *c = llvm::dyn_cast<llvm::Constant>(op.get()))
          ForEachGlobalIn(c, seen, on_global);
}

bool HasBlockAddress(const llvm::Function &f) {
  for (const llvm::BasicBlock &bb : f)
    if (bb.hasAddressTaken())
      return true;
  return false;
}

/// Whether `f`'s body refers to the address of a block (of any function):
/// linking it back needs that function's body in the bitcode too.
bool UsesBlockAddress(const llvm::Function &f) {
  bool uses = false;
  llvm::SmallPtrSet<const llvm::Constant *, 32> seen;
  ForEachGlobalUsedBy(f, seen, [&](const llvm::GlobalValue *, bool block) {
    uses |= block;
  });
  return uses;
}

/// The functions with a body that post-optimization must see: those
/// differentiation created or changed, those an alias names or whose block
/// address is taken, and everything these reach.
llvm::DenseSet<const llvm::Function *>
FunctionsToOptimize(const llvm::Module &m, const BeforeDifferentiation &before) {
  llvm::DenseSet<const llvm::GlobalValue *> reached;
  llvm::SmallVector<const llvm::GlobalValue *, 64> work;
  auto reach = [&](const llvm::GlobalValue *g) {
    if (reached.insert(g).second)
      work.push_back(g);
  };
  for (const llvm::Function &f : m) {
    if (f.isDeclaration())
      continue;
    bool unchanged = before.defined.contains(&f) &&
                     before.defined_names.contains(f.getName()) &&
                     !before.requesters.contains(&f);
    if (!unchanged || HasBlockAddress(f) || UsesBlockAddress(f))
      reach(&f);
  }
  for (const llvm::GlobalAlias &a : m.aliases())
    reach(&a);
  llvm::SmallPtrSet<const llvm::Constant *, 32> seen;
  auto reach_from = [&](const llvm::GlobalValue *g, bool) { reach(g); };
  while (!work.empty()) {
    const llvm::GlobalValue *g = work.pop_back_val();
    if (auto *f = llvm::dyn_cast<llvm::Function>(g))
      ForEachGlobalUsedBy(*f, seen, reach_from);
    else if (auto *v = llvm::dyn_cast<llvm::GlobalVariable>(g)) {
      if (v->hasInitializer())
        ForEachGlobalIn(v->getInitializer(), seen, reach_from);
    } else if (auto *a = llvm::dyn_cast<llvm::GlobalAlias>(g)) {
      ForEachGlobalIn(a->getAliasee(), seen, reach_from);
    }
  }
  llvm::DenseSet<const llvm::Function *> out;
  for (const llvm::GlobalValue *g : reached)
    if (auto *f = llvm::dyn_cast<llvm::Function>(g))
      out.insert(f);
  return out;
}

/// Records `g` as changed, names it if it has no name, and gives it
/// `linkage` (without a comdat when `drop_comdat`).
void Externalize(llvm::GlobalValue &g, llvm::GlobalValue::LinkageTypes linkage,
                 bool drop_comdat, std::vector<ChangedGlobal> &changed) {
  ChangedGlobal c;
  c.linkage = g.getLinkage();
  c.unnamed = !g.hasName();
  if (c.unnamed)
    g.setName("autodiff.set.aside");
  auto *go = llvm::dyn_cast<llvm::GlobalObject>(&g);
  if (drop_comdat && go && go->hasComdat()) {
    c.had_comdat = true;
    c.comdat = go->getComdat()->getName().str();
    c.comdat_kind = go->getComdat()->getSelectionKind();
    go->setComdat(nullptr);
  }
  g.setLinkage(linkage);
  c.name = g.getName().str();
  changed.push_back(std::move(c));
}

/// Whether the optimizer may delete or rewrite `g` when it sees no use of
/// it outside the module's optimized part.
bool MayVanish(const llvm::GlobalValue &g) {
  return g.isDiscardableIfUnused() && !g.hasAvailableExternallyLinkage();
}

/// The linkage that keeps `g` (which MayVanish) while set-aside code uses
/// it and says as much as its own about its body: a linkonce definition
/// may be replaced at link time (so nothing may be inferred from it or
/// inlined), a linkonce_odr one only by an equivalent; local ones are
/// exact.
llvm::GlobalValue::LinkageTypes KeptLinkage(const llvm::GlobalValue &g) {
  if (g.hasLinkOnceODRLinkage())
    return llvm::GlobalValue::WeakODRLinkage;
  if (g.hasLinkOnceLinkage())
    return llvm::GlobalValue::WeakAnyLinkage;
  return llvm::GlobalValue::ExternalLinkage;
}


/// Turns the bitcode copy of the module into one that defines only the
/// set-aside functions, with nothing the module already has.
llvm::Error KeepOnlySetAside(llvm::Module &src, const llvm::StringSet<> &names) {
  for (llvm::Function &f : src) {
    f.setComdat(nullptr);
    if (!names.contains(f.getName()) && !f.isDeclaration())
      f.deleteBody();
  }
  for (llvm::GlobalVariable &v : llvm::make_early_inc_range(src.globals())) {
    if (v.hasAppendingLinkage()) {
      v.eraseFromParent();
      continue;
    }
    v.setComdat(nullptr);
    if (v.hasInitializer()) {
      v.setInitializer(nullptr);
      v.setLinkage(llvm::GlobalValue::ExternalLinkage);
    }
  }
  for (llvm::GlobalAlias &a : llvm::make_early_inc_range(src.aliases())) {
    llvm::GlobalValue *decl;
    if (auto *fty = llvm::dyn_cast<llvm::FunctionType>(a.getValueType()))
      decl = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage,
                                    a.getAddressSpace(), "", &src);
    else
      decl = new llvm::GlobalVariable(
          src, a.getValueType(), /*isConstant=*/false,
          llvm::GlobalValue::ExternalLinkage, nullptr, "", nullptr,
          llvm::GlobalValue::NotThreadLocal, a.getAddressSpace());
    decl->takeName(&a);
    a.replaceAllUsesWith(decl);
    a.eraseFromParent();
  }
  src.setModuleInlineAsm("");
  // Every comdat is stripped above; the linker would still resolve the
  // table's entries (COFF's `largest` needs its key's initializer).
  src.getComdatSymbolTable().clear();
  // (Materializing checks the debug-info version in the module flags, so
  // they go afterwards. The compile units stay: the linked bodies refer to
  // them; MergeCompileUnits folds them into the module's.)
  if (llvm::Error e = src.materializeAll())
    return e;
  for (llvm::NamedMDNode &md : llvm::make_early_inc_range(src.named_metadata()))
    if (md.getName() != "llvm.dbg.cu")
      src.eraseNamedMetadata(&md);
  for (llvm::Function &f : llvm::make_early_inc_range(src))
    if (f.isDeclaration() && f.use_empty())
      f.eraseFromParent();
  for (llvm::GlobalVariable &v : llvm::make_early_inc_range(src.globals()))
    if (v.isDeclaration() && v.use_empty())
      v.eraseFromParent();
  return llvm::Error::success();
}

/// Collects the context's error diagnostics (the linker's) instead of
/// letting the default handler print them and exit; restores the previous
/// handler when it goes.
class CollectedDiagnostics {
public:
  explicit CollectedDiagnostics(llvm::LLVMContext &ctx)
      : ctx_(ctx), previous_(ctx.getDiagnosticHandler()) {
    ctx_.setDiagnosticHandler(std::make_unique<Handler>(text_));
  }
  ~CollectedDiagnostics() { ctx_.setDiagnosticHandler(std::move(previous_)); }
  const std::string &text() const { return text_; }

private:
  struct Handler : llvm::DiagnosticHandler {
    explicit Handler(std::string &text) : text(text) {}
    bool handleDiagnostics(const llvm::DiagnosticInfo &di) override {
      if (di.getSeverity() == llvm::DS_Error) {
        llvm::raw_string_ostream os(text);
        llvm::DiagnosticPrinterRawOStream printer(os);
        di.print(printer);
        os << "\n";
      }
      return true;
    }
    std::string &text;
  };
  llvm::LLVMContext &ctx_;
  std::unique_ptr<llvm::DiagnosticHandler> previous_;
  std::string text_;
};

/// The linker appends the bitcode's compile units, copies of the module's
/// own `original` ones, to llvm.dbg.cu: the linked subprograms are moved to
/// the module's units and the copies dropped.
void MergeCompileUnits(llvm::Module &m, unsigned original) {
  llvm::NamedMDNode *cus = m.getNamedMetadata("llvm.dbg.cu");
  if (!cus || cus->getNumOperands() != 2 * original)
    return;
  llvm::DenseMap<const llvm::MDNode *, llvm::DICompileUnit *> to;
  for (unsigned i = 0; i < original; ++i)
    if (auto *cu = llvm::dyn_cast<llvm::DICompileUnit>(cus->getOperand(i)))
      to[cus->getOperand(original + i)] = cu;
  llvm::DebugInfoFinder finder;
  finder.processModule(m);
  for (llvm::DISubprogram *sp : finder.subprograms())
    if (sp->getUnit())
      if (auto it = to.find(sp->getUnit()); it != to.end())
        sp->replaceUnit(it->second);
  llvm::SmallVector<llvm::MDNode *, 4> keep;
  for (unsigned i = 0; i < original; ++i)
    keep.push_back(cus->getOperand(i));
  cus->clearOperands();
  for (llvm::MDNode *cu : keep)
    cus->addOperand(cu);
}

BodyDebugInfo KeepDebugInfo(const llvm::Function &f) {
  BodyDebugInfo d;
  f.getAllMetadata(d.function);
  for (const llvm::Instruction &i : llvm::instructions(f)) {
    BodyDebugInfo::Inst e;
    e.index = d.count++;
    e.loc = i.getDebugLoc();
    i.getAllMetadataOtherThanDebugLoc(e.attached);
    for (const llvm::DbgRecord &r : i.getDbgRecordRange()) {
      BodyDebugInfo::Record rec;
      rec.loc = r.getDebugLoc();
      if (auto *v = llvm::dyn_cast<llvm::DbgVariableRecord>(&r)) {
        rec.variable = v->getRawVariable();
        rec.expression = v->getRawExpression();
        if (v->isDbgAssign()) {
          rec.address_expression = v->getRawAddressExpression();
          rec.assign_id = llvm::dyn_cast_or_null<llvm::MDNode>(v->getRawAssignID());
        }
      } else if (auto *l = llvm::dyn_cast<llvm::DbgLabelRecord>(&r)) {
        rec.variable = l->getRawLabel();
      }
      e.records.push_back(rec);
    }
    if (e.loc || !e.attached.empty() || !e.records.empty())
      d.insts.push_back(std::move(e));
  }
  return d;
}

/// Gives the linked-back body of `f` its original debug metadata (its own
/// copies came through the bitcode); a body that does not match
/// instruction for instruction keeps the copies.
void RestoreDebugInfo(llvm::Function &f, const BodyDebugInfo &d) {
  std::vector<llvm::Instruction *> insts;
  for (llvm::Instruction &i : llvm::instructions(f))
    insts.push_back(&i);
  if (insts.size() != d.count)
    return;
  for (const auto &[kind, node] : d.function)
    f.setMetadata(kind, node);
  for (const BodyDebugInfo::Inst &e : d.insts) {
    llvm::Instruction *i = insts[e.index];
    i->setDebugLoc(e.loc);
    for (const auto &[kind, node] : e.attached)
      i->setMetadata(kind, node);
    auto range = i->getDbgRecordRange();
    if (static_cast<size_t>(std::distance(range.begin(), range.end())) !=
        e.records.size())
      continue;
    auto rec = e.records.begin();
    for (llvm::DbgRecord &r : range) {
      r.setDebugLoc(rec->loc);
      if (auto *v = llvm::dyn_cast<llvm::DbgVariableRecord>(&r)) {
        v->setVariable(llvm::cast<llvm::DILocalVariable>(rec->variable));
        v->setExpression(llvm::cast<llvm::DIExpression>(rec->expression));
        if (v->isDbgAssign() && rec->assign_id) {
          v->setAddressExpression(
              llvm::cast<llvm::DIExpression>(rec->address_expression));
          v->setAssignId(llvm::cast<llvm::DIAssignID>(rec->assign_id));
        }
      } else if (auto *l = llvm::dyn_cast<llvm::DbgLabelRecord>(&r)) {
        l->setLabel(llvm::cast<llvm::DILabel>(rec->variable));
      }
      ++rec;
    }
  }
}

/// Puts the module's functions back in `order` (the linker appends the
/// bodies it links); a function not in `order` stays after the one it
/// followed.
void RestoreFunctionOrder(llvm::Module &m,
                          const std::vector<std::string> &order) {
  llvm::StringMap<size_t> index;
  for (size_t i = 0; i < order.size(); ++i)
    index.try_emplace(order[i], i);
  std::vector<std::pair<size_t, llvm::Function *>> keyed;
  size_t key = 0;
  for (llvm::Function &f : m) {
    auto it = f.hasName() ? index.find(f.getName()) : index.end();
    if (it != index.end())
      key = it->second;
    keyed.emplace_back(key, &f);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  auto &list = m.getFunctionList();
  for (auto &[k, f] : keyed)
    list.splice(list.end(), list, f->getIterator());
}

absl::Status Internal(llvm::StringRef what) {
  return absl::InternalError(absl::StrCat(
      "post-optimization: linking back the functions it left alone failed: ",
      what.str()));
}

} // namespace

BeforeDifferentiation SnapshotBeforeDifferentiation(const llvm::Module &m) {
  BeforeDifferentiation out;
  for (const llvm::Function &f : m) {
    if (f.isDeclaration())
      continue;
    out.defined.insert(&f);
    out.defined_names.insert(f.getName());
    for (const llvm::BasicBlock &bb : f)
      for (const llvm::Instruction &i : bb)
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
          if (RequestModeOf(*call)) {
            out.requesters.insert(&f);
            ++out.requests;
          }
  }
  return out;
}

absl::StatusOr<std::unique_ptr<SetAsideFunctions>>
SetAsideUnchangedFunctions(llvm::Module &m, const BeforeDifferentiation &before) {
  if (!m.ifunc_empty())
    return nullptr;
  llvm::DenseSet<const llvm::Function *> optimized =
      FunctionsToOptimize(m, before);
  llvm::SetVector<llvm::Function *> aside;
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && !optimized.contains(&f))
      aside.insert(&f);
  if (aside.empty())
    return nullptr;

  // Step 1: what the set-aside bodies use, and what shares a comdat with
  // them, stays, as if used from elsewhere.
  llvm::SetVector<llvm::GlobalValue *> used;
  llvm::SmallPtrSet<const llvm::Constant *, 32> seen;
  llvm::SmallPtrSet<const llvm::Comdat *, 8> comdats;
  for (llvm::Function *f : aside) {
    ForEachGlobalUsedBy(*f, seen, [&](const llvm::GlobalValue *g, bool) {
      used.insert(const_cast<llvm::GlobalValue *>(g));
    });
    if (f->hasComdat())
      comdats.insert(f->getComdat());
  }
  for (llvm::GlobalObject &go : m.global_objects())
    if (go.hasComdat() && comdats.contains(go.getComdat()))
      used.insert(&go);
  auto result = std::make_unique<SetAsideFunctions>();
  if (const llvm::NamedMDNode *cus = m.getNamedMetadata("llvm.dbg.cu"))
    result->compile_units = cus->getNumOperands();
  for (llvm::GlobalValue *g : used) {
    if (aside.contains(llvm::dyn_cast<llvm::Function>(g)))
      continue;
    if (MayVanish(*g))
      Externalize(*g, KeptLinkage(*g), /*drop_comdat=*/false, result->changed);
    else if (!g->hasName())
      Externalize(*g, g->getLinkage(), /*drop_comdat=*/false,
                  result->changed);
  }
  for (llvm::Function *f : aside) {
    Externalize(*f, llvm::GlobalValue::ExternalLinkage, /*drop_comdat=*/true,
                result->changed);
    result->names.insert(f->getName());
  }
  for (const llvm::Function &f : m)
    result->function_order.push_back(f.getName().str());
  // Step 2: keep their bodies as bitcode, leave declarations.
  llvm::raw_svector_ostream os(result->bitcode);
  llvm::WriteBitcodeToFile(m, os);
  if (result->compile_units > 0)
    for (llvm::Function *f : aside)
      result->debug[f->getName()] = KeepDebugInfo(*f);
  for (llvm::Function *f : aside)
    f->deleteBody();
  // The declarations left, and what the set-aside code uses, must keep
  // their names: were one deleted, the optimizer could create another
  // global of that name (a library call) that the linker would then bind
  // to the set-aside one.
  llvm::SmallPtrSet<const llvm::GlobalValue *, 8> listed;
  for (const char *list : {"llvm.used", "llvm.compiler.used"})
    if (const llvm::GlobalVariable *gv = m.getNamedGlobal(list))
      if (gv->hasInitializer())
        for (const llvm::Use &op : gv->getInitializer()->operands())
          if (auto *g = llvm::dyn_cast<llvm::GlobalValue>(
                  op.get()->stripPointerCasts()))
            listed.insert(g);
  llvm::SmallVector<llvm::GlobalValue *, 64> anchors;
  for (llvm::Function *f : aside)
    if (!listed.contains(f))
      anchors.push_back(f);
  for (llvm::GlobalValue *g : used) {
    auto *f = llvm::dyn_cast<llvm::Function>(g);
    if (!listed.contains(g) && !(f && (aside.contains(f) || f->isIntrinsic())))
      anchors.push_back(g);
  }
  for (llvm::GlobalValue *g : anchors)
    result->anchors.insert(g->getName());
  llvm::appendToCompilerUsed(m, anchors);
  return result;
}

absl::Status RestoreSetAside(llvm::Module &m,
                             std::unique_ptr<SetAsideFunctions> aside) {
  if (!aside)
    return absl::OkStatus();
  llvm::MemoryBufferRef buffer(
      llvm::StringRef(aside->bitcode.data(), aside->bitcode.size()),
      "set-aside functions");
  llvm::Expected<std::unique_ptr<llvm::Module>> src =
      llvm::getLazyBitcodeModule(buffer, m.getContext());
  if (!src)
    return Internal(llvm::toString(src.takeError()));
  if (llvm::Error e = KeepOnlySetAside(**src, aside->names))
    return Internal(llvm::toString(std::move(e)));
  {
    CollectedDiagnostics diagnostics(m.getContext());
    if (llvm::Linker::linkModules(m, std::move(*src)))
      return Internal(diagnostics.text());
  }
  for (const ChangedGlobal &c : aside->changed) {
    llvm::GlobalValue *g = m.getNamedValue(c.name);
    if (!g) {
      if (aside->names.contains(c.name))
        return Internal(absl::StrCat("`", c.name, "` did not come back"));
      continue; // post-optimization removed a declaration nothing uses
    }
    g->setLinkage(c.linkage);
    if (c.had_comdat) {
      llvm::Comdat *comdat = m.getOrInsertComdat(c.comdat);
      comdat->setSelectionKind(c.comdat_kind);
      llvm::cast<llvm::GlobalObject>(g)->setComdat(comdat);
    }
  }
  llvm::removeFromUsedLists(m, [&](llvm::Constant *c) {
    auto *g = llvm::dyn_cast<llvm::GlobalValue>(c->stripPointerCasts());
    return g && g->hasName() && aside->anchors.contains(g->getName());
  });
  for (const auto &entry : aside->debug)
    if (llvm::Function *f = m.getFunction(entry.getKey()))
      RestoreDebugInfo(*f, entry.getValue());
  MergeCompileUnits(m, aside->compile_units);
  RestoreFunctionOrder(m, aside->function_order);
  for (const ChangedGlobal &c : aside->changed)
    if (c.unnamed)
      if (llvm::GlobalValue *g = m.getNamedValue(c.name))
        g->setName("");
  return absl::OkStatus();
}

} // namespace autodiff
