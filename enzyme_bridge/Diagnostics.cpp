//===- enzyme_bridge/Diagnostics.cpp - Messages naming IR places ----------===//
//
// The location payload is text: one line per problem, its fields separated
// by tabs (function, line, column, directory, file); tabs and newlines in
// names are replaced by spaces so the record stays parseable.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"

#include "llvm/IR/ValueHandle.h"

#include "absl/strings/cord.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/raw_ostream.h"

namespace autodiff {

std::string ValueToString(const llvm::Value &v, size_t max_chars) {
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
  // And a trailing attribute group reference (` #3`), meaningless alone.
  size_t hash = s.rfind(" #");
  if (hash != std::string::npos && hash + 2 < s.size() &&
      s.find_first_not_of("0123456789", hash + 2) == std::string::npos)
    s = s.substr(0, hash);
  for (char &c : s)
    if (c == '\n')
      c = ' ';
  // A metadata node passed as an operand prints as its address (only
  // intrinsic calls get numbered metadata operands): show it as a node.
  for (size_t at = s.find("<0x"); at != std::string::npos;
       at = s.find("<0x", at)) {
    size_t end = s.find('>', at);
    if (end == std::string::npos)
      break;
    s.replace(at, end + 1 - at, "!{...}");
  }
  if (max_chars > 3 && s.size() > max_chars)
    s = s.substr(0, max_chars - 3) + "...";
  return s;
}

std::string DescribeOperation(const llvm::Instruction &inst) {
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
    if (call->isInlineAsm())
      return "inline assembly";
    const char *verb = llvm::isa<llvm::InvokeInst>(call) ? "invoke of "
                       : llvm::isa<llvm::CallBrInst>(call) ? "callbr to "
                                                            : "call to ";
    const llvm::Value *callee = call->getCalledOperand()->stripPointerCasts();
    if (const auto *f = llvm::dyn_cast<llvm::Function>(callee))
      return verb + (f->hasName() ? "`" + f->getName().str() + "`"
                                  : std::string("an unnamed function"));
    std::string operand;
    llvm::raw_string_ostream os(operand);
    call->getCalledOperand()->printAsOperand(os, /*PrintType=*/false);
    return std::string(llvm::isa<llvm::InvokeInst>(call) ? "indirect invoke"
                                                          : "indirect call") +
           " through `" + os.str() + "`";
  }
  std::string op = inst.getOpcodeName();
  if (const auto *rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst))
    op += " " +
          llvm::AtomicRMWInst::getOperationName(rmw->getOperation()).str();
  else if (const auto *cmp = llvm::dyn_cast<llvm::CmpInst>(&inst))
    op += " " + llvm::CmpInst::getPredicateName(cmp->getPredicate()).str();
  return "`" + op + "`";
}

ProblemLocation LocationOf(const llvm::Instruction &inst) {
  ProblemLocation loc;
  if (const llvm::Function *f = inst.getFunction())
    loc.function = f->hasFnAttribute(kPrimalAttr)
                       ? f->getFnAttribute(kPrimalAttr).getValueAsString().str()
                       : f->getName().str();
  if (const llvm::DebugLoc &dl = inst.getDebugLoc()) {
    if (auto *scope = llvm::dyn_cast_or_null<llvm::DIScope>(dl.getScope())) {
      loc.file = scope->getFilename().str();
      loc.directory = scope->getDirectory().str();
    }
    loc.line = dl.getLine();
    loc.column = dl.getCol();
  }
  return loc;
}

std::string DescribePlace(const llvm::Instruction &inst) {
  std::string s = "in function `";
  const llvm::Function *f = inst.getFunction();
  // Inside a generated derivative, name the user's function.
  if (f && f->hasFnAttribute(kPrimalAttr)) {
    // A split derivative's halves are cut from one combined function
    // named after the augmented half (ReverseSplit.cpp).
    llvm::StringRef name = f->getName();
    name.consume_back(".combined");
    s += f->getFnAttribute(kPrimalAttr).getValueAsString().str() +
         "` (while generating `" + name.str() + "`)";
  }
  else
    s += (f ? f->getName().str() : "<none>") + "`";
  s += ", " + DescribeOperation(inst);
  if (inst.getDebugLoc()) {
    ProblemLocation loc = LocationOf(inst);
    s += " at " + loc.file + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.column);
  }
  return s;
}

