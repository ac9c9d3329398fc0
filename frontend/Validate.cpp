//===- frontend/Validate.cpp - Checking activities against types ----------===//
//
// Matches activities to the source signature: the count, the mode, the width
// and whether each activity fits the type it is applied to. The first error
// in reading order wins: count, width, inputs left to right, return.
//
//===----------------------------------------------------------------------===//

#include "frontend/Validate.h"

#include "support/StatusMacros.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace autodiff {

namespace {

/// Debian's Abseil has its own string_view type; this bridges to it.
absl::string_view Sv(std::string_view s) { return {s.data(), s.size()}; }

bool IsFloatLike(const SourceType &t) {
  if (t.IsFloat())
    return true;
  return t.kind == SourceType::Kind::Pair && t.elems.size() == 2 &&
         t.elems[0].IsFloat() && t.elems[1].IsFloat();
}

/// Pointer-like for shadows: references, raw pointers, slices, and opaque
/// values (an LLVM `ptr` seen without a source signature).
bool IsShadowable(const SourceType &t) {
  return t.IsPointerLike() || t.kind == SourceType::Kind::Opaque;
}

/// Returns the description of the types `kind` accepts (the part after
/// "only ... can be KIND"), or nullopt when `t` fits.
std::optional<std::string_view>
TypeMismatch(DiffActivityKind kind, const SourceType &t, bool is_return) {
  switch (kind) {
  case DiffActivityKind::Const:
    return std::nullopt;
  case DiffActivityKind::None:
    if (t.kind == SourceType::Kind::Unit)
      return std::nullopt;
    return "functions returning nothing";
  case DiffActivityKind::Active:
  case DiffActivityKind::ActiveOnly:
    if (IsFloatLike(t))
      return std::nullopt;
    return "floating-point values";
  case DiffActivityKind::Duplicated:
  case DiffActivityKind::DuplicatedOnly:
    if (IsShadowable(t))
      return std::nullopt;
    return "pointers, references and slices";
  case DiffActivityKind::Dual:
  case DiffActivityKind::DualOnly:
    if (is_return) {
      if (IsFloatLike(t))
        return std::nullopt;
      return "floating-point values";
    }
    if (IsFloatLike(t) || IsShadowable(t))
      return std::nullopt;
    return "floating-point values, pointers, references and slices";
  case DiffActivityKind::Dualv:
  case DiffActivityKind::DualvOnly:
    if (is_return) {
      if (IsFloatLike(t))
        return std::nullopt;
      return "floating-point values";
    }
    if (IsShadowable(t))
      return std::nullopt;
    return "pointers, references and slices";
  case DiffActivityKind::FakeActivitySize:
    if (t.kind == SourceType::Kind::Int)
      return std::nullopt;
    return "integer lengths";
  }
  return "no values";
}

std::string DescribeParam(const SourceParam &param, size_t index) {
  std::string who = param.name.empty()
                        ? absl::StrCat("parameter #", index + 1)
                        : absl::StrCat("parameter `", param.name, "`");
  return absl::StrCat(who, " has type `", param.type.ToString(), "`");
}

std::string TypeError(DiffActivityKind kind, std::string_view subject,
                      std::string_view allowed) {
  return absl::StrCat(Sv(ToString(kind)),
                      " can not be used for this type: ", Sv(subject),
                      "; only ", Sv(allowed), " can be ", Sv(ToString(kind)));
}

/// The checks shared by both entry points; messages are not yet prefixed.
std::optional<std::string> FirstError(const SourceSignature &sig,
                                      const AutoDiffAttrs &attrs) {
  bool has_ret = sig.ret.kind != SourceType::Kind::Unit;
  size_t expected = sig.params.size() + (has_ret ? 1 : 0);
  size_t found = attrs.input_activity.size() + (has_ret ? 1 : 0);
  if (expected != found)
    return absl::StrCat("expected ", expected, " activities, but found ",
                        found);

  if (attrs.width < 1)
    return std::string("width must be at least 1");
  if (attrs.width > kMaxWidth)
    return absl::StrCat("width ", attrs.width,
                        " is larger than the supported maximum of ", kMaxWidth);

  for (size_t i = 0; i < sig.params.size(); ++i) {
    DiffActivityKind kind = attrs.input_activity[i].kind;
    if (!IsValidInputActivity(attrs.mode, kind))
      return absl::StrCat(Sv(ToString(kind)), " can not be used in ",
                          Sv(ToString(attrs.mode)), " Mode");
    if (auto allowed = TypeMismatch(kind, sig.params[i].type, false))
      return TypeError(kind, DescribeParam(sig.params[i], i), *allowed);
  }

  DiffActivityKind ret = attrs.ret_activity.kind;
  if (!IsValidReturnActivity(attrs.mode, ret))
    return absl::StrCat("invalid return activity ", Sv(ToString(ret)), " in ",
                        Sv(ToString(attrs.mode)), " Mode");
  if (auto allowed = TypeMismatch(ret, sig.ret, true)) {
    std::string subject =
        absl::StrCat("the return has type `", sig.ret.ToString(), "`");
    if (ret == DiffActivityKind::None)
      return absl::StrCat("None can not be used for this type: ", subject,
                          "; a returned value needs an activity (use Const "
                          "to ignore it)");
    return TypeError(ret, subject, *allowed);
  }
  return std::nullopt;
}

absl::Status Prefixed(std::string_view source, std::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat("in autodiff of `", Sv(source), "`: ", Sv(message)));
}

} // namespace

absl::StatusOr<AutoDiffItem> MakeAutoDiffItem(const SourceSignature &sig,
                                              const ParsedAttribute &attr) {
  bool has_ret = sig.ret.kind != SourceType::Kind::Unit;
  size_t expected = sig.params.size() + (has_ret ? 1 : 0);
  if (attr.activities.size() != expected)
    return Prefixed(sig.name, absl::StrCat("expected ", expected,
                                           " activities, but found ",
                                           attr.activities.size()));
  AutoDiffItem item;
  item.source = sig.name;
  item.target = attr.target;
  item.attrs.mode = attr.mode;
  item.attrs.width = attr.width;
  item.attrs.input_activity.assign(attr.activities.begin(),
                                   attr.activities.begin() + sig.params.size());
  item.attrs.ret_activity =
      has_ret ? attr.activities.back() : DiffActivity(DiffActivityKind::None);
  AD_RETURN_IF_ERROR(ValidateAutoDiffItem(sig, item));
  return item;
}

absl::Status ValidateAutoDiffItem(const SourceSignature &sig,
                                  const AutoDiffItem &item) {
  if (std::optional<std::string> error = FirstError(sig, item.attrs))
    return Prefixed(item.source.empty() ? sig.name : item.source, *error);
  return absl::OkStatus();
}

} // namespace autodiff
