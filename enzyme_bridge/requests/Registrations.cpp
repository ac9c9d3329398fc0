//===- enzyme_bridge/Registrations.cpp - C-level registration globals -----===//
#include "enzyme_bridge/requests/Registrations.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

using namespace llvm;

namespace autodiff {
namespace {

/// The shadow `!enzyme_shadow` gives `gv`, if any.
const Value *ShadowOf(const GlobalVariable &gv) {
  const MDNode *md = gv.getMetadata("enzyme_shadow");
  if (!md || md->getNumOperands() == 0)
    return nullptr;
  if (const auto *c = dyn_cast<ConstantAsMetadata>(md->getOperand(0)))
    return c->getValue()->stripPointerCasts();
  return nullptr;
}

/// Registers the shadow of one `__enzyme_shadow_global*` global; "" or the
/// problem.
std::string Apply(GlobalVariable &reg) {
  std::string name = "`" + reg.getName().str() + "`";
  std::string expected = " must be `void *" + reg.getName().str() +
                         "[2] = {&global, &shadow};`";
  if (!reg.hasInitializer())
    return name + " is only declared; it" + expected;
  // An array in C; rustc writes `[*const T; 2]` as a packed struct.
  const auto *init = dyn_cast<ConstantAggregate>(reg.getInitializer());
  if (!init || isa<ConstantVector>(init) || init->getNumOperands() != 2)
    return name + expected;
  auto *global =
      dyn_cast<GlobalVariable>(init->getOperand(0)->stripPointerCasts());
  auto *shadow =
      dyn_cast<GlobalVariable>(init->getOperand(1)->stripPointerCasts());
  if (!global || !shadow)
    return name + expected + " (both elements the addresses of global "
                             "variables)";
  std::string g = "`" + global->getName().str() + "`";
  std::string s = "`" + shadow->getName().str() + "`";
  if (global == shadow)
    return name + ": " + g + " cannot be its own shadow";
  if (global->isConstant())
    return name + ": " + g +
           " is constant, so its loads may be folded away and it cannot "
           "carry a derivative; declare it without const";
  if (shadow->isConstant())
    return name + ": the shadow " + s + " is constant; it must be writable";
  const DataLayout &dl = reg.getParent()->getDataLayout();
  uint64_t gs = dl.getTypeAllocSize(global->getValueType());
  uint64_t ss = dl.getTypeAllocSize(shadow->getValueType());
  if (gs != ss)
    return name + ": the shadow " + s + " has " + std::to_string(ss) +
           " bytes, but " + g + " has " + std::to_string(gs) +
           "; it must have the same type";
  if (const Value *old = ShadowOf(*global)) {
    if (old == shadow)
      return "";
    return name + ": " + g + " already has the shadow `" +
           old->getName().str() + "`";
  }
  LLVMContext &ctx = reg.getContext();
  global->setMetadata("enzyme_shadow",
                      MDNode::get(ctx, {ConstantAsMetadata::get(shadow)}));
  return "";
}

/// OK, or InvalidArgument with one line per problem.
absl::Status JoinLines(const std::vector<std::string> &problems) {
  if (problems.empty())
    return absl::OkStatus();
  std::string msg;
  for (const std::string &p : problems)
    msg += (msg.empty() ? "" : "\n") + p;
  return absl::InvalidArgumentError(msg);
}

/// The elements of a registration's initializer (one, or an array's or a
/// struct's: rustc writes arrays of pointers as packed structs).
SmallVector<const Constant *, 4> Elements(const GlobalVariable &reg) {
  SmallVector<const Constant *, 4> out;
  const Constant *init = reg.getInitializer();
  if (const auto *arr = dyn_cast<ConstantAggregate>(init);
      arr && !isa<ConstantVector>(arr)) {
    for (const Use &op : arr->operands())
      out.push_back(cast<Constant>(op.get())->stripPointerCasts());
  } else {
    out.push_back(init->stripPointerCasts());
  }
  return out;
}

/// `__enzyme_register_derivative*` and `__enzyme_register_gradient*`: the
/// shape, and one rule per function.
void CheckRuleShapes(Module &m, std::vector<std::string> &problems) {
  // One rule of each kind per function: a forward derivative and a
  // gradient rule for the same function are both welcome.
  DenseMap<std::pair<const Function *, int>,
           std::pair<const GlobalVariable *, SmallVector<const Constant *, 4>>>
      seen;
  for (GlobalVariable &reg : m.globals()) {
    StringRef name = reg.getName();
    bool forward = name.starts_with("__enzyme_register_derivative");
    bool gradient = name.starts_with("__enzyme_register_gradient");
    if ((!forward && !gradient) || !reg.hasInitializer())
      continue;
    SmallVector<const Constant *, 4> elems = Elements(reg);
    std::string quoted = "`" + name.str() + "`";
    if (forward && (elems.size() != 2 || !isa<Function>(elems[0]) ||
                    !isa<Function>(elems[1]))) {
      problems.push_back(quoted + " must be `void *" + name.str() +
                         "[2] = {fn, derivative};` (two functions)");
      continue;
    }
    const auto *fn = dyn_cast<Function>(elems[0]);
    if (!fn)
      continue; // A gradient rule's shape is checked where it is used.
    auto [it, fresh] = seen.try_emplace({fn, forward ? 1 : 0}, &reg, elems);
    if (fresh || it->second.second == elems)
      continue;
    problems.push_back(quoted + " and `" + it->second.first->getName().str() +
                       "` register different " +
                       (forward ? "derivatives" : "gradient rules") +
                       " for `" + fn->getName().str() +
                       "`; keep one");
  }
}

/// `__enzyme_inactivefn*` lists functions, `__enzyme_inactive_global*`
/// global variables.
void CheckInactiveLists(Module &m, std::vector<std::string> &problems) {
  for (GlobalVariable &reg : m.globals()) {
    StringRef name = reg.getName();
    bool fns = name.starts_with("__enzyme_inactivefn");
    bool globals = name.starts_with("__enzyme_inactive_global");
    if ((!fns && !globals) || !reg.hasInitializer())
      continue;
    for (const Constant *e : Elements(reg)) {
      if (fns ? isa<Function>(e) : isa<GlobalVariable>(e))
        continue;
      std::string what;
      raw_string_ostream os(what);
      e->printAsOperand(os, /*PrintType=*/false);
      problems.push_back("`" + name.str() + "` lists " + what + ", which " +
                         (fns ? "is not a function"
                              : "is not a global variable") +
                         " (it must be `void *" + name.str() + "[] = {" +
                         (fns ? "fn" : "&global") + ", ...};`)");
    }
  }
}

} // namespace

absl::Status CheckRuleRegistrations(Module &m) {
  std::vector<std::string> problems;
  CheckRuleShapes(m, problems);
  CheckInactiveLists(m, problems);
  return JoinLines(problems);
}

absl::Status ApplyShadowRegistrations(Module &m) {
  std::vector<std::string> problems;
  for (GlobalVariable &gv : m.globals())
    if (gv.getName().starts_with(kShadowGlobalPrefix)) {
      std::string p = Apply(gv);
      if (!p.empty())
        problems.push_back(p);
    }
  if (problems.empty()) {
    // The optimizer folds addresses into a global into constant
    // expressions (`getelementptr (i8, ptr @table, i64 8)` as a load's
    // operand). As instructions they get shadows like any address.
    SmallVector<Constant *, 8> shadowed;
    for (GlobalVariable &gv : m.globals())
      if (ShadowOf(gv))
        shadowed.push_back(&gv);
    convertUsersOfConstantsToInstructions(shadowed);
    return absl::OkStatus();
  }
  return JoinLines(problems);
}

} // namespace autodiff
