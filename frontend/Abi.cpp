//===- frontend/Abi.cpp - From source activities to LLVM values -----------===//
//
// rustc's activity expansion and the plan of a derivative function: its
// parameters, the operands of the `__enzyme_*` call, the run-time length
// checks and the leaves of its return value.
//
//===----------------------------------------------------------------------===//

#include "frontend/Abi.h"

#include "frontend/Validate.h"
#include "support/StatusMacros.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace autodiff {

namespace {

using Kind = DiffActivityKind;

/// Debian's Abseil has its own string_view type; this bridges to it.
absl::string_view Sv(std::string_view s) { return {s.data(), s.size()}; }

bool IsActiveKind(Kind k) { return k == Kind::Active || k == Kind::ActiveOnly; }
bool IsVectorKind(Kind k) { return k == Kind::Dualv || k == Kind::DualvOnly; }

/// Whether the primal return value is part of what the target returns.
bool ReturnsPrimal(const SourceSignature &sig, Kind ret) {
  if (sig.ret.kind == SourceType::Kind::Unit)
    return false;
  return ret == Kind::Const || ret == Kind::Active || ret == Kind::Dual ||
         ret == Kind::Dualv;
}

/// The activity of source parameter `i`; Const when the item has too few.
DiffActivity InputActivity(const AutoDiffAttrs &attrs, size_t i) {
  return i < attrs.input_activity.size() ? attrs.input_activity[i]
                                         : DiffActivity(Kind::Const);
}

/// Builds the plan one source parameter at a time.
class Planner {
public:
  Planner(const SourceSignature &sig, const AutoDiffItem &item,
          LoweringPlan &plan)
      : sig_(sig), item_(item), plan_(plan) {}

  absl::Status Run();

private:
  /// Target parameter indices of one value group (the primal or one shadow)
  /// of a source parameter: one per LLVM value.
  using Group = std::vector<unsigned>;

  unsigned AddParam(TargetParam::Role role, unsigned source_param,
                    unsigned lane, std::string name) {
    TargetParam p;
    p.role = role;
    p.source_param = source_param;
    p.lane = lane;
    p.name = std::move(name);
    plan_.target_params.push_back(std::move(p));
    return static_cast<unsigned>(plan_.target_params.size() - 1);
  }

  /// Adds the target parameters of one group named `base` (`x`, `dx_1`).
  Group AddGroup(const SourceType &type, TargetParam::Role role,
                 unsigned llvm_base, unsigned lane, const std::string &base) {
    Group group;
    if (type.IsSlice()) {
      group.push_back(AddParam(role, llvm_base, lane, base));
      group.push_back(AddParam(role, llvm_base + 1, lane, base + ".len"));
    } else if (type.kind == SourceType::Kind::Pair) {
      group.push_back(AddParam(role, llvm_base, lane, base + ".0"));
      group.push_back(AddParam(role, llvm_base + 1, lane, base + ".1"));
    } else if (type.kind != SourceType::Kind::Unit) {
      group.push_back(AddParam(role, llvm_base, lane, base));
    }
    return group;
  }

  void Marker(std::string_view marker) {
    CallArg a;
    a.kind = CallArg::Kind::Marker;
    a.marker = std::string(marker);
    plan_.call_args.push_back(std::move(a));
  }
  void Param(unsigned param) {
    CallArg a;
    a.kind = CallArg::Kind::Param;
    a.param = param;
    plan_.call_args.push_back(std::move(a));
  }

  absl::Status Error(std::string_view message) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "in autodiff of `", item_.source.empty() ? sig_.name : item_.source,
        "`: ", Sv(message)));
  }

  absl::Status PlanParam(size_t index, unsigned llvm_base);

  const SourceSignature &sig_;
  const AutoDiffItem &item_;
  LoweringPlan &plan_;
};

