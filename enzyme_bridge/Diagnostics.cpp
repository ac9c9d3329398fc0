//===- enzyme_bridge/Diagnostics.cpp - Messages naming IR places ----------===//
#include "enzyme_bridge/Diagnostics.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/Support/raw_ostream.h"

namespace autodiff {

std::string ValueToString(const llvm::Value &v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  v.print(os);
  os.flush();
  // Drop metadata attachments and leading spaces; keep it one line.
  size_t start = s.find_first_not_of(' ');
  s = start == std::string::npos ? s : s.substr(start);
  size_t md = s.find(", !");
  if (md != std::string::npos)
    s = s.substr(0, md);
  if (s.size() > 200)
    s = s.substr(0, 197) + "...";
  return s;
}

std::string DescribePlace(const llvm::Instruction &inst) {
  std::string s = "in function `";
  const llvm::Function *f = inst.getFunction();
  // Inside a generated derivative, name the user's function.
  if (f && f->hasFnAttribute(kPrimalAttr))
    s += f->getFnAttribute(kPrimalAttr).getValueAsString().str() +
         "` (while generating `" + f->getName().str() + "`)";
  else
    s += (f ? f->getName().str() : "<none>") + "`";
  s += ", instruction `" + ValueToString(inst) + "`";
  if (const llvm::DebugLoc &dl = inst.getDebugLoc()) {
    s += " at ";
    if (auto *scope = llvm::dyn_cast_or_null<llvm::DIScope>(dl.getScope()))
      s += scope->getFilename().str();
    s += ":" + std::to_string(dl.getLine()) + ":" + std::to_string(dl.getCol());
  }
  return s;
}

absl::Status ErrorAt(absl::StatusCode code, const llvm::Instruction &inst,
                     const std::string &message) {
  return absl::Status(code, DescribePlace(inst) + ": " + message);
}

} // namespace autodiff
