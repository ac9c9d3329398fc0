//===- runtime/capi/Options.h - The C API's option words -------*- C++ -*-===//
//
// The options string of ad_jit_create and ad_differentiate: autodiff-opt's
// words, separated by spaces, turned into PipelineOptions.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_RUNTIME_CAPI_OPTIONS_H
#define AUTODIFF_RUNTIME_CAPI_OPTIONS_H

#include "codegen/Pipeline.h"

#include "absl/status/statusor.h"

#include <string_view>

namespace autodiff::capi {

struct ToolOptions {
  PipelineOptions pipeline;
  /// --bitcode: ad_differentiate returns bitcode instead of text.
  bool bitcode = false;
};

/// Parses `words`; `allow_output_format` admits --bitcode. Errors name the
/// word and list the accepted ones.
absl::StatusOr<ToolOptions> ParseOptions(std::string_view words,
                                         bool allow_output_format);

} // namespace autodiff::capi

#endif // AUTODIFF_RUNTIME_CAPI_OPTIONS_H
