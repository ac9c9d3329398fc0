//===- frontend/Parser.h - Autodiff attribute syntax -----------*- C++ -*-===//
//
// Parses `autodiff_reverse(d_f, Duplicated, Const, Active)` and
// `autodiff_forward(d_f, 2, Dual, Dual)`, and the command-line form
// `SOURCE=ATTR` / `SIGNATURE=ATTR`.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_FRONTEND_PARSER_H
#define AUTODIFF_FRONTEND_PARSER_H

#include "frontend/Activity.h"
#include "frontend/Signature.h"

#include "absl/status/statusor.h"

#include <optional>
#include <string>
#include <string_view>

namespace autodiff {

/// An attribute as written, before it is matched to a signature: the
/// activities still include the return's (if the source returns a value).
struct ParsedAttribute {
  DiffMode mode = DiffMode::Reverse;
  std::string target;
  uint32_t width = 1;
  std::vector<DiffActivity> activities;
};

/// Parses `autodiff_reverse(TARGET[, WIDTH], ACTIVITY...)` or
/// `autodiff_forward(...)`. Whitespace is free. Errors (InvalidArgument):
/// unknown mode, missing target, bad width, unknown activity
/// ("did not recognize Activity: `Foo`"), unbalanced parentheses.
absl::StatusOr<ParsedAttribute> ParseAutodiffAttribute(std::string_view text);

/// A command-line `--autodiff` value.
struct AutodiffSpec {
  std::string source;                        ///< LLVM function name.
  std::optional<SourceSignature> signature;  ///< When written.
  ParsedAttribute attr;
};

/// Parses `NAME=ATTR` or `NAME(PARAMS) [-> RET]=ATTR`. The `=` that splits
/// the two is the first one outside parentheses that is not part of `->`.
absl::StatusOr<AutodiffSpec> ParseAutodiffSpec(std::string_view text);

} // namespace autodiff

#endif // AUTODIFF_FRONTEND_PARSER_H
