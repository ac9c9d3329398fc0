//===- tests/unit/frontend/ValidateTest.cpp - Activities against types ----===//
//
// MakeAutoDiffItem and ValidateAutoDiffItem: count, mode, return, type and
// width diagnostics, and the items they build.
//
//===----------------------------------------------------------------------===//

#include "frontend/Validate.h"

#include "gtest/gtest.h"

#include <string>

namespace autodiff {
namespace {

using K = DiffActivityKind;

SourceSignature Sig(const char *text) {
  absl::StatusOr<SourceSignature> sig = ParseSourceSignature(text);
  EXPECT_TRUE(sig.ok()) << sig.status();
  return sig.ok() ? *sig : SourceSignature();
}

ParsedAttribute Attr(const char *text) {
  absl::StatusOr<ParsedAttribute> attr = ParseAutodiffAttribute(text);
  EXPECT_TRUE(attr.ok()) << attr.status();
  return attr.ok() ? *attr : ParsedAttribute();
}

SourceType Wrap(SourceType::Kind kind, SourceType inner) {
  SourceType t;
  t.kind = kind;
  t.elems.push_back(std::move(inner));
  return t;
}

SourceType Opaque() {
  SourceType t;
  t.kind = SourceType::Kind::Opaque;
  return t;
}

struct Row {
  const char *sig;
  const char *attr;
  const char *message; ///< Empty when the pair is valid.
};

std::ostream &operator<<(std::ostream &os, const Row &row) {
  return os << "`" << row.sig << "` with `" << row.attr << "`";
}

class MakeItemTest : public ::testing::TestWithParam<Row> {};

TEST_P(MakeItemTest, Diagnoses) {
  const Row &row = GetParam();
  absl::StatusOr<AutoDiffItem> item =
      MakeAutoDiffItem(Sig(row.sig), Attr(row.attr));
  if (std::string(row.message).empty()) {
    EXPECT_TRUE(item.ok()) << item.status();
    return;
  }
  ASSERT_FALSE(item.ok()) << ToString(*item);
  EXPECT_EQ(item.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(item.status().message()), row.message);
}

INSTANTIATE_TEST_SUITE_P(
    Count, MakeItemTest,
    ::testing::Values(
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, Active)",
            "in autodiff of `f`: expected 2 activities, but found 1"},
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, Active, Active, Active)",
            "in autodiff of `f`: expected 2 activities, but found 3"},
        Row{"g(x: &mut f64)", "autodiff_reverse(dg, Duplicated, Active)",
            "in autodiff of `g`: expected 1 activities, but found 2"},
        Row{"g(x: &mut f64, y: f64)", "autodiff_reverse(dg)",
            "in autodiff of `g`: expected 2 activities, but found 0"}),
    [](const ::testing::TestParamInfo<Row> &info) {
      return "Count" + std::to_string(info.index);
    });

INSTANTIATE_TEST_SUITE_P(
    Mode, MakeItemTest,
    ::testing::Values(
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, Dual, Active)",
            "in autodiff of `f`: Dual can not be used in Reverse Mode"},
        Row{"f(x: &[f64]) -> f64", "autodiff_reverse(df, Dualv, Active)",
            "in autodiff of `f`: Dualv can not be used in Reverse Mode"},
        Row{"f(x: f64) -> f64", "autodiff_forward(df, Active, Dual)",
            "in autodiff of `f`: Active can not be used in Forward Mode"},
        Row{"f(x: &[f64]) -> f64", "autodiff_forward(df, Duplicated, Dual)",
            "in autodiff of `f`: Duplicated can not be used in Forward Mode"},
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, None, Active)",
            "in autodiff of `f`: None can not be used in Reverse Mode"}),
    [](const ::testing::TestParamInfo<Row> &info) {
      return "Mode" + std::to_string(info.index);
    });

