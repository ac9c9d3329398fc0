//===- tools/autodiff-opt/autodiff-opt.cpp - The autodiff driver ----------===//
//
// Design. A thin command-line shell around RunAutodiffPipeline: read a .ll
// or .bc module, turn each `--autodiff SPEC` into a LoweringRequest (the
// annotations in the module are picked up by the pipeline), run, and write
// the result. Options are parsed by hand because LLVM-style single-dash
// flags (`-O2`, `-S`, `-o FILE`) are expected. Every failure prints
// `autodiff-opt: error: MESSAGE` (one line per problem) and exits with 1;
// the output is produced in memory first and written only on success, so a
// failed run never leaves a partial file.
//
//===----------------------------------------------------------------------===//
#include "codegen/Pipeline.h"
#include "frontend/Parser.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr const char *kUsage = R"(USAGE: autodiff-opt INPUT [options]

Lowers autodiff requests into __enzyme_* calls, differentiates them and
optimizes the result. INPUT is a .ll or .bc file, or - for stdin.

OPTIONS:
  -o FILE                 Output file (default: - for stdout)
  -S                      Write textual IR (default when FILE ends in .ll or is -)
  -O0 -O1 -O2 -O3 -Os -Oz Optimization after differentiation (default -O2)
  --pre-opt=O0|O1|O2|O3   Optimize before differentiation (default: none)
  --autodiff SPEC         A request, repeatable: NAME=ATTR or
                          'NAME(x: &[f64], y: f64) -> f64=autodiff_reverse(d, Duplicated, Active, Active)'
  --replace-targets       Let requests replace a target that has a real body
                          (by default only a missing target, a declaration or
                          a placeholder is given a body)
  --no-annotations        Ignore autodiff_* annotations in llvm.global.annotations
  --stop-after-lowering   Stop once the requests are lowered into __enzyme_* calls
  --no-postopt            Skip the optimization after differentiation
  --print-module-before   Print the module to stderr right before differentiation
  --print-module-after    Print the module to stderr right after differentiation
  --help                  Show this message
)";

struct Args {
  std::string input;
  std::string output = "-";
  bool text = false;
  std::vector<std::string> specs;
  autodiff::PipelineOptions pipeline;
};

int Fail(std::string_view message) {
  // One "autodiff-opt: error:" per problem of a multi-problem message; a
  // problem's indented continuation lines are printed as they are.
  size_t start = 0;
  while (start <= message.size()) {
    size_t end = message.find('\n', start);
    if (end == std::string_view::npos)
      end = message.size();
    llvm::StringRef line(message.data() + start, end - start);
    if (!line.trim().empty())
      llvm::errs() << (line.starts_with(" ") ? "" : "autodiff-opt: error: ")
                   << line << "\n";
    start = end + 1;
  }
  return 1;
}

/// Parses argv; returns an error message, "" on success, or "help".
std::string ParseArgs(int argc, char **argv, Args &args) {
  bool have_input = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    // Value of an option given as `--opt=V` or `--opt V`.
    auto value = [&](std::string_view name, std::string &out) -> int {
      if (a == name) {
        if (i + 1 >= argc)
          return -1;
        out = argv[++i];
        return 1;
      }
      if (a.size() > name.size() && a.substr(0, name.size()) == name &&
          a[name.size()] == '=') {
        out = std::string(a.substr(name.size() + 1));
        return 1;
      }
      return 0;
    };
    std::string v;
    if (a == "--help" || a == "-help" || a == "-h")
      return "help";
    if (int r = value("-o", v)) {
      if (r < 0)
        return "-o needs a file name";
      args.output = v;
    } else if (a.size() > 2 && a.substr(0, 2) == "-o" && a[2] != '=') {
      args.output = std::string(a.substr(2));
    } else if (a == "-S") {
      args.text = true;
    } else if (int r = value("--autodiff", v)) {
      if (r < 0)
        return "--autodiff needs a value";
      args.specs.push_back(v);
    } else if (int r = value("--pre-opt", v)) {
      std::optional<autodiff::OptLevel> level = autodiff::ParseOptLevel(v);
      if (r < 0 || !level || *level == autodiff::OptLevel::Os ||
          *level == autodiff::OptLevel::Oz)
        return "--pre-opt takes O0, O1, O2 or O3";
      args.pipeline.pre_opt = level;
    } else if (a.size() == 3 && a.substr(0, 2) == "-O") {
      std::optional<autodiff::OptLevel> level =
          autodiff::ParseOptLevel(a.substr(1));
      if (!level)
        return "unknown optimization level `" + std::string(a) + "`";
      args.pipeline.post_opt = *level;
    } else if (a == "--stop-after-lowering") {
      args.pipeline.stop_after_lowering = true;
    } else if (a == "--no-postopt") {
      args.pipeline.no_postopt = true;
    } else if (a == "--replace-targets") {
      args.pipeline.replace_defined_targets = true;
    } else if (a == "--no-annotations") {
      args.pipeline.use_annotations = false;
    } else if (a == "--print-module-before") {
      args.pipeline.print_module_before = true;
    } else if (a == "--print-module-after") {
      args.pipeline.print_module_after = true;
    } else if (a.size() > 1 && a[0] == '-') {
      return "unknown option `" + std::string(a) + "` (see --help)";
    } else if (have_input) {
      return "more than one input file (`" + args.input + "` and `" +
             std::string(a) + "`)";
    } else {
      args.input = std::string(a);
      have_input = true;
    }
  }
  if (!have_input)
    return "no input file (see --help)";
  return "";
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Args args;
  std::string problem = ParseArgs(argc, argv, args);
  if (problem == "help") {
    llvm::outs() << kUsage;
    return 0;
  }
  if (!problem.empty())
    return Fail(problem);

  std::vector<autodiff::LoweringRequest> requests;
  for (const std::string &spec : args.specs) {
    absl::StatusOr<autodiff::LoweringRequest> req =
        autodiff::ParseLoweringRequest(spec);
    if (!req.ok())
      return Fail("--autodiff " + std::string(req.status().message()));
    requests.push_back(*std::move(req));
  }

  llvm::LLVMContext ctx;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = llvm::parseIRFile(args.input, diag, ctx);
  if (!m) {
    std::string where = args.input;
    if (diag.getLineNo() > 0)
      where += ":" + std::to_string(diag.getLineNo()) + ":" +
               std::to_string(diag.getColumnNo() + 1);
    return Fail(where + ": " + diag.getMessage().str());
  }

  absl::Status status =
      autodiff::RunAutodiffPipeline(*m, requests, args.pipeline);
  if (!status.ok())
    return Fail(std::string(status.message()));

  bool text = args.text || args.output == "-" || EndsWith(args.output, ".ll");
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  if (text)
    m->print(os, nullptr);
  else
    llvm::WriteBitcodeToFile(*m, os);

  std::error_code ec;
  llvm::ToolOutputFile out(
      args.output, ec, text ? llvm::sys::fs::OF_Text : llvm::sys::fs::OF_None);
  if (ec)
    return Fail("cannot open `" + args.output + "`: " + ec.message());
  out.os() << buffer;
  out.os().flush();
  if (out.os().has_error()) {
    out.os().clear_error();
    return Fail("cannot write `" + args.output + "`");
  }
  out.keep();
  return 0;
}