std::string NoShadowAdvice(const llvm::Value &dest) {
  const llvm::Value *obj = llvm::getUnderlyingObject(&dest, /*MaxLookup=*/0);
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(obj))
    if (const llvm::Function *callee = call->getCalledFunction())
      if (callee->getName() == "realloc" || callee->getName() == "reallocf")
        return "the memory comes from `" + callee->getName().str() +
               "`, which reverse mode does not support yet on active data";
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(obj))
    if (const llvm::Function *callee = call->getCalledFunction())
      if (callee->getName() == "__cxa_allocate_exception")
        return "the memory is a C++ exception object: an active value "
               "thrown as an exception has no derivative (throw a value that "
               "does not depend on the active inputs, or return the value "
               "instead)";
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(obj))
    if (const llvm::Function *callee = call->getCalledFunction())
      if (callee->isDeclaration())
        return "the pointer comes from a call to `" + callee->getName().str() +
               "`, which has no body and no derivative rule, so its shadow "
               "cannot be made (give its definition to the module, or "
               "register a custom derivative)";
  if (const auto *arg = llvm::dyn_cast<llvm::Argument>(obj))
    return "the pointer comes from " +
           (arg->hasName() ? "argument `" + arg->getName().str() + "`"
                           : std::string("an argument")) +
           ", which has no shadow: pass it with enzyme_dup (Duplicated)";
  if (llvm::isa<llvm::LoadInst>(obj) || llvm::isa<llvm::PHINode>(obj) ||
      llvm::isa<llvm::SelectInst>(obj) || llvm::isa<llvm::IntToPtrInst>(obj))
    return "the pointer is read from memory or computed in a way whose "
           "shadow the analyses cannot follow (a pointer kept beside "
           "constant ones, an address computed on integers)";
  const auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(obj);
  if (!gv || !gv->hasName())
    return "pass it with enzyme_dup, or, if it is a global, give the global a "
           "shadow: in C, `void *__enzyme_shadow_global_NAME[2] = {&global, "
           "&shadow};`; in IR, `!enzyme_shadow !{ptr @shadow}` on the global";
  std::string g = gv->getName().str();
  // A static variable local to a function: clang names it `f.var` in C
  // and `_ZZ...` in C++; no C declaration at file scope can name it.
  size_t dot = g.find('.');
  if ((dot != std::string::npos && dot > 0 && dot + 1 < g.size()) ||
      llvm::StringRef(g).starts_with("_ZZ")) {
    bool in_c = dot != std::string::npos && !llvm::StringRef(g).starts_with("_Z");
    // `f.var`, or `f.var.body` where the optimizer made a global of the
    // memory it points to.
    std::string var = in_c ? g.substr(dot + 1, g.find('.', dot + 1) - dot - 1)
                           : "the variable";
    return "`" + g + "` belongs to " +
           (in_c ? "the static variable `" + var + "` local to function `" +
                       g.substr(0, dot) + "`"
                 : std::string("a static variable local to a function")) +
           ", which C and C++ code cannot register a shadow for: declare " +
           (in_c ? "`" + var + "`" : var) +
           " at file scope and register it there (`void "
           "*__enzyme_shadow_global_NAME[2] = {&NAME, &d_NAME};`), or, in "
           "IR, put `!enzyme_shadow !{ptr @d}` on `@" + g + "`";
  }
  return "give the global `" + g + "` a shadow (a global `d_" + g +
         "` of the same type): in C, `void *__enzyme_shadow_global_" + g +
         "[2] = {&" + g + ", &d_" + g + "};`; in IR, `!enzyme_shadow !{ptr @d_" +
         g + "}` on `@" + g + "`";
}

