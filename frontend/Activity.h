//===- frontend/Activity.h - The user-level autodiff model -----*- C++ -*-===//
//
// Plain data mirroring rustc's `autodiff_attrs`: modes, activities, width,
// attributes and items. No LLVM here.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_FRONTEND_ACTIVITY_H
#define AUTODIFF_FRONTEND_ACTIVITY_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace autodiff {

/// Which derivative is requested.
enum class DiffMode {
  /// Tangents are pushed forward alongside the primal (`__enzyme_fwddiff`).
  Forward,
  /// Adjoints are pulled back from the outputs (`__enzyme_autodiff`).
  Reverse,
};

/// How one parameter (or the return) takes part in differentiation.
enum class DiffActivityKind {
  /// No activity: only legal as the return activity of a function that
  /// returns nothing.
  None,
  /// Not differentiated; the value is passed through (`enzyme_const`).
  Const,
  /// Reverse mode, by-value float: its gradient is returned. As a return
  /// activity: the return is seeded with `dret` and the primal is returned.
  Active,
  /// As Active, but the primal return value is not returned.
  ActiveOnly,
  /// Forward mode: the value is followed by `width` tangents (shadows for a
  /// pointer). As a return activity: return (primal, tangent).
  Dual,
  /// As Dual, but the primal result is not needed (`enzyme_dupnoneed`).
  DualOnly,
  /// Forward mode, vector form: one shadow holding all `width` tangents
  /// contiguously (for slices the stride is the primal length).
  Dualv,
  /// As Dualv, but the primal result is not needed.
  DualvOnly,
  /// Reverse mode, pointer/reference/slice: followed by a shadow into which
  /// the gradient is accumulated.
  Duplicated,
  /// As Duplicated, but the primal result is not needed.
  DuplicatedOnly,
  /// Internal: the length of the slice whose data pointer precedes it.
  /// Carries the element size in bytes. Never written by users.
  FakeActivitySize,
};

/// One activity. `elem_size` is set only for FakeActivitySize.
struct DiffActivity {
  DiffActivityKind kind = DiffActivityKind::None;
  std::optional<uint32_t> elem_size;

  DiffActivity() = default;
  DiffActivity(DiffActivityKind k) : kind(k) {}
  static DiffActivity Size(std::optional<uint32_t> elem_size) {
    DiffActivity a(DiffActivityKind::FakeActivitySize);
    a.elem_size = elem_size;
    return a;
  }
  bool operator==(const DiffActivity &o) const {
    return kind == o.kind && elem_size == o.elem_size;
  }
  bool operator!=(const DiffActivity &o) const { return !(*this == o); }
};

/// Activities that pass shadows after the primal (Dual*, Duplicated*).
bool HasShadow(DiffActivityKind k);
/// Dual, DualOnly, Dualv, DualvOnly.
bool IsDualKind(DiffActivityKind k);
/// ActiveOnly, DualOnly, DualvOnly, DuplicatedOnly: the primal is not needed.
bool IsOnlyKind(DiffActivityKind k);
/// Whether `a` may appear as an input activity in `mode` (rustc's rules).
bool IsValidInputActivity(DiffMode mode, DiffActivityKind a);
/// Whether `a` may appear as the return activity in `mode`.
bool IsValidReturnActivity(DiffMode mode, DiffActivityKind a);

/// Spelling as written in attributes: "Const", "Duplicated", "Forward", ...
std::string_view ToString(DiffActivityKind k);
std::string_view ToString(DiffMode m);
/// Parses an activity name as written by users (FakeActivitySize is not
/// user-writable). Returns nullopt for an unknown name.
std::optional<DiffActivityKind> ActivityFromString(std::string_view s);
/// Spelling of one activity; a size marker shows its element size, e.g.
/// "FakeActivitySize(8)" ("FakeActivitySize(?)" when unknown).
std::string ToString(const DiffActivity &a);

/// The largest width (`enzyme_width`) the core accepts.
inline constexpr uint32_t kMaxWidth = 64;

/// The attributes of one derivative function.
struct AutoDiffAttrs {
  DiffMode mode = DiffMode::Reverse;
  /// Number of shadows per duplicated/dual argument (>= 1).
  uint32_t width = 1;
  /// None when the source returns nothing.
  DiffActivity ret_activity;
  /// One per source-level parameter, or after ABI expansion one per LLVM
  /// parameter (see frontend/Abi.h).
  std::vector<DiffActivity> input_activity;
};

/// `target` is the derivative of `source` with `attrs`.
struct AutoDiffItem {
  std::string source;
  std::string target;
  AutoDiffAttrs attrs;
};

/// Human-readable, e.g.
/// "d_f = autodiff_reverse(f, width 1, [Duplicated, Active] -> Active)".
std::string ToString(const AutoDiffItem &item);

} // namespace autodiff

#endif // AUTODIFF_FRONTEND_ACTIVITY_H
