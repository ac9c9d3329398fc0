//===- tests/unit/frontend/AbiTest.cpp - Expansion and lowering plans -----===//
//
// ExpandActivities and PlanLowering. Plans are rendered to strings (target
// parameter names, call operands, length checks, return leaves) so every
// case states the whole expected plan.
//
//===----------------------------------------------------------------------===//

#include "frontend/Abi.h"

#include "frontend/Validate.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace autodiff {
namespace {

using K = DiffActivityKind;
using Strings = std::vector<std::string>;

SourceSignature Sig(const char *text) {
  absl::StatusOr<SourceSignature> sig = ParseSourceSignature(text);
  EXPECT_TRUE(sig.ok()) << sig.status();
  return sig.ok() ? *sig : SourceSignature();
}

AutoDiffItem Item(const SourceSignature &sig, const char *attr_text) {
  absl::StatusOr<ParsedAttribute> attr = ParseAutodiffAttribute(attr_text);
  EXPECT_TRUE(attr.ok()) << attr.status();
  if (!attr.ok())
    return AutoDiffItem();
  absl::StatusOr<AutoDiffItem> item = MakeAutoDiffItem(sig, *attr);
  EXPECT_TRUE(item.ok()) << item.status();
  return item.ok() ? *item : AutoDiffItem();
}

/// Plans `sig_text` with `attr_text`; both must be valid.
LoweringPlan Plan(const char *sig_text, const char *attr_text) {
  SourceSignature sig = Sig(sig_text);
  absl::StatusOr<LoweringPlan> plan = PlanLowering(sig, Item(sig, attr_text));
  EXPECT_TRUE(plan.ok()) << plan.status();
  return plan.ok() ? *plan : LoweringPlan();
}

Strings ParamNames(const LoweringPlan &plan) {
  Strings out;
  for (const TargetParam &p : plan.target_params)
    out.push_back(p.name);
  return out;
}

std::string Name(const LoweringPlan &plan, unsigned param) {
  if (param >= plan.target_params.size())
    return "<bad param " + std::to_string(param) + ">";
  return plan.target_params[param].name;
}

/// Markers as is, parameters by name, `dx[1*8*x.len]` for a strided shadow
/// (lane 1, 8 bytes times the length x.len), `width=N`, `seed(dret)`.
Strings CallArgs(const LoweringPlan &plan) {
  Strings out;
  for (const CallArg &a : plan.call_args) {
    switch (a.kind) {
    case CallArg::Kind::Marker:
      out.push_back(a.marker);
      break;
    case CallArg::Kind::Param:
      out.push_back(Name(plan, a.param));
      break;
    case CallArg::Kind::StridedShadow: {
      std::string s = Name(plan, a.param) + "[" + std::to_string(a.lane) + "*" +
                      std::to_string(a.stride_bytes);
      if (a.length_param)
        s += "*" + Name(plan, *a.length_param);
      out.push_back(s + "]");
      break;
    }
    case CallArg::Kind::WidthValue:
      out.push_back("width=" + std::to_string(a.value));
      break;
    case CallArg::Kind::SeedValue:
      out.push_back("seed(" + Name(plan, a.param) + ")");
      break;
    }
  }
  return out;
}

/// `dx.len>=2*x.len: shadow `dx` of `x``.
Strings Checks(const LoweringPlan &plan) {
  Strings out;
  for (const LengthCheck &c : plan.length_checks)
    out.push_back(Name(plan, c.shadow_len) + ">=" + std::to_string(c.factor) +
                  "*" + Name(plan, c.primal_len) + ": " + c.what);
  return out;
}

Strings Leaves(const LoweringPlan &plan) {
  Strings out;
  for (const ReturnLeaf &l : plan.ret_leaves) {
    switch (l.kind) {
    case ReturnLeaf::Kind::Primal:
      out.push_back("Primal");
      break;
    case ReturnLeaf::Kind::Tangent:
      out.push_back("Tangent(" + std::to_string(l.lane) + ")");
      break;
    case ReturnLeaf::Kind::Gradient:
      out.push_back("Gradient(" + std::to_string(l.source_param) +
                    (l.lane ? "." + std::to_string(l.lane) : "") + ")");
      break;
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// ExpandActivities
//===----------------------------------------------------------------------===//

struct ExpandRow {
  const char *sig;
  const char *attr;
  std::vector<DiffActivity> expected;
};

std::ostream &operator<<(std::ostream &os, const ExpandRow &row) {
  return os << "`" << row.sig << "` with `" << row.attr << "`";
}

class ExpandTest : public ::testing::TestWithParam<ExpandRow> {};

TEST_P(ExpandTest, OnePerLlvmParam) {
  const ExpandRow &row = GetParam();
  SourceSignature sig = Sig(row.sig);
  AutoDiffItem item = Item(sig, row.attr);
  std::vector<DiffActivity> got = ExpandActivities(sig, item.attrs);
  ASSERT_EQ(got.size(), row.expected.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i], row.expected[i]) << "at " << i << ": " << ToString(got[i])
                                       << " vs " << ToString(row.expected[i]);
}

INSTANTIATE_TEST_SUITE_P(
    Expansions, ExpandTest,
    ::testing::Values(
        // rustc's example: [Duplicated, Size(8), Active].
        ExpandRow{"f(x: &[f64], y: f64) -> f64",
                  "autodiff_reverse(df, Duplicated, Active, Active)",
                  {K::Duplicated, DiffActivity::Size(8), K::Active}},
        ExpandRow{"f(x: &mut [f32]) -> f32",
                  "autodiff_reverse(df, DuplicatedOnly, Active)",
                  {K::DuplicatedOnly, DiffActivity::Size(4)}},
        ExpandRow{
            "f(x: &[f32], y: &[u16]) -> f32",
            "autodiff_forward(df, Dual, Dualv, Dual)",
            {K::Dual, DiffActivity::Size(4), K::Dualv, DiffActivity::Size(2)}},
        ExpandRow{"f(x: &[f64], y: f64) -> f64",
                  "autodiff_reverse(df, Const, Active, Active)",
                  {K::Const, K::Const, K::Active}},
        ExpandRow{"f(p: (f64, f64), n: i32) -> f64",
                  "autodiff_reverse(df, Active, Const, Active)",
                  {K::Active, K::Active, K::Const}},
        ExpandRow{"f(p: (f32, f32)) -> f32",
                  "autodiff_forward(df, DualOnly, Dual)",
                  {K::DualOnly, K::DualOnly}},
        ExpandRow{"f(u: (), x: &f64, v: ())",
                  "autodiff_reverse(df, Const, Duplicated, Const)",
                  {K::Duplicated}}),
    [](const ::testing::TestParamInfo<ExpandRow> &info) {
      return "Expand" + std::to_string(info.index);
    });

//===----------------------------------------------------------------------===//
// PlanLowering
//===----------------------------------------------------------------------===//

TEST(PlanTest, ScalarReverse) {
  LoweringPlan plan =
      Plan("square(x: f64) -> f64", "autodiff_reverse(d_square, Active, "
                                    "Active)");
  EXPECT_EQ(plan.mode, DiffMode::Reverse);
  EXPECT_EQ(plan.width, 1u);
  EXPECT_EQ(plan.llvm_inputs, (std::vector<DiffActivity>{K::Active}));
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "dret"}));
  EXPECT_EQ(CallArgs(plan), (Strings{"enzyme_primal_return", "enzyme_seed",
                                     "seed(dret)", "enzyme_out", "x"}));
  EXPECT_TRUE(plan.length_checks.empty());
  EXPECT_EQ(Leaves(plan), (Strings{"Primal", "Gradient(0)"}));
  ASSERT_EQ(plan.target_params.size(), 2u);
  EXPECT_EQ(plan.target_params[0].role, TargetParam::Role::Primal);
  EXPECT_EQ(plan.target_params[0].source_param, 0u);
  EXPECT_EQ(plan.target_params[1].role, TargetParam::Role::Seed);
}

