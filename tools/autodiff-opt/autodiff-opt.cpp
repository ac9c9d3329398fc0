//===- tools/autodiff-opt/autodiff-opt.cpp - The autodiff driver ----------===//
//
// Design. A thin command-line shell around RunAutodiffPipeline: read a .ll
// or .bc module, turn each `--autodiff SPEC` into a LoweringRequest (the
// annotations in the module are picked up by the pipeline), run, and write
// the result.
//
// Options are parsed by LLVM's CommandLine library, as in LLVM's own tools,
// which brings `--help` / `--help-hidden` in LLVM's format, `--version`,
// response files (`@args`), and LLVM's options for compiler authors:
// `-time-passes`, `-stats`, `-print-after-all`, ... (`-debug-pass-manager`
// is declared here, as in `opt`). The options live in one ToolOptions
// object in main, not in globals, and only the tool's own options and a few
// of LLVM's are shown by `--help`; the rest of LLVM's stay accepted.
//
// Every failure prints `autodiff-opt: error: MESSAGE` (one line per
// problem, continuation lines indented) and exits with 1; the output is
// produced in memory first and written only on success, so a failed run
// never leaves a partial file. The CommandLine library prints its own
// errors in another form, some of them straight to stderr; they are
// captured while parsing and reworded.
//
//===----------------------------------------------------------------------===//
#include "codegen/Pipeline.h"
#include "support/IrText.h"
#include "support/ParseIr.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

#ifndef AUTODIFF_VERSION
#define AUTODIFF_VERSION "unknown"
#endif

namespace {

namespace cl = llvm::cl;

constexpr const char *kOverview = R"(the autodiff driver

Lowers autodiff requests into __enzyme_* calls, differentiates them and
optimizes the result. INPUT is a .ll or .bc file, or - for stdin. Requests
are the module's own __enzyme_fwddiff calls and annotate("autodiff_...")
attributes, and the --autodiff items.

EXAMPLES (from the repository root):
  autodiff-opt examples/functions.ll -S -o square.diff.ll \
    --autodiff 'square=autodiff_forward(d_square, Dual, Dual)'
  autodiff-opt examples/functions.ll -S -o sum_sq.diff.ll \
    --autodiff 'sum_sq(x: &[f64]) -> f64=autodiff_forward(d_sum_sq, Dual, Dual)'
)";

/// The command line, registered with LLVM's CommandLine library while the
/// one instance in main lives.
struct ToolOptions {
  cl::OptionCategory tool{"Autodiff options"};
  cl::OptionCategory llvm_options{
      "LLVM options for compiler authors (all of LLVM's options are "
      "accepted; these are shown)"};

