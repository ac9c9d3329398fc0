//===- fuzz/FuzzIr.cpp - Fuzz the pipeline with any module ----------------===//
//
// Any bytes: parsed as a module (text or bitcode); what parses and verifies
// goes through the whole pipeline. Leading comment lines `; autodiff SPEC`
// add `--autodiff` requests (`f=autodiff_reverse(df, Active, Active)`), so
// the lowering from attributes is fuzzed too; the module's own
// `__enzyme_*` calls and markers are requests as always. Findings: see
// FuzzPipeline.h.
//
//===----------------------------------------------------------------------===//
#include "fuzz/FuzzPipeline.h"
#include "support/IrText.h"
#include "support/ParseIr.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view input(reinterpret_cast<const char *>(data), size);
  std::vector<autodiff::LoweringRequest> requests;
  std::string_view rest = input;
  constexpr std::string_view kSpec = "; autodiff ";
  while (rest.substr(0, kSpec.size()) == kSpec) {
    size_t end = rest.find('\n');
    std::string_view spec = rest.substr(kSpec.size(), end - kSpec.size());
    auto req = autodiff::ParseLoweringRequest(spec);
    if (!req.ok() && req.status().message().empty())
      autodiff::fuzz::Finding("a spec failed without a message", input);
    if (req.ok())
      requests.push_back(*req);
    if (end == std::string_view::npos)
      break;
    rest = rest.substr(end + 1);
  }

  // Text LLVM's parser would crash on (support/IrText.h): our tools
  // refuse it before parsing.
  if (autodiff::FindOversizedNumberedId(input))
    return 0;
  llvm::LLVMContext ctx;
  ctx.setDiscardValueNames(false);
  llvm::SMDiagnostic err;
  // The text parser reads up to a terminating NUL: copy into a buffer that
  // has one.
  std::unique_ptr<llvm::MemoryBuffer> buffer =
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(input.data(), size),
                                           "fuzz");
  std::unique_ptr<llvm::Module> m =
      autodiff::ParseIr(buffer->getMemBufferRef(), err, ctx);
  if (!m || llvm::verifyModule(*m))
    return 0;
  autodiff::fuzz::RunPipelineChecked(*m, requests, input);
  return 0;
}
