//===- codegen/Annotations.cpp - Requests from annotate attributes --------===//
//
// Design. C and C++ have no `#[autodiff]`, but clang turns
// `__attribute__((annotate("autodiff_reverse(d_f, Active, Active)")))` on a
// function into an entry `{ptr @f, ptr @.str, ptr @.file, i32 line, ptr}` of
// the appending global `llvm.global.annotations`. Each entry whose string
// starts with `autodiff_forward` or `autodiff_reverse` becomes a request
// without a signature (the LLVM parameters are the source parameters).
//
// Requests are validated here already (against SignatureFromLlvm, exactly
// as LowerAutoDiff will), because only here is the C file and line known;
// every problem becomes one line "FILE:LINE: ...". The module is changed
// only when all entries are fine: consumed entries are removed (the global
// too when none is left, with the strings only it used), others stay.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "frontend/Abi.h"
#include "frontend/Validate.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <tuple>

namespace autodiff {
namespace {

constexpr const char *kAnnotations = "llvm.global.annotations";

/// The C string a global annotation operand points to, or "".
std::string StringOf(llvm::Value *v) {
  llvm::StringRef s;
  if (llvm::getConstantStringInfo(v->stripPointerCasts(), s))
    return s.str();
  return "";
}

bool IsAutodiffAnnotation(const std::string &text) {
  absl::string_view t = absl::StripLeadingAsciiWhitespace(text);
  // Any continuation counts (a space before `(`, a typo): the parser then
  // accepts it or says what is wrong, instead of ignoring it silently. So
  // does any other spelling of a mode with an argument list
  // (`autodiff_fwd(...)`, `AUTODIFF_FORWARD(...)`, `autodiff(...)`): the
  // parser names the modes it knows.
  if (absl::StartsWith(t, "autodiff_forward") ||
      absl::StartsWith(t, "autodiff_reverse"))
    return true;
  return absl::StartsWithIgnoreCase(t, "autodiff") &&
         t.find('(') != absl::string_view::npos;
}

/// Drops globals only the removed annotation entries referred to.
void EraseDeadStrings(const llvm::SetVector<llvm::GlobalVariable *> &strings) {
  for (llvm::GlobalVariable *gv : strings) {
    gv->removeDeadConstantUsers();
    if (gv->use_empty() && gv->hasLocalLinkage())
      gv->eraseFromParent();
  }
}

} // namespace

absl::StatusOr<std::vector<LoweringRequest>>
CollectAnnotatedRequests(llvm::Module &m) {
  std::vector<LoweringRequest> requests;
  llvm::GlobalVariable *annotations = m.getNamedGlobal(kAnnotations);
  if (!annotations || !annotations->hasInitializer())
    return requests;
  auto *entries =
      llvm::dyn_cast<llvm::ConstantArray>(annotations->getInitializer());
  if (!entries)
    return requests; // zeroinitializer / empty: nothing annotated.

  std::vector<llvm::Constant *> kept;
  // (file, line, message), reported in source order.
  std::vector<std::tuple<std::string, uint64_t, std::string>> errors;
  llvm::SetVector<llvm::GlobalVariable *> strings;
  for (llvm::Use &u : entries->operands()) {
    auto *entry = llvm::dyn_cast<llvm::ConstantStruct>(u.get());
    if (!entry || entry->getNumOperands() < 4) {
      kept.push_back(llvm::cast<llvm::Constant>(u.get()));
      continue;
    }
    std::string text = StringOf(entry->getOperand(1));
    if (!IsAutodiffAnnotation(text)) {
      kept.push_back(entry);
      continue;
    }
    std::string file = StringOf(entry->getOperand(2));
    uint64_t line = 0;
    if (auto *ci = llvm::dyn_cast<llvm::ConstantInt>(entry->getOperand(3)))
      line = ci->getZExtValue();
    std::string origin =
        absl::StrCat(file.empty() ? "<unknown>" : file, ":", line);
    std::string loc = origin + ": ";
    for (unsigned i : {1u, 2u})
      if (auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(
              entry->getOperand(i)->stripPointerCasts()))
        strings.insert(gv);

    auto *fn = llvm::dyn_cast<llvm::Function>(
        entry->getOperand(0)->stripPointerCasts());
    if (!fn) {
      errors.emplace_back(
          file, line,
          absl::StrCat(loc, "annotation `", text, "` must be on a function"));
      continue;
    }
    std::string where = absl::StrCat(loc, "in annotation `", text, "` on `",
                                     fn->getName().str(), "`: ");
    absl::StatusOr<ParsedAttribute> attr = ParseAutodiffAttribute(text);
    if (!attr.ok()) {
      errors.emplace_back(file, line,
                          absl::StrCat(where, attr.status().message()));
      continue;
    }
    SourceSignature sig = SignatureFromLlvm(*fn);
    absl::StatusOr<AutoDiffItem> item = MakeAutoDiffItem(sig, *attr);
    absl::Status planned = item.status();
    if (planned.ok())
      planned = PlanLowering(sig, *item).status();
    if (!planned.ok()) {
      errors.emplace_back(file, line, absl::StrCat(loc, planned.message()));
      continue;
    }
    LoweringRequest req;
    req.source = fn->getName().str();
    req.attr = *std::move(attr);
    req.origin = origin;
    requests.push_back(std::move(req));
  }
  if (!errors.empty()) {
    std::stable_sort(errors.begin(), errors.end());
    std::vector<std::string> lines;
    for (const auto &e : errors)
      lines.push_back(std::get<2>(e));
    return absl::InvalidArgumentError(absl::StrJoin(lines, "\n"));
  }
  if (requests.empty())
    return requests;

  if (kept.empty()) {
    annotations->eraseFromParent();
  } else {
    auto *type =
        llvm::ArrayType::get(entries->getType()->getElementType(), kept.size());
    auto *replacement = new llvm::GlobalVariable(
        m, type, annotations->isConstant(), annotations->getLinkage(),
        llvm::ConstantArray::get(type, kept), "", annotations);
    replacement->setSection(annotations->getSection());
    replacement->takeName(annotations);
    annotations->eraseFromParent();
  }
  EraseDeadStrings(strings);
  return requests;
}

} // namespace autodiff
