//===- frontend/Abi.h - From source activities to LLVM values --*- C++ -*-===//
//
// Expands per-source-parameter activities to per-LLVM-parameter ones (a
// slice is a data pointer plus a length, a scalar pair is two values) and
// plans the derivative function: its parameters, the operands of the
// `__enzyme_*` call, run-time length checks, and what it returns. Pure data;
// codegen/ turns the plan into IR.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_FRONTEND_ABI_H
#define AUTODIFF_FRONTEND_ABI_H

#include "frontend/Activity.h"
#include "frontend/Signature.h"

#include "absl/status/statusor.h"

#include <optional>
#include <string>
#include <vector>

namespace autodiff {

/// rustc's expansion: one activity per LLVM parameter of the source. After a
/// slice's data pointer comes FakeActivitySize(elem size) when the slice is
/// Duplicated/Dual (its length is shared with the shadow), Const otherwise.
/// A pair's activity is repeated for both of its values.
std::vector<DiffActivity> ExpandActivities(const SourceSignature &sig,
                                           const AutoDiffAttrs &attrs);

/// One parameter of the derivative (target) function at the LLVM level.
struct TargetParam {
  enum class Role {
    Primal, ///< Mirrors source LLVM param `source_param`.
    Shadow, ///< Shadow number `lane` of source LLVM param `source_param`
            ///< (same LLVM type; for a slice's length: the shadow length).
    Seed,   ///< Reverse mode: the seed of lane `lane`'s return (`dret`,
            ///< `dret_0`, ...; type of the source return).
  };
  Role role = Role::Primal;
  unsigned source_param = 0;
  unsigned lane = 0;
  std::string name; ///< "x", "dx", "dx_1", "x.len", "dret", ...
};

/// One operand of the `__enzyme_*` call, after the function itself.
struct CallArg {
  enum class Kind {
    Marker,        ///< `marker` (e.g. "enzyme_dup").
    Param,         ///< Target parameter `param`, unchanged.
    StridedShadow, ///< Target parameter `param` (a pointer) advanced by
                   ///< `lane` * stride bytes; stride = `stride_bytes`, times
                   ///< the value of target parameter `length_param` if set.
    WidthValue,    ///< The constant `value` (i64), after "enzyme_width".
    SeedValue,     ///< Target parameter `param`, after "enzyme_seed".
  };
  Kind kind = Kind::Marker;
  std::string marker;
  unsigned param = 0;
  unsigned lane = 0;
  std::optional<unsigned> length_param;
  uint32_t stride_bytes = 0;
  uint64_t value = 0;
};

/// At run time: target param `shadow_len` must be >= `factor` * target param
/// `primal_len`, else the program stops with a message naming `what`.
struct LengthCheck {
  unsigned primal_len = 0;
  unsigned shadow_len = 0;
  uint32_t factor = 1;
  std::string what; ///< e.g. "shadow `dx` of `x`".
};

/// One leaf of what the derivative returns, in order. The target returns
/// nothing (no leaves), the single leaf, or a literal struct of the leaves.
struct ReturnLeaf {
  enum class Kind {
    Primal,   ///< The source's return value.
    Tangent,  ///< Forward: tangent number `lane` of the return.
    Gradient, ///< Reverse: lane `lane`'s gradient of Active source LLVM
              ///< param `source_param` (the lanes of one param in a row).
  };
  Kind kind = Kind::Primal;
  unsigned lane = 0;
  unsigned source_param = 0;
};

/// Everything codegen needs to synthesize or fill in the target.
struct LoweringPlan {
  DiffMode mode = DiffMode::Reverse;
  uint32_t width = 1;
  std::vector<DiffActivity> llvm_inputs; ///< ExpandActivities().
  std::vector<TargetParam> target_params;
  std::vector<CallArg> call_args;
  std::vector<LengthCheck> length_checks;
  std::vector<ReturnLeaf> ret_leaves;
};

/// Plans the lowering of a validated item (see frontend/Validate.h). The
/// target's parameters follow rustc's macro: each source parameter's primal
/// values, then (Dual*/Duplicated*) its `width` shadows of the same shape
/// (Dualv*: one shadow holding all lanes); reverse mode with an Active
/// return ends with the seed `dret` (one per lane: `dret_0` ...). Call
/// operands follow rustc's lowering: "enzyme_primal_return" when the primal
/// is returned, "enzyme_width", N when N > 1, "enzyme_seed" and the N seeds
/// (our extension: rustc never passes the seed), then per LLVM parameter
/// its marker and values.
absl::StatusOr<LoweringPlan> PlanLowering(const SourceSignature &sig,
                                          const AutoDiffItem &item);

} // namespace autodiff

#endif // AUTODIFF_FRONTEND_ABI_H
