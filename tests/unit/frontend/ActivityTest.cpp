//===- tests/unit/frontend/ActivityTest.cpp - Activity predicates ---------===//
//
// Which activity is legal where, spellings, and the item one-liner.
//
//===----------------------------------------------------------------------===//

#include "frontend/Activity.h"

#include "gtest/gtest.h"

#include <string>

namespace autodiff {
namespace {

using K = DiffActivityKind;

struct KindRow {
  K kind;
  const char *name;
  bool input_forward;
  bool input_reverse;
  bool return_forward;
  bool return_reverse;
  bool has_shadow;
  bool is_dual;
  bool is_only;
};

std::ostream &operator<<(std::ostream &os, const KindRow &row) {
  return os << row.name;
}

class ActivityKindTest : public ::testing::TestWithParam<KindRow> {};

TEST_P(ActivityKindTest, InputValidity) {
  const KindRow &row = GetParam();
  EXPECT_EQ(IsValidInputActivity(DiffMode::Forward, row.kind),
            row.input_forward);
  EXPECT_EQ(IsValidInputActivity(DiffMode::Reverse, row.kind),
            row.input_reverse);
}

TEST_P(ActivityKindTest, ReturnValidity) {
  const KindRow &row = GetParam();
  EXPECT_EQ(IsValidReturnActivity(DiffMode::Forward, row.kind),
            row.return_forward);
  EXPECT_EQ(IsValidReturnActivity(DiffMode::Reverse, row.kind),
            row.return_reverse);
}

TEST_P(ActivityKindTest, Classification) {
  const KindRow &row = GetParam();
  EXPECT_EQ(HasShadow(row.kind), row.has_shadow);
  EXPECT_EQ(IsDualKind(row.kind), row.is_dual);
  EXPECT_EQ(IsOnlyKind(row.kind), row.is_only);
}

TEST_P(ActivityKindTest, SpellingRoundTrips) {
  const KindRow &row = GetParam();
  EXPECT_EQ(ToString(row.kind), row.name);
  std::optional<K> parsed = ActivityFromString(row.name);
  if (row.kind == K::FakeActivitySize) {
    EXPECT_FALSE(parsed.has_value()) << "FakeActivitySize is internal";
  } else {
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, row.kind);
  }
}

// kind, name, in fwd, in rev, ret fwd, ret rev, shadow, dual, only
INSTANTIATE_TEST_SUITE_P(
    AllKinds, ActivityKindTest,
    ::testing::Values(
        KindRow{K::None, "None", false, false, true, true, false, false, false},
        KindRow{K::Const, "Const", true, true, true, true, false, false, false},
        KindRow{K::Active, "Active", false, true, false, true, false, false,
                false},
        KindRow{K::ActiveOnly, "ActiveOnly", false, true, false, true, false,
                false, true},
        KindRow{K::Dual, "Dual", true, false, true, false, true, true, false},
        KindRow{K::DualOnly, "DualOnly", true, false, true, false, true, true,
                true},
        KindRow{K::Dualv, "Dualv", true, false, true, false, true, true, false},
        KindRow{K::DualvOnly, "DualvOnly", true, false, true, false, true, true,
                true},
        KindRow{K::Duplicated, "Duplicated", false, true, false, false, true,
                false, false},
        KindRow{K::DuplicatedOnly, "DuplicatedOnly", false, true, false, false,
                true, false, true},
        KindRow{K::FakeActivitySize, "FakeActivitySize", true, true, false,
                false, false, false, false}),
    [](const ::testing::TestParamInfo<KindRow> &info) {
      return std::string(info.param.name);
    });

TEST(ActivityTest, UnknownSpellingsAreRejected) {
  EXPECT_FALSE(ActivityFromString("active").has_value());
  EXPECT_FALSE(ActivityFromString("Duplicate").has_value());
  EXPECT_FALSE(ActivityFromString(" Active").has_value());
  EXPECT_FALSE(ActivityFromString("").has_value());
}

TEST(ActivityTest, ModeSpelling) {
  EXPECT_EQ(ToString(DiffMode::Forward), "Forward");
  EXPECT_EQ(ToString(DiffMode::Reverse), "Reverse");
}

TEST(ActivityTest, SizeActivityCarriesElementSize) {
  DiffActivity size = DiffActivity::Size(8);
  EXPECT_EQ(size.kind, K::FakeActivitySize);
  EXPECT_EQ(size.elem_size, std::optional<uint32_t>(8));
  EXPECT_NE(size, DiffActivity::Size(4));
  EXPECT_NE(size, DiffActivity(K::FakeActivitySize));
  EXPECT_EQ(ToString(size), "FakeActivitySize(8)");
  EXPECT_EQ(ToString(DiffActivity::Size(std::nullopt)), "FakeActivitySize(?)");
  EXPECT_EQ(ToString(DiffActivity(K::Duplicated)), "Duplicated");
}

TEST(ActivityTest, ItemToString) {
  AutoDiffItem item;
  item.source = "f";
  item.target = "d_f";
  item.attrs.mode = DiffMode::Reverse;
  item.attrs.input_activity = {K::Duplicated, K::Active};
  item.attrs.ret_activity = K::Active;
  EXPECT_EQ(ToString(item),
            "d_f = autodiff_reverse(f, width 1, [Duplicated, Active] -> "
            "Active)");

  item.attrs.mode = DiffMode::Forward;
  item.attrs.width = 4;
  item.attrs.input_activity = {K::Dual, DiffActivity::Size(8), K::Const};
  item.attrs.ret_activity = K::None;
  EXPECT_EQ(ToString(item), "d_f = autodiff_forward(f, width 4, [Dual, "
                            "FakeActivitySize(8), Const] -> None)");
}

} // namespace
} // namespace autodiff
