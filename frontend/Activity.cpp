//===- frontend/Activity.cpp - The user-level autodiff model --------------===//
//
// Activity predicates (which activity is legal in which mode), spellings, and
// the one-line rendering of an item.
//
//===----------------------------------------------------------------------===//

#include "frontend/Activity.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace autodiff {

bool IsDualKind(DiffActivityKind k) {
  switch (k) {
  case DiffActivityKind::Dual:
  case DiffActivityKind::DualOnly:
  case DiffActivityKind::Dualv:
  case DiffActivityKind::DualvOnly:
    return true;
  default:
    return false;
  }
}

bool HasShadow(DiffActivityKind k) {
  return IsDualKind(k) || k == DiffActivityKind::Duplicated ||
         k == DiffActivityKind::DuplicatedOnly;
}

bool IsOnlyKind(DiffActivityKind k) {
  switch (k) {
  case DiffActivityKind::ActiveOnly:
  case DiffActivityKind::DualOnly:
  case DiffActivityKind::DualvOnly:
  case DiffActivityKind::DuplicatedOnly:
    return true;
  default:
    return false;
  }
}

bool IsValidInputActivity(DiffMode mode, DiffActivityKind a) {
  switch (a) {
  case DiffActivityKind::None:
    return false;
  case DiffActivityKind::Const:
  case DiffActivityKind::FakeActivitySize:
    return true;
  case DiffActivityKind::Dual:
  case DiffActivityKind::DualOnly:
  case DiffActivityKind::Dualv:
  case DiffActivityKind::DualvOnly:
    return mode == DiffMode::Forward;
  case DiffActivityKind::Active:
  case DiffActivityKind::ActiveOnly:
  case DiffActivityKind::Duplicated:
  case DiffActivityKind::DuplicatedOnly:
    return mode == DiffMode::Reverse;
  }
  return false;
}

bool IsValidReturnActivity(DiffMode mode, DiffActivityKind a) {
  switch (a) {
  case DiffActivityKind::None:
  case DiffActivityKind::Const:
    return true;
  case DiffActivityKind::Dual:
  case DiffActivityKind::DualOnly:
  case DiffActivityKind::Dualv:
  case DiffActivityKind::DualvOnly:
    return mode == DiffMode::Forward;
  case DiffActivityKind::Active:
  case DiffActivityKind::ActiveOnly:
    return mode == DiffMode::Reverse;
  case DiffActivityKind::Duplicated:
  case DiffActivityKind::DuplicatedOnly:
  case DiffActivityKind::FakeActivitySize:
    return false;
  }
  return false;
}

std::string_view ToString(DiffActivityKind k) {
  switch (k) {
  case DiffActivityKind::None:
    return "None";
  case DiffActivityKind::Const:
    return "Const";
  case DiffActivityKind::Active:
    return "Active";
  case DiffActivityKind::ActiveOnly:
    return "ActiveOnly";
  case DiffActivityKind::Dual:
    return "Dual";
  case DiffActivityKind::DualOnly:
    return "DualOnly";
  case DiffActivityKind::Dualv:
    return "Dualv";
  case DiffActivityKind::DualvOnly:
    return "DualvOnly";
  case DiffActivityKind::Duplicated:
    return "Duplicated";
  case DiffActivityKind::DuplicatedOnly:
    return "DuplicatedOnly";
  case DiffActivityKind::FakeActivitySize:
    return "FakeActivitySize";
  }
  return "<invalid activity>";
}

std::string_view ToString(DiffMode m) {
  switch (m) {
  case DiffMode::Forward:
    return "Forward";
  case DiffMode::Reverse:
    return "Reverse";
  }
  return "<invalid mode>";
}

std::optional<DiffActivityKind> ActivityFromString(std::string_view s) {
  static constexpr DiffActivityKind kUserWritable[] = {
      DiffActivityKind::None,       DiffActivityKind::Const,
      DiffActivityKind::Active,     DiffActivityKind::ActiveOnly,
      DiffActivityKind::Dual,       DiffActivityKind::DualOnly,
      DiffActivityKind::Dualv,      DiffActivityKind::DualvOnly,
      DiffActivityKind::Duplicated, DiffActivityKind::DuplicatedOnly,
  };
  for (DiffActivityKind k : kUserWritable)
    if (ToString(k) == s)
      return k;
  return std::nullopt;
}

std::string ToString(const DiffActivity &a) {
  if (a.kind != DiffActivityKind::FakeActivitySize)
    return std::string(ToString(a.kind));
  if (!a.elem_size)
    return "FakeActivitySize(?)";
  return absl::StrCat("FakeActivitySize(", *a.elem_size, ")");
}

std::string ToString(const AutoDiffItem &item) {
  const AutoDiffAttrs &attrs = item.attrs;
  std::string inputs = absl::StrJoin(
      attrs.input_activity, ", ", [](std::string *out, const DiffActivity &a) {
        out->append(ToString(a));
      });
  return absl::StrCat(item.target, " = ",
                      attrs.mode == DiffMode::Forward ? "autodiff_forward"
                                                      : "autodiff_reverse",
                      "(", item.source, ", width ", attrs.width, ", [", inputs,
                      "] -> ", ToString(attrs.ret_activity), ")");
}

} // namespace autodiff