  cl::list<std::string> inputs{cl::Positional, cl::desc("INPUT"),
                               cl::cat(tool)};
  cl::opt<std::string> output{
      "o", cl::desc("Output file (default: - for stdout)"),
      cl::value_desc("file"), cl::init("-"), cl::Prefix, cl::cat(tool)};
  cl::opt<bool> text{
      "S",
      cl::desc("Write textual IR (the default when the output ends in .ll "
               "or is stdout; bitcode otherwise)"),
      cl::cat(tool)};
  cl::opt<std::string> post_opt{
      "O",
      cl::desc("Optimization after differentiation: -O0, -O1, -O2 (default), "
               "-O3, -Os or -Oz"),
      cl::value_desc("level"), cl::AlwaysPrefix, cl::cat(tool)};
  cl::opt<std::string> pre_opt{
      "pre-opt",
      cl::desc("Optimize before differentiation, without unrolling, "
               "vectorization and function merging (default: not at all)"),
      cl::value_desc("O0|O1|O2|O3"), cl::cat(tool)};
  cl::list<std::string> specs{
      "autodiff",
      cl::desc("A request, repeatable: SOURCE=ATTR or SIGNATURE=ATTR, e.g. "
               "'f=autodiff_forward(d_f, Dual, Dual)' or "
               "'f(x: &[f64]) -> f64=autodiff_forward(d_f, Dual, Dual)'"),
      cl::value_desc("SPEC"), cl::cat(tool)};
  cl::opt<bool> replace_targets{
      "replace-targets",
      cl::desc("Let requests replace a target that has a real body (by "
               "default only a missing target, a declaration or a "
               "placeholder is given a body)"),
      cl::cat(tool)};
  cl::opt<bool> no_annotations{
      "no-annotations",
      cl::desc("Ignore annotate(\"autodiff_...\") requests in the module"),
      cl::cat(tool)};
  cl::opt<bool> stop_after_lowering{
      "stop-after-lowering",
      cl::desc("Stop once the requests are lowered into __enzyme_* calls"),
      cl::cat(tool)};
  cl::opt<std::string> derivative_fast_math{
      "derivative-fast-math",
      cl::desc("Fast-math flags for the arithmetic of derivatives (tangents "
               "and adjoints; the primal's own keeps its flags): none, "
               "fast, or a comma-separated list of reassoc, nnan, ninf, "
               "nsz, arcp, contract, afn (default: reassoc,nsz,arcp,"
               "contract)"),
      cl::value_desc("flags"), cl::cat(tool)};
  cl::opt<bool> no_undo_log{
      "no-undo-log",
      cl::desc("In reverse mode, cache the loads that later stores "
               "overwrite instead of logging and undoing the stores (more "
               "tape, often less time)"),
      cl::cat(tool)};
  cl::opt<bool> no_postopt{
      "no-postopt", cl::desc("Skip the optimization after differentiation"),
      cl::cat(tool)};
  cl::opt<bool> postopt_whole_module{
      "postopt-whole-module",
      cl::desc("Optimize every function after differentiation (by default "
               "only the functions differentiation created or changed and "
               "those they reach; the others are left as they came)"),
      cl::cat(tool)};
  cl::opt<bool> print_module_before{
      "print-module-before",
      cl::desc("Print the module to stderr right before differentiation"),
      cl::cat(tool)};
  cl::opt<bool> print_module_after{
      "print-module-after",
      cl::desc("Print the module to stderr right after differentiation"),
      cl::cat(tool)};
  cl::opt<bool> debug_pass_manager{
      "debug-pass-manager",
      cl::desc("Print the autodiff stages and the LLVM passes they run"),
      cl::cat(llvm_options)};
  cl::opt<bool> short_help{"h", cl::desc("Alias for --help"), cl::Hidden,
                           cl::cat(tool)};
};

/// LLVM's own options shown by --help (they are registered by libLLVM).
constexpr const char *kShownLlvmOptions[] = {
    "time-passes", "stats", "print-after-all", "print-before-all",
    "print-changed"};

/// Prints `message` as autodiff-opt's errors and returns the exit status:
/// one "autodiff-opt: error:" per problem of a multi-problem message; a
/// problem's indented continuation lines are printed as they are, empty
/// lines not at all.
int Fail(std::string_view message) {
  llvm::SmallVector<llvm::StringRef, 8> lines;
  llvm::StringRef(message.data(), message.size()).split(lines, '\n');
  for (llvm::StringRef line : lines)
    if (!line.trim().empty())
      llvm::errs() << (line.starts_with(" ") ? "" : "autodiff-opt: error: ")
                   << line << "\n";
  return 1;
}

/// Runs `parse` with stderr (file descriptor 2) sent to a temporary file
/// and returns what was written there: the CommandLine library writes
/// some errors to the stream it is given and others straight to stderr.
template <typename Parse> std::string CaptureStderr(Parse parse) {
  llvm::errs().flush();
  std::FILE *tmp = std::tmpfile();
  int saved = tmp ? dup(STDERR_FILENO) : -1;
  if (saved < 0 || dup2(fileno(tmp), STDERR_FILENO) < 0) {
    if (saved >= 0)
      close(saved);
    if (tmp)
      std::fclose(tmp);
    parse(); // Cannot capture: let the library print as it likes.
    return "";
  }
  parse();
  llvm::errs().flush();
  dup2(saved, STDERR_FILENO);
  close(saved);
  std::string captured;
  std::rewind(tmp);
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, tmp))
    captured.append(buffer, n);
  std::fclose(tmp);
  return captured;
}