// Width in reverse mode: N shadows per Duplicated parameter, N seeds after
// enzyme_seed, N gradients per Active parameter in a row (the convention
// of vector reverse mode, docs/user-guide.md).
TEST(PlanTest, ReverseWidth) {
  LoweringPlan plan = Plan("f(a: f64, x: &[f64]) -> f64",
                           "autodiff_reverse(df, 2, Active, Duplicated, "
                           "Active)");
  EXPECT_EQ(plan.width, 2u);
  EXPECT_EQ(ParamNames(plan), (Strings{"a", "x", "x.len", "dx_0", "dx_0.len",
                                       "dx_1", "dx_1.len", "dret_0",
                                       "dret_1"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_primal_return", "enzyme_width", "width=2",
                     "enzyme_seed", "seed(dret_0)", "seed(dret_1)",
                     "enzyme_out", "a", "enzyme_dup", "x", "dx_0", "dx_1",
                     "enzyme_const", "x.len"}));
  EXPECT_EQ(Leaves(plan),
            (Strings{"Primal", "Gradient(0)", "Gradient(0.1)"}));
  EXPECT_EQ(Checks(plan),
            (Strings{"dx_0.len>=1*x.len: shadow `dx_0` of `x`",
                     "dx_1.len>=1*x.len: shadow `dx_1` of `x`"}));
}

