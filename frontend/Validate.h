//===- frontend/Validate.h - Checking activities against types -*- C++ -*-===//
//
// rustc's rules, with diagnostics at least as precise as its UI tests.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_FRONTEND_VALIDATE_H
#define AUTODIFF_FRONTEND_VALIDATE_H

#include "frontend/Activity.h"
#include "frontend/Parser.h"
#include "frontend/Signature.h"

#include "absl/status/statusor.h"

namespace autodiff {

/// Matches a parsed attribute to the source's signature and validates it.
/// The result's `input_activity` has one entry per source-level parameter
/// and `ret_activity` is None when the source returns Unit.
///
/// Errors (all InvalidArgument, message exactly as below, prefixed by
/// "in autodiff of `SOURCE`: "):
///  - `expected N activities, but found M` (N counts the return if any)
///  - `Dual can not be used in Reverse Mode` (an input activity illegal for
///    the mode)
///  - `invalid return activity Duplicated in Reverse Mode`
///  - `Active can not be used for this type: parameter `x` has type `&[f64]`;
///    only floating-point values can be Active`
///  - `Duplicated can not be used for this type: parameter `x` has type
///    `f64`; only pointers, references and slices can be Duplicated`
///  - `width must be at least 1`, `width N is larger than the supported
///    maximum of 64` and more.
absl::StatusOr<AutoDiffItem> MakeAutoDiffItem(const SourceSignature &sig,
                                              const ParsedAttribute &attr);

/// Validates an already assembled item against its signature (the C++ API
/// route, where hosts build AutoDiffAttrs directly). Same diagnostics.
absl::Status ValidateAutoDiffItem(const SourceSignature &sig,
                                  const AutoDiffItem &item);

} // namespace autodiff

#endif // AUTODIFF_FRONTEND_VALIDATE_H