namespace {

std::string Field(std::string s) {
  for (char &c : s)
    if (c == '\t' || c == '\n')
      c = ' ';
  return s;
}

std::string Encode(const ProblemLocation &loc) {
  return Field(loc.function) + "\t" + std::to_string(loc.line) + "\t" +
         std::to_string(loc.column) + "\t" + Field(loc.directory) + "\t" +
         Field(loc.file);
}

std::optional<ProblemLocation> Decode(llvm::StringRef record) {
  llvm::SmallVector<llvm::StringRef, 5> fields;
  record.split(fields, '\t', /*MaxSplit=*/4);
  if (fields.size() != 5)
    return std::nullopt;
  ProblemLocation loc;
  loc.function = fields[0].str();
  if (fields[1].getAsInteger(10, loc.line) ||
      fields[2].getAsInteger(10, loc.column))
    return std::nullopt;
  loc.directory = fields[3].str();
  loc.file = fields[4].str();
  return loc;
}

/// The payload's records (one per line), or none.
std::optional<std::vector<std::string>> Records(const absl::Status &s) {
  auto payload = s.GetPayload(kLocationPayload);
  if (!payload)
    return std::nullopt;
  std::string text(*payload);
  std::vector<std::string> out;
  llvm::SmallVector<llvm::StringRef, 4> lines;
  llvm::StringRef(text).split(lines, '\n');
  for (llvm::StringRef l : lines)
    out.push_back(l.str());
  return out;
}

} // namespace

namespace {
thread_local llvm::WeakVH last_problem;
} // namespace

llvm::Instruction *LastProblemInstruction() {
  return llvm::dyn_cast_or_null<llvm::Instruction>(last_problem);
}

void ClearLastProblemInstruction() { last_problem = nullptr; }

absl::Status ErrorAt(absl::StatusCode code, const llvm::Instruction &inst,
                     const std::string &message) {
  last_problem = const_cast<llvm::Instruction *>(&inst);
  absl::Status s(code, DescribePlace(inst) + ": " + message +
                           "\n  instruction: " + ValueToString(inst, 300));
  // Cord's string_view constructor: its std::string one is a template whose
  // mangled name differs between g++ and clang++ builds of Abseil.
  std::string location = Encode(LocationOf(inst));
  s.SetPayload(kLocationPayload, absl::Cord(absl::string_view(location)));
  return s;
}

std::string FirstLine(const absl::Status &s) {
  std::string m(s.message());
  return m.substr(0, m.find('\n'));
}

std::vector<std::string> SplitProblems(absl::string_view message) {
  std::vector<std::string> problems;
  llvm::SmallVector<llvm::StringRef, 8> lines;
  llvm::StringRef(message.data(), message.size()).split(lines, '\n');
  for (llvm::StringRef l : lines) {
    if (!problems.empty() && (l.starts_with(" ") || l.starts_with("\t")))
      problems.back() += "\n" + l.str();
    else
      problems.push_back(l.str());
  }
  return problems;
}

absl::Status JoinProblems(llvm::ArrayRef<absl::Status> problems) {
  if (problems.empty())
    return absl::OkStatus();
  std::string message;
  std::vector<std::string> records;
  for (const absl::Status &p : problems) {
    message += (message.empty() ? "" : "\n") + std::string(p.message());
    size_t count = SplitProblems(p.message()).size();
    std::optional<std::vector<std::string>> own = Records(p);
    if (own && own->size() == count)
      records.insert(records.end(), own->begin(), own->end());
    else
      records.insert(records.end(), count, Encode(ProblemLocation()));
  }
  absl::Status s(problems.front().code(), message);
  std::string joined = llvm::join(records, "\n");
  s.SetPayload(kLocationPayload, absl::Cord(absl::string_view(joined)));
  return s;
}

std::optional<std::vector<ProblemLocation>>
ProblemLocations(const absl::Status &s) {
  std::optional<std::vector<std::string>> records = Records(s);
  if (!records || records->size() != SplitProblems(s.message()).size())
    return std::nullopt;
  std::vector<ProblemLocation> out;
  for (const std::string &r : *records) {
    std::optional<ProblemLocation> loc = Decode(r);
    if (!loc)
      return std::nullopt;
    out.push_back(*loc);
  }
  return out;
}

} // namespace autodiff