TEST(PlanTest, VoidReturn) {
  LoweringPlan plan = Plan("scale(x: &mut [f64], a: f64)",
                           "autodiff_reverse(d_scale, Duplicated, Active)");
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "x.len", "dx", "dx.len", "a"}));
  EXPECT_EQ(CallArgs(plan), (Strings{"enzyme_dup", "x", "dx", "enzyme_const",
                                     "x.len", "enzyme_out", "a"}));
  EXPECT_EQ(Checks(plan), (Strings{"dx.len>=1*x.len: shadow `dx` of `x`"}));
  // `a` is LLVM param 2 of the source (after x and x.len).
  EXPECT_EQ(Leaves(plan), (Strings{"Gradient(2)"}));
}

TEST(PlanTest, ConstReturn) {
  LoweringPlan plan =
      Plan("f(x: &[f64]) -> f64", "autodiff_reverse(df, Duplicated, Const)");
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "x.len", "dx", "dx.len"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_primal_return", "enzyme_const_return",
                     "enzyme_dup", "x", "dx", "enzyme_const", "x.len"}));
  EXPECT_EQ(Leaves(plan), (Strings{"Primal"}));
}

TEST(PlanTest, DuplicatedSliceReverse) {
  LoweringPlan plan = Plan("sum_sq(x: &[f64]) -> f64",
                           "autodiff_reverse(d_sum_sq, Duplicated, Active)");
  EXPECT_EQ(plan.llvm_inputs,
            (std::vector<DiffActivity>{K::Duplicated, DiffActivity::Size(8)}));
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "x.len", "dx", "dx.len", "dret"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_primal_return", "enzyme_seed", "seed(dret)",
                     "enzyme_dup", "x", "dx", "enzyme_const", "x.len"}));
  ASSERT_EQ(plan.length_checks.size(), 1u);
  EXPECT_EQ(plan.length_checks[0].primal_len, 1u);
  EXPECT_EQ(plan.length_checks[0].shadow_len, 3u);
  EXPECT_EQ(plan.length_checks[0].factor, 1u);
  EXPECT_EQ(plan.length_checks[0].what, "shadow `dx` of `x`");
  EXPECT_EQ(Leaves(plan), (Strings{"Primal"}));
  // Roles: dx.len is the shadow of source LLVM param 1 (the length).
  const TargetParam &dx_len = plan.target_params[3];
  EXPECT_EQ(dx_len.role, TargetParam::Role::Shadow);
  EXPECT_EQ(dx_len.source_param, 1u);
  EXPECT_EQ(dx_len.lane, 0u);
  EXPECT_EQ(plan.target_params[2].role, TargetParam::Role::Shadow);
  EXPECT_EQ(plan.target_params[2].source_param, 0u);
}

