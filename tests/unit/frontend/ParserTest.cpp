//===- tests/unit/frontend/ParserTest.cpp - Attribute syntax --------------===//
//
// `autodiff_reverse(...)` / `autodiff_forward(...)` and `SOURCE=ATTR`.
//
//===----------------------------------------------------------------------===//

#include "frontend/Parser.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

namespace autodiff {
namespace {

using K = DiffActivityKind;

std::vector<K> Kinds(const std::vector<DiffActivity> &activities) {
  std::vector<K> kinds;
  for (const DiffActivity &a : activities)
    kinds.push_back(a.kind);
  return kinds;
}

struct AcceptRow {
  const char *text;
  DiffMode mode;
  const char *target;
  uint32_t width;
  std::vector<K> activities;
};

std::ostream &operator<<(std::ostream &os, const AcceptRow &row) {
  return os << "`" << row.text << "`";
}

class AttributeAcceptTest : public ::testing::TestWithParam<AcceptRow> {};

TEST_P(AttributeAcceptTest, Parses) {
  const AcceptRow &row = GetParam();
  absl::StatusOr<ParsedAttribute> attr = ParseAutodiffAttribute(row.text);
  ASSERT_TRUE(attr.ok()) << attr.status();
  EXPECT_EQ(attr->mode, row.mode);
  EXPECT_EQ(attr->target, row.target);
  EXPECT_EQ(attr->width, row.width);
  EXPECT_EQ(Kinds(attr->activities), row.activities);
}

INSTANTIATE_TEST_SUITE_P(
    Accepts, AttributeAcceptTest,
    ::testing::Values(
        AcceptRow{"autodiff_reverse(d_f, Duplicated, Const, Active)",
                  DiffMode::Reverse,
                  "d_f",
                  1,
                  {K::Duplicated, K::Const, K::Active}},
        AcceptRow{"autodiff_forward(d_f, 2, Dual, Dual)",
                  DiffMode::Forward,
                  "d_f",
                  2,
                  {K::Dual, K::Dual}},
        AcceptRow{"autodiff_forward(df,16,Dualv,DualvOnly)",
                  DiffMode::Forward,
                  "df",
                  16,
                  {K::Dualv, K::DualvOnly}},
        AcceptRow{"  autodiff_reverse ( d_g ,\tActiveOnly ,\n "
                  "DuplicatedOnly )  ",
                  DiffMode::Reverse,
                  "d_g",
                  1,
                  {K::ActiveOnly, K::DuplicatedOnly}},
        AcceptRow{"autodiff_reverse(d_h)", DiffMode::Reverse, "d_h", 1, {}},
        AcceptRow{"autodiff_reverse(d_h, Active,)",
                  DiffMode::Reverse,
                  "d_h",
                  1,
                  {K::Active}},
        AcceptRow{"autodiff_forward(_ZN4d_fn17h0123E.llvm.1, DualOnly, "
                  "Const, None)",
                  DiffMode::Forward,
                  "_ZN4d_fn17h0123E.llvm.1",
                  1,
                  {K::DualOnly, K::Const, K::None}}),
    [](const ::testing::TestParamInfo<AcceptRow> &info) {
      return "Accept" + std::to_string(info.index);
    });

struct RejectRow {
  const char *text;
  const char *message;
};

std::ostream &operator<<(std::ostream &os, const RejectRow &row) {
  return os << "`" << row.text << "`";
}

class AttributeRejectTest : public ::testing::TestWithParam<RejectRow> {};

TEST_P(AttributeRejectTest, Rejects) {
  absl::StatusOr<ParsedAttribute> attr =
      ParseAutodiffAttribute(GetParam().text);
  ASSERT_FALSE(attr.ok());
  EXPECT_EQ(attr.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(attr.status().message()), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Rejects, AttributeRejectTest,
    ::testing::Values(
        RejectRow{"autodiff(d_f, Reverse, Active)",
                  "expected autodiff_forward or autodiff_reverse, found "
                  "`autodiff`"},
        RejectRow{"autodiff_sideways(d_f, Active)",
                  "expected autodiff_forward or autodiff_reverse, found "
                  "`autodiff_sideways`"},
        RejectRow{"(d_f, Active)", "expected autodiff_forward or "
                                   "autodiff_reverse, found `(d_f, Active)`"},
        RejectRow{"   ", "expected autodiff_forward or autodiff_reverse, "
                         "found nothing"},
        RejectRow{"autodiff_reverse", "expected `(` after `autodiff_reverse`"},
        RejectRow{"autodiff_reverse d_f, Active",
                  "expected `(` after `autodiff_reverse`"},
        RejectRow{"autodiff_reverse()",
                  "missing target: expected the name of the derivative "
                  "function after `autodiff_reverse(`"},
        RejectRow{"autodiff_forward( , Dual)",
                  "missing target: expected the name of the derivative "
                  "function after `autodiff_forward(`"},
        RejectRow{"autodiff_reverse(2f, Active)",
                  "invalid target `2f`: expected a function name"},
        RejectRow{"autodiff_forward(d_f, 0, Dual)",
                  "invalid width `0`: expected a positive integer"},
        RejectRow{"autodiff_forward(d_f, 2x, Dual)",
                  "invalid width `2x`: expected a positive integer"},
        RejectRow{"autodiff_forward(d_f, -1, Dual)",
                  "invalid width `-1`: expected a positive integer"},
        RejectRow{"autodiff_forward(d_f, 99999999999, Dual)",
                  "invalid width `99999999999`: expected a positive integer"},
        RejectRow{"autodiff_reverse(d_f, Foo)",
                  "did not recognize Activity: `Foo`"},
        RejectRow{"autodiff_reverse(d_f, Active, active)",
                  "did not recognize Activity: `active`"},
        RejectRow{"autodiff_forward(d_f, Dual, 2)",
                  "did not recognize Activity: `2`"},
        RejectRow{"autodiff_reverse(d_f, FakeActivitySize)",
                  "FakeActivitySize is internal and can not be written in an "
                  "attribute"},
        RejectRow{"autodiff_reverse(d_f, Active,, Active)",
                  "argument #3 is empty"},
        RejectRow{"autodiff_reverse(d_f, Active",
                  "unbalanced parentheses: missing `)`"},
        RejectRow{"autodiff_reverse(d_f, Active))",
                  "unbalanced parentheses: unexpected `)`"},
        RejectRow{"autodiff_reverse(d_f, (Active))",
                  "unexpected `(` in the arguments of `autodiff_reverse`"},
        RejectRow{"autodiff_reverse(d_f, Active) junk",
                  "unexpected `junk` after the closing parenthesis"}),
    [](const ::testing::TestParamInfo<RejectRow> &info) {
      return "Reject" + std::to_string(info.index);
    });

TEST(AutodiffSpecTest, NameOnly) {
  absl::StatusOr<AutodiffSpec> spec =
      ParseAutodiffSpec("square=autodiff_reverse(d_square, Active, Active)");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->source, "square");
  EXPECT_FALSE(spec->signature.has_value());
  EXPECT_EQ(spec->attr.target, "d_square");
  EXPECT_EQ(spec->attr.mode, DiffMode::Reverse);
  EXPECT_EQ(Kinds(spec->attr.activities),
            (std::vector<K>{K::Active, K::Active}));
}

TEST(AutodiffSpecTest, WithSignature) {
  absl::StatusOr<AutodiffSpec> spec = ParseAutodiffSpec(
      "sum_sq(x: &[f64]) -> f64=autodiff_reverse(d_sum_sq, Duplicated, "
      "Active)");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->source, "sum_sq");
  ASSERT_TRUE(spec->signature.has_value());
  EXPECT_EQ(spec->signature->name, "sum_sq");
  ASSERT_EQ(spec->signature->params.size(), 1u);
  EXPECT_EQ(spec->signature->params[0].name, "x");
  EXPECT_EQ(spec->signature->params[0].type.ToString(), "&[f64]");
  EXPECT_EQ(spec->signature->ret, SourceType::Float(64));
  EXPECT_EQ(spec->attr.target, "d_sum_sq");
  EXPECT_EQ(Kinds(spec->attr.activities),
            (std::vector<K>{K::Duplicated, K::Active}));
}

TEST(AutodiffSpecTest, SpacesAroundEqualsAndForwardWidth) {
  absl::StatusOr<AutodiffSpec> spec = ParseAutodiffSpec(
      " rot(p: (f64, f64)) -> (f64, f64) = autodiff_forward(d_rot, 2, Dual, "
      "Dual) ");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->source, "rot");
  ASSERT_TRUE(spec->signature.has_value());
  EXPECT_EQ(spec->signature->params[0].type.kind, SourceType::Kind::Pair);
  EXPECT_EQ(spec->signature->ret.ToString(), "(f64, f64)");
  EXPECT_EQ(spec->attr.mode, DiffMode::Forward);
  EXPECT_EQ(spec->attr.width, 2u);
}