absl::Status Planner::PlanParam(size_t index, unsigned llvm_base) {
  const SourceParam &param = sig_.params[index];
  const SourceType &type = param.type;
  const Kind act = InputActivity(item_.attrs, index).kind;
  const uint32_t width = item_.attrs.width;
  std::string name =
      param.name.empty() ? absl::StrCat("arg", index) : param.name;

  Group primal = AddGroup(type, TargetParam::Role::Primal, llvm_base, 0, name);
  std::vector<Group> shadows;
  if (HasShadow(act) && type.kind != SourceType::Kind::Unit) {
    unsigned count = IsVectorKind(act) ? 1 : width;
    for (unsigned lane = 0; lane < count; ++lane) {
      std::string shadow_name = count == 1 ? absl::StrCat("d", name)
                                           : absl::StrCat("d", name, "_", lane);
      shadows.push_back(AddGroup(type, TargetParam::Role::Shadow, llvm_base,
                                 lane, shadow_name));
    }
  }

  // The stride between the lanes of a Dualv shadow.
  uint32_t stride = 0;
  if (IsVectorKind(act)) {
    const SourceType *pointee =
        type.elems.empty() ? nullptr : &type.elems.front();
    stride = pointee ? pointee->SizeInBytes() : 0;
    if (stride == 0)
      return Error(absl::StrCat(
          Sv(ToString(act)), " needs a known pointee type: ",
          param.name.empty() ? absl::StrCat("parameter #", index + 1)
                             : absl::StrCat("parameter `", param.name, "`"),
          " has type `", type.ToString(), "`"));
  }

  std::string_view dup_marker =
      IsOnlyKind(act) ? "enzyme_dupnoneed" : "enzyme_dup";
  // The first value of a slice is its data pointer; the second its length.
  for (size_t value = 0; value < primal.size(); ++value) {
    if (type.IsSlice() && value == 1) {
      Marker("enzyme_const");
      Param(primal[1]);
      continue;
    }
    if (act == Kind::Const || act == Kind::FakeActivitySize) {
      Marker("enzyme_const");
      Param(primal[value]);
    } else if (IsActiveKind(act)) {
      Marker("enzyme_out");
      Param(primal[value]);
    } else if (IsVectorKind(act)) {
      Marker(dup_marker);
      Param(primal[value]);
      for (uint32_t lane = 0; lane < width; ++lane) {
        CallArg a;
        a.kind = CallArg::Kind::StridedShadow;
        a.param = shadows[0][value];
        a.lane = lane;
        a.stride_bytes = stride;
        if (type.IsSlice())
          a.length_param = primal[1];
        plan_.call_args.push_back(std::move(a));
      }
    } else if (HasShadow(act)) {
      Marker(dup_marker);
      Param(primal[value]);
      for (const Group &shadow : shadows)
        Param(shadow[value]);
    } else {
      return Error(absl::StrCat(Sv(ToString(act)), " can not be lowered"));
    }
  }

  // A shadow slice must be at least as long as its primal (times the lanes
  // it holds for Dualv).
  if (type.IsSlice()) {
    uint32_t factor = IsVectorKind(act) ? width : 1;
    for (const Group &shadow : shadows) {
      LengthCheck check;
      check.primal_len = primal[1];
      check.shadow_len = shadow[1];
      check.factor = factor;
      check.what =
          absl::StrCat("shadow `", plan_.target_params[shadow[0]].name,
                       "` of `", plan_.target_params[primal[0]].name, "`");
      plan_.length_checks.push_back(std::move(check));
    }
  }
  return absl::OkStatus();
}