INSTANTIATE_TEST_SUITE_P(
    Return, MakeItemTest,
    ::testing::Values(
        Row{"f(x: &[f64]) -> f64",
            "autodiff_reverse(df, Duplicated, "
            "Duplicated)",
            "in autodiff of `f`: invalid return activity Duplicated in "
            "Reverse Mode"},
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, Active, Dual)",
            "in autodiff of `f`: invalid return activity Dual in Reverse "
            "Mode"},
        Row{"f(x: f64) -> f64", "autodiff_forward(df, Dual, Active)",
            "in autodiff of `f`: invalid return activity Active in Forward "
            "Mode"},
        Row{"f(x: f64) -> i32", "autodiff_reverse(df, Active, Active)",
            "in autodiff of `f`: Active can not be used for this type: the "
            "return has type `i32`; only floating-point values can be "
            "Active"},
        Row{"f(x: &[f64]) -> &f64", "autodiff_forward(df, Dual, Dual)",
            "in autodiff of `f`: Dual can not be used for this type: the "
            "return has type `&f64`; only floating-point values can be Dual"},
        Row{"f(x: &[f64]) -> usize", "autodiff_forward(df, Dual, DualvOnly)",
            "in autodiff of `f`: DualvOnly can not be used for this type: the "
            "return has type `usize`; only floating-point values can be "
            "DualvOnly"},
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, Active, None)",
            "in autodiff of `f`: None can not be used for this type: the "
            "return has type `f64`; a returned value needs an activity (use "
            "Const to ignore it)"}),
    [](const ::testing::TestParamInfo<Row> &info) {
      return "Return" + std::to_string(info.index);
    });

INSTANTIATE_TEST_SUITE_P(
    Type, MakeItemTest,
    ::testing::Values(
        Row{"f(x: &[f64]) -> f64", "autodiff_reverse(df, Active, Active)",
            "in autodiff of `f`: Active can not be used for this type: "
            "parameter `x` has type `&[f64]`; only floating-point values can "
            "be Active"},
        Row{"f(f64, &[f64]) -> f64",
            "autodiff_reverse(df, Active, Active, Active)",
            "in autodiff of `f`: Active can not be used for this type: "
            "parameter #2 has type `&[f64]`; only floating-point values can "
            "be Active"},
        Row{"f(n: usize) -> f64", "autodiff_reverse(df, ActiveOnly, Active)",
            "in autodiff of `f`: ActiveOnly can not be used for this type: "
            "parameter `n` has type `usize`; only floating-point values can be "
            "ActiveOnly"},
        Row{"f(p: (f64, i32)) -> f64", "autodiff_reverse(df, Active, Active)",
            "in autodiff of `f`: Active can not be used for this type: "
            "parameter `p` has type `(f64, i32)`; only floating-point values "
            "can be Active"},
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, Duplicated, Active)",
            "in autodiff of `f`: Duplicated can not be used for this type: "
            "parameter `x` has type `f64`; only pointers, references and "
            "slices can be Duplicated"},
        Row{"f(p: (f64, f64)) -> f64",
            "autodiff_reverse(df, DuplicatedOnly, Active)",
            "in autodiff of `f`: DuplicatedOnly can not be used for this "
            "type: parameter `p` has type `(f64, f64)`; only pointers, "
            "references and slices can be DuplicatedOnly"},
        Row{"f(x: f64) -> f64", "autodiff_forward(df, Dualv, Dual)",
            "in autodiff of `f`: Dualv can not be used for this type: "
            "parameter `x` has type `f64`; only pointers, references and "
            "slices can be Dualv"},
        Row{"f(n: i32, x: f64) -> f64",
            "autodiff_forward(df, Dual, Dual, "
            "Dual)",
            "in autodiff of `f`: Dual can not be used for this type: "
            "parameter `n` has type `i32`; only floating-point values, "
            "pointers, references and slices can be Dual"},
        Row{"f(b: bool, x: f64) -> f64",
            "autodiff_forward(df, DualOnly, "
            "Dual, Dual)",
            "in autodiff of `f`: DualOnly can not be used for this type: "
            "parameter `b` has type `bool`; only floating-point values, "
            "pointers, references and slices can be DualOnly"},
        Row{"f(u: ())", "autodiff_reverse(df, Active)",
            "in autodiff of `f`: Active can not be used for this type: "
            "parameter `u` has type `()`; only floating-point values can be "
            "Active"}),
    [](const ::testing::TestParamInfo<Row> &info) {
      return "Type" + std::to_string(info.index);
    });

INSTANTIATE_TEST_SUITE_P(
    Width, MakeItemTest,
    ::testing::Values(
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, 2, Active, Active)", ""},
        // The width is checked before the activities.
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, 65, Dual, Dual)",
            "in autodiff of `f`: width 65 is larger than the supported "
            "maximum of 64"},
        Row{"f(x: f64) -> f64", "autodiff_reverse(df, 8, Dual, Dual)",
            "in autodiff of `f`: Dual can not be used in Reverse Mode"},
        Row{"f(x: f64) -> f64", "autodiff_forward(df, 8, Dual, Dual)", ""}),
    [](const ::testing::TestParamInfo<Row> &info) {
      return "Width" + std::to_string(info.index);
    });