TEST(PlanTest, ForwardSliceWidth2) {
  LoweringPlan plan =
      Plan("f(x: &[f64]) -> f64", "autodiff_forward(df, 2, Dual, Dual)");
  EXPECT_EQ(plan.mode, DiffMode::Forward);
  EXPECT_EQ(plan.width, 2u);
  EXPECT_EQ(ParamNames(plan),
            (Strings{"x", "x.len", "dx_0", "dx_0.len", "dx_1", "dx_1.len"}));
  EXPECT_EQ(CallArgs(plan), (Strings{"enzyme_primal_return", "enzyme_width",
                                     "width=2", "enzyme_dup", "x", "dx_0",
                                     "dx_1", "enzyme_const", "x.len"}));
  EXPECT_EQ(Checks(plan), (Strings{"dx_0.len>=1*x.len: shadow `dx_0` of `x`",
                                   "dx_1.len>=1*x.len: shadow `dx_1` of `x`"}));
  EXPECT_EQ(Leaves(plan), (Strings{"Primal", "Tangent(0)", "Tangent(1)"}));
  EXPECT_EQ(plan.target_params[4].lane, 1u);
  EXPECT_EQ(plan.target_params[5].lane, 1u);
  EXPECT_EQ(plan.target_params[5].source_param, 1u);
}

TEST(PlanTest, ForwardScalarsWidth4WithDualOnlyReturn) {
  LoweringPlan plan = Plan("f(x: f64, y: f64) -> f64",
                           "autodiff_forward(df, 4, Dual, Const, DualOnly)");
  EXPECT_EQ(ParamNames(plan),
            (Strings{"x", "dx_0", "dx_1", "dx_2", "dx_3", "y"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_width", "width=4", "enzyme_dup", "x", "dx_0",
                     "dx_1", "dx_2", "dx_3", "enzyme_const", "y"}));
  EXPECT_TRUE(plan.length_checks.empty());
  EXPECT_EQ(Leaves(plan),
            (Strings{"Tangent(0)", "Tangent(1)", "Tangent(2)", "Tangent(3)"}));
}

TEST(PlanTest, DualOnlyReturn) {
  LoweringPlan plan =
      Plan("f(x: f64) -> f64", "autodiff_forward(df, Dual, DualOnly)");
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "dx"}));
  EXPECT_EQ(CallArgs(plan), (Strings{"enzyme_dup", "x", "dx"}));
  EXPECT_EQ(Leaves(plan), (Strings{"Tangent(0)"}));
}

TEST(PlanTest, DualOnlyInputUsesDupNoNeed) {
  LoweringPlan plan = Plan("f(x: &f32, y: f32) -> f32",
                           "autodiff_forward(df, DualOnly, Const, Dual)");
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "dx", "y"}));
  EXPECT_EQ(CallArgs(plan), (Strings{"enzyme_primal_return", "enzyme_dupnoneed",
                                     "x", "dx", "enzyme_const", "y"}));
  EXPECT_EQ(Leaves(plan), (Strings{"Primal", "Tangent(0)"}));
}

TEST(PlanTest, DualvSliceStride) {
  LoweringPlan plan =
      Plan("f(x: &[f32]) -> f32", "autodiff_forward(df, 3, Dualv, Dual)");
  EXPECT_EQ(plan.llvm_inputs,
            (std::vector<DiffActivity>{K::Dualv, DiffActivity::Size(4)}));
  // One shadow holds all three lanes.
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "x.len", "dx", "dx.len"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_primal_return", "enzyme_width", "width=3",
                     "enzyme_dup", "x", "dx[0*4*x.len]", "dx[1*4*x.len]",
                     "dx[2*4*x.len]", "enzyme_const", "x.len"}));
  EXPECT_EQ(Checks(plan), (Strings{"dx.len>=3*x.len: shadow `dx` of `x`"}));
  EXPECT_EQ(Leaves(plan),
            (Strings{"Primal", "Tangent(0)", "Tangent(1)", "Tangent(2)"}));
}

