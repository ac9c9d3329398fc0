//===- fuzz/FuzzPipeline.h - The pipeline under a fuzzer ------*- C++ -*-===//
//
// Shared by fuzz_ir and fuzz_request: runs the whole pipeline (lowering,
// differentiation; the re-optimization is LLVM's and left out) on a parsed
// module and aborts, printing the input, on what must never happen.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_FUZZ_FUZZPIPELINE_H
#define AUTODIFF_FUZZ_FUZZPIPELINE_H

#include "codegen/Lowering.h"

#include <string_view>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace autodiff::fuzz {

/// Runs the pipeline on `m` (a module that parsed and verified). Findings:
/// a crash or sanitizer report inside, a failure without a message, a
/// module that no longer verifies after a success, or an `__enzyme_*`
/// request left in it after a success. Returns whether it succeeded.
bool RunPipelineChecked(llvm::Module &m,
                        const std::vector<LoweringRequest> &requests,
                        std::string_view input);

/// Prints `what` and the input, then aborts (libFuzzer saves the input).
[[noreturn]] void Finding(const std::string &what, std::string_view input);

} // namespace autodiff::fuzz

#endif // AUTODIFF_FUZZ_FUZZPIPELINE_H