absl::Status Planner::Run() {
  const AutoDiffAttrs &attrs = item_.attrs;
  const Kind ret = attrs.ret_activity.kind;
  plan_.mode = attrs.mode;
  plan_.width = attrs.width;
  plan_.llvm_inputs = ExpandActivities(sig_, attrs);

  // The prologue: what is returned, the width and the seed. The seed is a
  // target parameter, created after the others, so its operands are added
  // once its index is known.
  const bool primal_return = ReturnsPrimal(sig_, ret);
  if (primal_return) {
    Marker("enzyme_primal_return");
    if (ret == Kind::Const)
      Marker("enzyme_const_return");
  }
  if (attrs.width > 1) {
    Marker("enzyme_width");
    CallArg a;
    a.kind = CallArg::Kind::WidthValue;
    a.value = attrs.width;
    plan_.call_args.push_back(std::move(a));
  }
  const bool has_seed = attrs.mode == DiffMode::Reverse && IsActiveKind(ret);
  size_t seed_at = plan_.call_args.size();

  unsigned llvm_base = 0;
  for (size_t i = 0; i < sig_.params.size(); ++i) {
    AD_RETURN_IF_ERROR(PlanParam(i, llvm_base));
    llvm_base += sig_.params[i].type.LlvmParamCount();
  }

  if (has_seed) {
    // One seed per lane: `dret`, or `dret_0` ... `dret_{N-1}`.
    std::vector<CallArg> seed_args(1);
    seed_args[0].kind = CallArg::Kind::Marker;
    seed_args[0].marker = "enzyme_seed";
    for (uint32_t lane = 0; lane < attrs.width; ++lane) {
      std::string name =
          attrs.width == 1 ? "dret" : absl::StrCat("dret_", lane);
      CallArg value;
      value.kind = CallArg::Kind::SeedValue;
      value.param = AddParam(TargetParam::Role::Seed, 0, lane, name);
      seed_args.push_back(std::move(value));
    }
    plan_.call_args.insert(plan_.call_args.begin() + seed_at,
                           seed_args.begin(), seed_args.end());
  }

  // The return leaves.
  if (primal_return)
    plan_.ret_leaves.push_back({ReturnLeaf::Kind::Primal, 0, 0});
  if (attrs.mode == DiffMode::Forward) {
    if (IsDualKind(ret))
      for (uint32_t lane = 0; lane < attrs.width; ++lane)
        plan_.ret_leaves.push_back({ReturnLeaf::Kind::Tangent, lane, 0});
  } else {
    // Each Active input's gradients, one per lane, in a row.
    for (size_t j = 0; j < plan_.llvm_inputs.size(); ++j)
      if (IsActiveKind(plan_.llvm_inputs[j].kind))
        for (uint32_t lane = 0; lane < attrs.width; ++lane)
          plan_.ret_leaves.push_back(
              {ReturnLeaf::Kind::Gradient, lane, static_cast<unsigned>(j)});
  }
  return absl::OkStatus();
}

} // namespace

std::vector<DiffActivity> ExpandActivities(const SourceSignature &sig,
                                           const AutoDiffAttrs &attrs) {
  std::vector<DiffActivity> out;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    const SourceType &type = sig.params[i].type;
    DiffActivity act = InputActivity(attrs, i);
    switch (type.kind) {
    case SourceType::Kind::Unit:
      break;
    case SourceType::Kind::Slice:
    case SourceType::Kind::MutSlice: {
      out.push_back(act);
      if (HasShadow(act.kind)) {
        uint32_t size = type.elems.empty() ? 0 : type.elems[0].SizeInBytes();
        out.push_back(DiffActivity::Size(size ? std::optional<uint32_t>(size)
                                              : std::nullopt));
      } else {
        out.push_back(DiffActivity(Kind::Const));
      }
      break;
    }
    case SourceType::Kind::Pair:
      out.push_back(act);
      out.push_back(act);
      break;
    default:
      out.push_back(act);
      break;
    }
  }
  return out;
}

absl::StatusOr<LoweringPlan> PlanLowering(const SourceSignature &sig,
                                          const AutoDiffItem &item) {
  AD_RETURN_IF_ERROR(ValidateAutoDiffItem(sig, item));
  LoweringPlan plan;
  Planner planner(sig, item, plan);
  AD_RETURN_IF_ERROR(planner.Run());
  return plan;
}

} // namespace autodiff