/// Rewords the CommandLine library's errors ("autodiff-opt: Unknown command
/// line argument '-x'.  Try: ...", "autodiff-opt: for the --autodiff
/// option: requires a value!") as problems for Fail.
std::string RewordParseErrors(llvm::StringRef captured,
                              llvm::StringRef program) {
  std::string problems;
  llvm::SmallVector<llvm::StringRef, 8> lines;
  captured.split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef line : lines) {
    line = line.rtrim();
    bool own_line = line.consume_front((program + ": ").str());
    std::string problem;
    if (line.consume_front("Unknown command line argument '")) {
      problem = "unknown option `" +
                line.take_until([](char c) { return c == '\''; }).str() +
                "` (see --help)";
    } else if (line.consume_front("Did you mean '")) {
      problem = "  did you mean `" + line.rtrim("'?").str() + "`?";
    } else if (line.consume_front("for the ")) {
      auto [option, rest] = line.split(" option: ");
      problem = rest == "requires a value!"
                    ? option.str() + " needs a value"
                    : option.str() + ": " + rest.rtrim("!").str();
    } else {
      problem = (own_line ? "" : "  ") + line.str();
    }
    problems += (problems.empty() ? "" : "\n") + problem;
  }
  return problems;
}

/// Hides LLVM's hundreds of options from --help, except kShownLlvmOptions.
void ShowOnlyOurOptions(ToolOptions &options) {
  cl::HideUnrelatedOptions({&options.tool, &options.llvm_options});
  auto registered = cl::getRegisteredOptions();
  for (const char *name : kShownLlvmOptions) {
    if (cl::Option *option = registered.lookup(name)) {
      option->setHiddenFlag(cl::NotHidden);
      option->addCategory(options.llvm_options);
    }
  }
  if (cl::Option *stats = registered.lookup("stats"))
    stats->setDescription("Print statistics: autodiff's counters (LLVM's "
                          "own are compiled out of release builds)");
}

/// `-stats` asks for LLVM's statistics. Debian's release build of LLVM
/// compiles LLVM's own counters out, and at exit would only print that
/// they are disabled; autodiff's counters are always enabled. So when
/// `-stats` is given, collection stays on, the exit-time report is turned
/// off, and main prints the counters itself. Returns whether to print.
bool TakeOverStatistics() {
  if (!llvm::AreStatisticsEnabled())
    return false;
  if (cl::Option *stats = cl::getRegisteredOptions().lookup("stats"))
    stats->addOccurrence(0, "stats", "false");
  llvm::EnableStatistics(/*DoPrintOnExit=*/false);
  return true;
}

/// Turns the parsed options into the pipeline's; returns a problem or "".
std::string MakePipelineOptions(const ToolOptions &options,
                                autodiff::PipelineOptions &pipeline) {
  if (options.post_opt.getNumOccurrences()) {
    std::optional<autodiff::OptLevel> level =
        autodiff::ParseOptLevel("O" + options.post_opt);
    if (!level)
      return "unknown optimization level `-O" + options.post_opt + "`";
    pipeline.post_opt = *level;
  }
  if (options.derivative_fast_math.getNumOccurrences()) {
    absl::StatusOr<llvm::FastMathFlags> fmf =
        autodiff::ParseFastMathFlags(options.derivative_fast_math);
    if (!fmf.ok())
      return "--derivative-fast-math: " + std::string(fmf.status().message());
    pipeline.bridge.derivative_fmf = *fmf;
  }
  pipeline.bridge.undo_log = !options.no_undo_log;
  if (options.pre_opt.getNumOccurrences()) {
    std::optional<autodiff::OptLevel> level =
        autodiff::ParseOptLevel(options.pre_opt);
    if (!level || *level == autodiff::OptLevel::Os ||
        *level == autodiff::OptLevel::Oz)
      return "--pre-opt takes O0, O1, O2 or O3";
    pipeline.pre_opt = level;
  }
  pipeline.replace_defined_targets = options.replace_targets;
  pipeline.use_annotations = !options.no_annotations;
  pipeline.stop_after_lowering = options.stop_after_lowering;
  pipeline.no_postopt = options.no_postopt;
  pipeline.postopt_whole_module = options.postopt_whole_module;
  pipeline.print_module_before = options.print_module_before;
  pipeline.print_module_after = options.print_module_after;
  pipeline.debug_pass_manager = options.debug_pass_manager;
  return "";
}