TEST(PlanTest, DualvOnlyPointerStride) {
  LoweringPlan plan =
      Plan("g(p: &mut f64)", "autodiff_forward(dg, 2, DualvOnly)");
  EXPECT_EQ(ParamNames(plan), (Strings{"p", "dp"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_width", "width=2", "enzyme_dupnoneed", "p",
                     "dp[0*8]", "dp[1*8]"}));
  EXPECT_TRUE(plan.length_checks.empty());
  EXPECT_TRUE(plan.ret_leaves.empty());
}

TEST(PlanTest, DualvNeedsKnownPointee) {
  SourceSignature sig;
  sig.name = "g";
  SourceType opaque;
  opaque.kind = SourceType::Kind::Opaque;
  SourceType ptr;
  ptr.kind = SourceType::Kind::MutPtr;
  ptr.elems.push_back(opaque);
  sig.params = {{"p", ptr}};
  AutoDiffItem item;
  item.source = "g";
  item.target = "dg";
  item.attrs.mode = DiffMode::Forward;
  item.attrs.width = 2;
  item.attrs.input_activity = {K::Dualv};
  item.attrs.ret_activity = K::None;
  absl::StatusOr<LoweringPlan> plan = PlanLowering(sig, item);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(plan.status().message()),
            "in autodiff of `g`: Dualv needs a known pointee type: parameter "
            "`p` has type `*mut opaque`");
}

TEST(PlanTest, PairPairsEachValueWithItsOwnShadow) {
  LoweringPlan plan =
      Plan("f(p: (f64, f64)) -> f64", "autodiff_forward(df, Dual, Dual)");
  EXPECT_EQ(ParamNames(plan), (Strings{"p.0", "p.1", "dp.0", "dp.1"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_primal_return", "enzyme_dup", "p.0", "dp.0",
                     "enzyme_dup", "p.1", "dp.1"}));
  EXPECT_EQ(plan.target_params[3].source_param, 1u);
  EXPECT_EQ(plan.target_params[3].role, TargetParam::Role::Shadow);
}

TEST(PlanTest, PairWidth2) {
  LoweringPlan plan = Plan("f(p: (f32, f32)) -> f32",
                           "autodiff_forward(df, 2, Dual, DualOnly)");
  EXPECT_EQ(ParamNames(plan),
            (Strings{"p.0", "p.1", "dp_0.0", "dp_0.1", "dp_1.0", "dp_1.1"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_width", "width=2", "enzyme_dup", "p.0", "dp_0.0",
                     "dp_1.0", "enzyme_dup", "p.1", "dp_0.1", "dp_1.1"}));
  EXPECT_EQ(Leaves(plan), (Strings{"Tangent(0)", "Tangent(1)"}));
}

TEST(PlanTest, ActivePairReverse) {
  LoweringPlan plan = Plan("f(p: (f64, f64), y: f64) -> f64",
                           "autodiff_reverse(df, Active, Const, Active)");
  EXPECT_EQ(ParamNames(plan), (Strings{"p.0", "p.1", "y", "dret"}));
  EXPECT_EQ(
      CallArgs(plan),
      (Strings{"enzyme_primal_return", "enzyme_seed", "seed(dret)",
               "enzyme_out", "p.0", "enzyme_out", "p.1", "enzyme_const", "y"}));
  EXPECT_EQ(Leaves(plan), (Strings{"Primal", "Gradient(0)", "Gradient(1)"}));
}

