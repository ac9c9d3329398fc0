//===- fuzz/FuzzRequest.cpp - Fuzz differentiation with generated modules ===//
//
// Well-formed modules from ProgramGenerator.h, differentiated in both
// modes (and split mode and width 2) by their own requests. A generated
// module that does not parse or verify is a bug of the generator (a
// finding too); the pipeline's findings are those of FuzzPipeline.h.
// With FUZZ_REQUEST_PRINT set, each generated module is printed to stderr
// with whether the pipeline differentiated it (to inspect a corpus).
//
//===----------------------------------------------------------------------===//
#include "fuzz/FuzzPipeline.h"
#include "fuzz/ProgramGenerator.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::string ir = autodiff::fuzz::GenerateProgram(in);
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseIR(
      llvm::MemoryBufferRef(ir, "generated"), err, ctx);
  if (!m) {
    std::string text;
    llvm::raw_string_ostream os(text);
    err.print("generated", os);
    autodiff::fuzz::Finding("the generated module does not parse: " + text,
                            ir);
  }
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*m, &os))
    autodiff::fuzz::Finding("the generated module does not verify: " +
                                problems,
                            ir);
  bool ok = autodiff::fuzz::RunPipelineChecked(*m, {}, ir);
  if (std::getenv("FUZZ_REQUEST_PRINT"))
    llvm::errs() << ir << "; pipeline: " << (ok ? "differentiated" : "error")
                 << "\n";
  return 0;
}