/// Writes `m` to `path` (textual IR or bitcode); returns a problem or "".
std::string WriteModule(const llvm::Module &m, const std::string &path,
                        bool text) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream os(buffer);
  if (text)
    m.print(os, nullptr);
  else
    llvm::WriteBitcodeToFile(m, os);

  std::error_code ec;
  llvm::ToolOutputFile out(
      path, ec, text ? llvm::sys::fs::OF_Text : llvm::sys::fs::OF_None);
  if (ec)
    return "cannot open `" + path + "`: " + ec.message();
  out.os() << buffer;
  out.os().flush();
  if (out.os().has_error()) {
    out.os().clear_error();
    return "cannot write `" + path + "`";
  }
  out.keep();
  return "";
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  ToolOptions options;
  ShowOnlyOurOptions(options);
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "autodiff-opt " AUTODIFF_VERSION "\n  on LLVM " LLVM_VERSION_STRING
          "\n";
  });
  std::string parse_errors;
  llvm::raw_string_ostream parse_errors_os(parse_errors);
  bool parsed = false;
  std::string captured = CaptureStderr([&] {
    parsed =
        cl::ParseCommandLineOptions(argc, argv, kOverview, &parse_errors_os);
  });
  if (!parsed) {
    std::string program = llvm::sys::path::filename(argv[0]).str();
    return Fail(RewordParseErrors(captured + parse_errors, program));
  }
  llvm::errs() << captured; // Warnings, if any, as the library wrote them.
  if (options.short_help) {
    cl::PrintHelpMessage(/*Hidden=*/false, /*Categorized=*/true);
    return 0;
  }
  if (options.inputs.empty())
    return Fail("no input file (see --help)");
  if (options.inputs.size() > 1)
    return Fail("more than one input file (`" + options.inputs[0] + "` and `" +
                options.inputs[1] + "`)");
  const std::string &input = options.inputs[0];

  autodiff::PipelineOptions pipeline;
  std::string problem = MakePipelineOptions(options, pipeline);
  if (!problem.empty())
    return Fail(problem);
  std::vector<autodiff::LoweringRequest> requests;
  for (const std::string &spec : options.specs) {
    absl::StatusOr<autodiff::LoweringRequest> req =
        autodiff::ParseLoweringRequest(spec);
    if (!req.ok())
      return Fail("--autodiff " + std::string(req.status().message()));
    requests.push_back(*std::move(req));
  }
  bool print_statistics = TakeOverStatistics();

  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(input, /*IsText=*/true);
  if (!buffer)
    return Fail(input + ": Could not open input file: " +
                buffer.getError().message());
  if (auto at = autodiff::FindOversizedNumberedId((*buffer)->getBuffer()))
    return Fail(input + ":" + std::to_string(at->line) + ":" +
                std::to_string(at->column) +
                ": invalid value number (too large)");
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m =
      autodiff::ParseIr((*buffer)->getMemBufferRef(), diag, ctx);
  if (!m) {
    std::string where = input;
    if (diag.getLineNo() > 0)
      where += ":" + std::to_string(diag.getLineNo()) + ":" +
               std::to_string(diag.getColumnNo() + 1);
    // The bitcode reader's messages speak of bits and blocks: say first
    // what it means for the file.
    std::string what = diag.getMessage().str();
    if (diag.getLineNo() <= 0 &&
        !llvm::StringRef(what).starts_with("Could not open"))
      what = "invalid or truncated bitcode (" + what + ")";
    return Fail(where + ": " + what);
  }

  absl::Status status = autodiff::RunAutodiffPipeline(*m, requests, pipeline);
  if (print_statistics)
    llvm::PrintStatistics(llvm::errs());
  if (!status.ok())
    return Fail(std::string(status.message()));

  const std::string &path = options.output;
  bool text =
      options.text || path == "-" || llvm::StringRef(path).ends_with(".ll");
  problem = WriteModule(*m, path, text);
  if (!problem.empty())
    return Fail(problem);
  return 0;
}
