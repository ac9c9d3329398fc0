//===- runtime/capi/Options.cpp - The C API's option words ---------------===//
#include "runtime/capi/Options.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace autodiff::capi {

absl::StatusOr<ToolOptions> ParseOptions(std::string_view words,
                                         bool allow_output_format) {
  ToolOptions out;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  llvm::StringRef(words.data(), words.size())
      .split(parts, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef word : parts) {
    word = word.trim();
    if (word.empty())
      continue;
    if (word.starts_with("-O")) {
      std::optional<OptLevel> level = ParseOptLevel(word.drop_front(1).str());
      if (!level)
        return absl::InvalidArgumentError("unknown optimization level `" +
                                          word.str() + "`");
      out.pipeline.post_opt = *level;
    } else if (word.consume_front("--pre-opt=")) {
      std::optional<OptLevel> level = ParseOptLevel(word.str());
      if (!level || *level == OptLevel::Os || *level == OptLevel::Oz)
        return absl::InvalidArgumentError("--pre-opt takes O0, O1, O2 or O3");
      out.pipeline.pre_opt = level;
    } else if (word.consume_front("--derivative-fast-math=")) {
      absl::StatusOr<llvm::FastMathFlags> fmf = ParseFastMathFlags(word.str());
      if (!fmf.ok())
        return absl::InvalidArgumentError("--derivative-fast-math: " +
                                          std::string(fmf.status().message()));
      out.pipeline.bridge.derivative_fmf = *fmf;
    } else if (word == "--no-undo-log") {
      out.pipeline.bridge.undo_log = false;
    } else if (word == "--no-postopt") {
      out.pipeline.no_postopt = true;
    } else if (word == "--postopt-whole-module") {
      out.pipeline.postopt_whole_module = true;
    } else if (word == "--replace-targets") {
      out.pipeline.replace_defined_targets = true;
    } else if (word == "--no-annotations") {
      out.pipeline.use_annotations = false;
    } else if (word == "--bitcode" && allow_output_format) {
      out.bitcode = true;
    } else {
      return absl::InvalidArgumentError(
          "unknown option `" + word.str() +
          "` (accepted: -O0, -O1, -O2, -O3, -Os, -Oz, --pre-opt=O0..O3, "
          "--no-postopt, --postopt-whole-module, --derivative-fast-math=FLAGS, --no-undo-log, "
          "--replace-targets, "
          "--no-annotations" +
          (allow_output_format ? ", --bitcode" : "") + ")");
    }
  }
  return out;
}

} // namespace autodiff::capi
