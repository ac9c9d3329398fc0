//===- fuzz/FuzzPipeline.cpp - The pipeline under a fuzzer ----------------===//
#include "fuzz/FuzzPipeline.h"

#include "codegen/Pipeline.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace autodiff::fuzz {

void Finding(const std::string &what, std::string_view input) {
  std::fprintf(stderr, "finding: %s\n--- input ---\n%.*s\n--- end ---\n",
               what.c_str(), static_cast<int>(input.size()), input.data());
  std::abort();
}

bool RunPipelineChecked(llvm::Module &m,
                        const std::vector<LoweringRequest> &requests,
                        std::string_view input) {
  PipelineOptions opts;
  opts.no_postopt = true;
  absl::Status st = RunAutodiffPipeline(m, requests, opts);
  if (!st.ok()) {
    if (st.message().empty())
      Finding("the pipeline failed without a message", input);
    return false;
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(m, &os))
    Finding("the module does not verify after a successful run:\n" + problems,
            input);
  for (llvm::Function &f : m)
    if (f.getName().starts_with("__enzyme_") && !f.use_empty() &&
        !f.getName().starts_with("__enzyme_register"))
      Finding("a request to `" + f.getName().str() +
                  "` is left in the module after a successful run",
              input);
  return true;
}

} // namespace autodiff::fuzz