INSTANTIATE_TEST_SUITE_P(
    FirstErrorWins, MakeItemTest,
    ::testing::Values(
        // Two bad inputs: the first is reported.
        Row{"f(a: i32, b: f64) -> f64",
            "autodiff_reverse(df, Active, Dual, Active)",
            "in autodiff of `f`: Active can not be used for this type: "
            "parameter `a` has type `i32`; only floating-point values can be "
            "Active"},
        // A bad input and a bad return: the input is reported.
        Row{"f(a: f64) -> f64", "autodiff_reverse(df, Dual, Dual)",
            "in autodiff of `f`: Dual can not be used in Reverse Mode"},
        // The count comes first.
        Row{"f(a: f64) -> f64", "autodiff_reverse(df, 2, Dual)",
            "in autodiff of `f`: expected 2 activities, but found 1"}),
    [](const ::testing::TestParamInfo<Row> &info) {
      return "First" + std::to_string(info.index);
    });

INSTANTIATE_TEST_SUITE_P(
    Accepted, MakeItemTest,
    ::testing::Values(
        Row{"f(p: (f64, f64), q: (f32, f64)) -> (f64, f64)",
            "autodiff_reverse(df, Active, ActiveOnly, Active)", ""},
        Row{"f(p: (f64, f64), x: &[f32]) -> (f32, f32)",
            "autodiff_forward(df, 2, Dual, DualOnly, Dual)", ""},
        Row{"f(p: &i32, q: *const f64, r: *mut f32, s: &mut [u8])",
            "autodiff_reverse(df, Duplicated, DuplicatedOnly, Duplicated, "
            "Duplicated)",
            ""},
        Row{"f(p: &f64, x: &mut [f32]) -> f64",
            "autodiff_forward(df, 4, Dualv, DualvOnly, DualvOnly)", ""},
        Row{"f(a: i32, b: bool, c: &[f64], d: (u8, u8), e: ()) -> usize",
            "autodiff_reverse(df, Const, Const, Const, Const, Const, Const)",
            ""},
        Row{"f(x: f64) -> f64", "autodiff_forward(df, Const, Const)", ""}),
    [](const ::testing::TestParamInfo<Row> &info) {
      return "Ok" + std::to_string(info.index);
    });

TEST(MakeItemFieldsTest, CopiesAttributeAndSplitsReturn) {
  absl::StatusOr<AutoDiffItem> item =
      MakeAutoDiffItem(Sig("sum_sq(x: &[f64], n: usize) -> f64"),
                       Attr("autodiff_reverse(d_sum_sq, Duplicated, Const, "
                            "ActiveOnly)"));
  ASSERT_TRUE(item.ok()) << item.status();
  EXPECT_EQ(item->source, "sum_sq");
  EXPECT_EQ(item->target, "d_sum_sq");
  EXPECT_EQ(item->attrs.mode, DiffMode::Reverse);
  EXPECT_EQ(item->attrs.width, 1u);
  EXPECT_EQ(item->attrs.input_activity,
            (std::vector<DiffActivity>{K::Duplicated, K::Const}));
  EXPECT_EQ(item->attrs.ret_activity, DiffActivity(K::ActiveOnly));
}

TEST(MakeItemFieldsTest, UnitReturnGetsNone) {
  absl::StatusOr<AutoDiffItem> item =
      MakeAutoDiffItem(Sig("scale(x: &mut [f32], a: f32)"),
                       Attr("autodiff_forward(d_scale, 3, Dualv, Dual)"));
  ASSERT_TRUE(item.ok()) << item.status();
  EXPECT_EQ(item->attrs.mode, DiffMode::Forward);
  EXPECT_EQ(item->attrs.width, 3u);
  EXPECT_EQ(item->attrs.input_activity,
            (std::vector<DiffActivity>{K::Dualv, K::Dual}));
  EXPECT_EQ(item->attrs.ret_activity, DiffActivity(K::None));
}

/// The C++ API route: items assembled by hand.
class ValidateItemTest : public ::testing::Test {
protected:
  AutoDiffItem Item(DiffMode mode, std::vector<DiffActivity> inputs,
                    DiffActivity ret, uint32_t width = 1) {
    AutoDiffItem item;
    item.source = "src";
    item.target = "d_src";
    item.attrs.mode = mode;
    item.attrs.width = width;
    item.attrs.input_activity = std::move(inputs);
    item.attrs.ret_activity = ret;
    return item;
  }
};

TEST_F(ValidateItemTest, WidthZero) {
  absl::Status status = ValidateAutoDiffItem(
      Sig("f(x: f64) -> f64"), Item(DiffMode::Forward, {K::Dual}, K::Dual, 0));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(status.message()),
            "in autodiff of `src`: width must be at least 1");
}

