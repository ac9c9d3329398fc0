//===- codegen/Lowering.h - AutoDiffItem -> __enzyme_* call ----*- C++ -*-===//
//
// Gives the target function of an item a body that calls
// `__enzyme_autodiff_<target>` / `__enzyme_fwddiff_<target>`, as rustc does.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_CODEGEN_LOWERING_H
#define AUTODIFF_CODEGEN_LOWERING_H

#include "frontend/Activity.h"
#include "frontend/Parser.h"
#include "frontend/Signature.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace autodiff {

/// An item as a host hands it over: the source-level signature is optional;
/// without it each LLVM parameter of the source is one source parameter.
struct LoweringRequest {
  std::string source;
  std::optional<SourceSignature> signature;
  ParsedAttribute attr;
  /// Where the request was written, e.g. "a.c:3" for an annotation; when
  /// set, it starts every diagnostic about the request.
  std::string origin;
  /// Whether the target may be a function with a real body, which lowering
  /// then replaces. Off by default: a target must be missing, a
  /// declaration, or a placeholder (codegen/Placeholder.h), so that a typo
  /// in its name cannot destroy user code.
  bool replace_defined_target = false;
};

/// Turns a spec in the syntax of `autodiff-opt --autodiff`, `SOURCE=ATTR`
/// or `SIGNATURE=ATTR` (frontend/Parser.h), into a request, in one call.
/// Errors are InvalidArgument and quote the spec, e.g.
/// "'f=autodiff_forward(d_f, Dual, Foo)': did not recognize Activity: `Foo`".
absl::StatusOr<LoweringRequest> ParseLoweringRequest(std::string_view spec);

/// The signature codegen assumes when the host gave none: one parameter per
/// LLVM parameter (double -> f64, float -> f32, iN -> integer, i1 -> bool,
/// ptr -> `*mut` of unknown pointee), return likewise.
SourceSignature SignatureFromLlvm(const llvm::Function &f);

/// Validates `req` against the source in `m` and lowers it: synthesizes the
/// target if missing, or gives a body to an existing declaration or
/// placeholder (including one returning through `sret`). A target with a
/// real body is an error (AlreadyExists) unless `req.replace_defined_target`
/// is set. Diagnostics name the source and target.
absl::Status LowerAutoDiff(llvm::Module &m, const LoweringRequest &req);

/// When `req`'s target is an alias of a placeholder or declaration (rustc
/// at opt-level 3 merges identical placeholders into aliases), replaces
/// the alias by a copy of that function under its name, so each target is
/// a function of its own; returns whether it did. LowerAll does this for
/// every request before lowering any (a merged placeholder lowered first
/// is no placeholder any more); LowerAutoDiff for its own.
bool SeparateAliasedTarget(llvm::Module &m, const LoweringRequest &req);

/// Reads `__attribute__((annotate("autodiff_reverse(d_f, ...)")))` requests
/// from `llvm.global.annotations` (each becomes a request whose source is
/// the annotated function) and removes the consumed entries.
absl::StatusOr<std::vector<LoweringRequest>>
CollectAnnotatedRequests(llvm::Module &m);

} // namespace autodiff

#endif // AUTODIFF_CODEGEN_LOWERING_H