TEST(PlanTest, ActiveOnlyReturn) {
  LoweringPlan plan = Plan("f(x: f64, y: f64) -> f64",
                           "autodiff_reverse(df, Active, Active, ActiveOnly)");
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "y", "dret"}));
  EXPECT_EQ(CallArgs(plan), (Strings{"enzyme_seed", "seed(dret)", "enzyme_out",
                                     "x", "enzyme_out", "y"}));
  EXPECT_EQ(Leaves(plan), (Strings{"Gradient(0)", "Gradient(1)"}));
}

TEST(PlanTest, ConstSliceReverse) {
  LoweringPlan plan = Plan("f(x: &[f64], y: f64) -> f64",
                           "autodiff_reverse(df, Const, Active, Active)");
  EXPECT_EQ(ParamNames(plan), (Strings{"x", "x.len", "y", "dret"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_primal_return", "enzyme_seed", "seed(dret)",
                     "enzyme_const", "x", "enzyme_const", "x.len", "enzyme_out",
                     "y"}));
  EXPECT_TRUE(plan.length_checks.empty());
  EXPECT_EQ(Leaves(plan), (Strings{"Primal", "Gradient(2)"}));
}

TEST(PlanTest, DuplicatedOnlyAndUnnamedParams) {
  LoweringPlan plan = Plan("f(&mut f64, &[f32])",
                           "autodiff_reverse(df, DuplicatedOnly, Duplicated)");
  EXPECT_EQ(ParamNames(plan), (Strings{"arg0", "darg0", "arg1", "arg1.len",
                                       "darg1", "darg1.len"}));
  EXPECT_EQ(CallArgs(plan),
            (Strings{"enzyme_dupnoneed", "arg0", "darg0", "enzyme_dup", "arg1",
                     "darg1", "enzyme_const", "arg1.len"}));
  EXPECT_EQ(Checks(plan),
            (Strings{"darg1.len>=1*arg1.len: shadow `darg1` of `arg1`"}));
  EXPECT_TRUE(plan.ret_leaves.empty());
}

TEST(PlanTest, LlvmDerivedSignatureWithSizeMarker) {
  // What codegen builds without a signature: `ptr, i64 -> double`, with
  // rustc-style pre-expanded activities.
  SourceSignature sig;
  sig.name = "f";
  SourceType opaque;
  opaque.kind = SourceType::Kind::Opaque;
  SourceType ptr;
  ptr.kind = SourceType::Kind::MutPtr;
  ptr.elems.push_back(opaque);
  sig.params = {{"", ptr}, {"", SourceType::Int(64, true)}};
  sig.ret = SourceType::Float(64);
  AutoDiffItem item;
  item.source = "f";
  item.target = "df";
  item.attrs.input_activity = {K::Duplicated, DiffActivity::Size(8)};
  item.attrs.ret_activity = K::Active;
  absl::StatusOr<LoweringPlan> plan = PlanLowering(sig, item);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(ParamNames(*plan), (Strings{"arg0", "darg0", "arg1", "dret"}));
  EXPECT_EQ(CallArgs(*plan),
            (Strings{"enzyme_primal_return", "enzyme_seed", "seed(dret)",
                     "enzyme_dup", "arg0", "darg0", "enzyme_const", "arg1"}));
  EXPECT_EQ(Leaves(*plan), (Strings{"Primal"}));
}

TEST(PlanTest, InvalidItemIsRejected) {
  SourceSignature sig = Sig("f(x: f64) -> f64");
  AutoDiffItem item;
  item.source = "f";
  item.target = "df";
  item.attrs.mode = DiffMode::Reverse;
  item.attrs.width = 1;
  item.attrs.input_activity = {K::Dual};
  item.attrs.ret_activity = K::Active;
  absl::StatusOr<LoweringPlan> plan = PlanLowering(sig, item);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(std::string(plan.status().message()),
            "in autodiff of `f`: Dual can not be used in Reverse Mode");
}

} // namespace
} // namespace autodiff