TEST_F(ValidateItemTest, CountMismatchCountsTheReturn) {
  absl::Status status =
      ValidateAutoDiffItem(Sig("f(x: f64, y: f64) -> f64"),
                           Item(DiffMode::Reverse, {K::Active}, K::Active));
  EXPECT_EQ(std::string(status.message()),
            "in autodiff of `src`: expected 3 activities, but found 2");
}

TEST_F(ValidateItemTest, EmptySourceFallsBackToSignatureName) {
  AutoDiffItem item = Item(DiffMode::Reverse, {K::Dual}, K::Active);
  item.source.clear();
  absl::Status status = ValidateAutoDiffItem(Sig("f(x: f64) -> f64"), item);
  EXPECT_EQ(std::string(status.message()),
            "in autodiff of `f`: Dual can not be used in Reverse Mode");
}

TEST_F(ValidateItemTest, ActiveReturnOnUnit) {
  absl::Status status =
      ValidateAutoDiffItem(Sig("f(x: &mut f64)"),
                           Item(DiffMode::Reverse, {K::Duplicated}, K::Active));
  EXPECT_EQ(std::string(status.message()),
            "in autodiff of `src`: Active can not be used for this type: the "
            "return has type `()`; only floating-point values can be Active");
}

TEST_F(ValidateItemTest, OpaqueIsPointerLike) {
  // What SignatureFromLlvm derives for `ptr` and an opaque by-pointer value.
  SourceSignature sig;
  sig.name = "f";
  sig.params = {{"", Wrap(SourceType::Kind::MutPtr, Opaque())},
                {"", Opaque()},
                {"", SourceType::Int(64, true)}};
  sig.ret = SourceType::Float(64);
  EXPECT_TRUE(ValidateAutoDiffItem(sig, Item(DiffMode::Reverse,
                                             {K::Duplicated, K::DuplicatedOnly,
                                              DiffActivity::Size(8)},
                                             K::Active))
                  .ok());
  EXPECT_TRUE(
      ValidateAutoDiffItem(sig, Item(DiffMode::Forward,
                                     {K::Dual, K::Dual, K::Const}, K::Dual, 2))
          .ok());
  EXPECT_TRUE(ValidateAutoDiffItem(sig, Item(DiffMode::Forward,
                                             {K::Dualv, K::Const, K::Const},
                                             K::DualOnly))
                  .ok());
  // Opaque is not a float.
  absl::Status status = ValidateAutoDiffItem(
      sig, Item(DiffMode::Reverse, {K::Active, K::Const, K::Const}, K::Active));
  EXPECT_EQ(std::string(status.message()),
            "in autodiff of `src`: Active can not be used for this type: "
            "parameter #1 has type `*mut opaque`; only floating-point values "
            "can be Active");
}

TEST_F(ValidateItemTest, SizeMarkerOnlyOnIntegers) {
  absl::Status status = ValidateAutoDiffItem(
      Sig("f(x: &f64, y: f64)"),
      Item(DiffMode::Reverse, {K::Duplicated, DiffActivity::Size(8)}, K::None));
  EXPECT_EQ(std::string(status.message()),
            "in autodiff of `src`: FakeActivitySize can not be used for this "
            "type: parameter `y` has type `f64`; only integer lengths can be "
            "FakeActivitySize");
}

TEST_F(ValidateItemTest, ConstReturnOnUnitIsAccepted) {
  EXPECT_TRUE(
      ValidateAutoDiffItem(Sig("f(x: &mut f64)"),
                           Item(DiffMode::Reverse, {K::Duplicated}, K::Const))
          .ok());
}

TEST(WidthLimitTest, WidthsAboveTheMaximumAreRejectedUpFront) {
  absl::StatusOr<AutoDiffItem> ok =
      MakeAutoDiffItem(Sig("f(x: f64) -> f64"),
                       Attr("autodiff_forward(df, 64, Dual, Dual)"));
  EXPECT_TRUE(ok.ok()) << ok.status();
  absl::StatusOr<AutoDiffItem> big =
      MakeAutoDiffItem(Sig("f(x: f64) -> f64"),
                       Attr("autodiff_forward(df, 65, Dual, Dual)"));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(std::string(big.status().message()),
            "in autodiff of `f`: width 65 is larger than the supported "
            "maximum of 64");
  absl::StatusOr<AutoDiffItem> huge =
      MakeAutoDiffItem(Sig("f(x: f64) -> f64"),
                       Attr("autodiff_forward(df, 100000000, Dual, Dual)"));
  EXPECT_FALSE(huge.ok());
}

} // namespace
} // namespace autodiff