TEST(AutodiffSpecTest, NoParametersNoReturn) {
  absl::StatusOr<AutodiffSpec> spec =
      ParseAutodiffSpec("tick()=autodiff_reverse(d_tick)");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->source, "tick");
  ASSERT_TRUE(spec->signature.has_value());
  EXPECT_TRUE(spec->signature->params.empty());
  EXPECT_TRUE(spec->attr.activities.empty());
}

class SpecRejectTest : public ::testing::TestWithParam<RejectRow> {};

TEST_P(SpecRejectTest, Rejects) {
  absl::StatusOr<AutodiffSpec> spec = ParseAutodiffSpec(GetParam().text);
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(spec.status().message()), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Rejects, SpecRejectTest,
    ::testing::Values(
        RejectRow{"square", "expected SOURCE=autodiff_forward(...) or "
                            "SOURCE=autodiff_reverse(...), found `square`"},
        RejectRow{"=autodiff_reverse(d, Active)",
                  "missing the source function name before `=`"},
        RejectRow{"my square=autodiff_reverse(d, Active)",
                  "invalid source function name `my square`"},
        RejectRow{"f(x: Foo) -> f64=autodiff_reverse(df, Active, Active)",
                  "could not parse signature `f(x: Foo) -> f64`: could not "
                  "parse type `Foo`: unknown type `Foo`"},
        RejectRow{"f=autodiff_sideways(df, Active)",
                  "expected autodiff_forward or autodiff_reverse, found "
                  "`autodiff_sideways`"},
        RejectRow{"f=autodiff_reverse(df, Bogus)",
                  "did not recognize Activity: `Bogus`"}),
    [](const ::testing::TestParamInfo<RejectRow> &info) {
      return "Reject" + std::to_string(info.index);
    });

} // namespace
} // namespace autodiff
