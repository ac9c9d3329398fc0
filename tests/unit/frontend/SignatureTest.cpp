//===- tests/unit/frontend/SignatureTest.cpp - Source signatures ----------===//
//
// Every type form, its LLVM shape and size, and the signature syntax.
//
//===----------------------------------------------------------------------===//

#include "frontend/Signature.h"

#include "gtest/gtest.h"

#include <string>

namespace autodiff {
namespace {

using TK = SourceType::Kind;

struct TypeRow {
  const char *text;
  TK kind;
  const char *spelling; ///< ToString() of the parsed type.
  unsigned llvm_params;
  uint32_t size;
  bool pointer_like;
};

std::ostream &operator<<(std::ostream &os, const TypeRow &row) {
  return os << "`" << row.text << "`";
}

class TypeFormTest : public ::testing::TestWithParam<TypeRow> {};

TEST_P(TypeFormTest, Parses) {
  const TypeRow &row = GetParam();
  absl::StatusOr<SourceType> type = ParseSourceType(row.text);
  ASSERT_TRUE(type.ok()) << type.status();
  EXPECT_EQ(type->kind, row.kind);
  EXPECT_EQ(type->ToString(), row.spelling);
  EXPECT_EQ(type->LlvmParamCount(), row.llvm_params);
  EXPECT_EQ(type->SizeInBytes(), row.size);
  EXPECT_EQ(type->IsPointerLike(), row.pointer_like);
  // The spelling parses back to the same type.
  absl::StatusOr<SourceType> again = ParseSourceType(type->ToString());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *type);
}

INSTANTIATE_TEST_SUITE_P(
    AllForms, TypeFormTest,
    ::testing::Values(
        TypeRow{"&[f64; 4]", TK::Ref, "&[f64; 4]", 1, 8, true},
        TypeRow{"&mut [f32;3]", TK::MutRef, "&mut [f32; 3]", 1, 8, true},
        TypeRow{"&Params", TK::Ref, "&Params", 1, 8, true},
        TypeRow{"*const State3", TK::ConstPtr, "*const State3", 1, 8, true},
        TypeRow{"f32", TK::Float, "f32", 1, 4, false},
        TypeRow{"f64", TK::Float, "f64", 1, 8, false},
        TypeRow{"i8", TK::Int, "i8", 1, 1, false},
        TypeRow{"i16", TK::Int, "i16", 1, 2, false},
        TypeRow{"i32", TK::Int, "i32", 1, 4, false},
        TypeRow{"i64", TK::Int, "i64", 1, 8, false},
        TypeRow{"i128", TK::Int, "i128", 1, 16, false},
        TypeRow{"u8", TK::Int, "u8", 1, 1, false},
        TypeRow{"u16", TK::Int, "u16", 1, 2, false},
        TypeRow{"u32", TK::Int, "u32", 1, 4, false},
        TypeRow{"u64", TK::Int, "u64", 1, 8, false},
        TypeRow{"u128", TK::Int, "u128", 1, 16, false},
        TypeRow{"isize", TK::Int, "isize", 1, 8, false},
        TypeRow{"usize", TK::Int, "usize", 1, 8, false},
        TypeRow{"bool", TK::Bool, "bool", 1, 1, false},
        TypeRow{"&f64", TK::Ref, "&f64", 1, 8, true},
        TypeRow{"&'a f64", TK::Ref, "&f64", 1, 8, true},
        TypeRow{"&&f32", TK::Ref, "&&f32", 1, 8, true},
        TypeRow{"&mut f32", TK::MutRef, "&mut f32", 1, 8, true},
        TypeRow{"*const f64", TK::ConstPtr, "*const f64", 1, 8, true},
        TypeRow{"*mut f64", TK::MutPtr, "*mut f64", 1, 8, true},
        TypeRow{"*mut c_void", TK::MutPtr, "*mut opaque", 1, 8, true},
        TypeRow{"&[f64]", TK::Slice, "&[f64]", 2, 16, true},
        TypeRow{"& [ f32 ]", TK::Slice, "&[f32]", 2, 16, true},
        TypeRow{"&mut [f32]", TK::MutSlice, "&mut [f32]", 2, 16, true},
        TypeRow{"&mut[u8]", TK::MutSlice, "&mut [u8]", 2, 16, true},
        TypeRow{"(f64, f64)", TK::Pair, "(f64, f64)", 2, 16, false},
        TypeRow{"(f32,f32)", TK::Pair, "(f32, f32)", 2, 8, false},
        TypeRow{"(f32, f64,)", TK::Pair, "(f32, f64)", 2, 16, false},
        TypeRow{"(u8, u16)", TK::Pair, "(u8, u16)", 2, 4, false},
        TypeRow{"()", TK::Unit, "()", 0, 0, false},
        TypeRow{"  usize  ", TK::Int, "usize", 1, 8, false}),
    [](const ::testing::TestParamInfo<TypeRow> &info) {
      return "Form" + std::to_string(info.index);
    });

TEST(SignatureTypeTest, ElementsAreModelled) {
  absl::StatusOr<SourceType> slice = ParseSourceType("&mut [f32]");
  ASSERT_TRUE(slice.ok()) << slice.status();
  ASSERT_EQ(slice->elems.size(), 1u);
  EXPECT_EQ(slice->elems[0], SourceType::Float(32));
  EXPECT_TRUE(slice->IsSlice());

  absl::StatusOr<SourceType> pair = ParseSourceType("(f64, i32)");
  ASSERT_TRUE(pair.ok()) << pair.status();
  ASSERT_EQ(pair->elems.size(), 2u);
  EXPECT_EQ(pair->elems[0], SourceType::Float(64));
  EXPECT_EQ(pair->elems[1], SourceType::Int(32, true));

  absl::StatusOr<SourceType> usize = ParseSourceType("usize");
  ASSERT_TRUE(usize.ok());
  EXPECT_FALSE(usize->is_signed);
  EXPECT_EQ(usize->bits, 64u);
  EXPECT_TRUE(usize->is_pointer_sized);
  EXPECT_NE(*usize, SourceType::Int(64, true));
  EXPECT_NE(*usize, SourceType::Int(64, false)); // Spelled differently.
}

struct TypeErrorRow {
  const char *text;
  const char *message;
};

std::ostream &operator<<(std::ostream &os, const TypeErrorRow &row) {
  return os << "`" << row.text << "`";
}

class TypeErrorTest : public ::testing::TestWithParam<TypeErrorRow> {};

TEST_P(TypeErrorTest, Rejects) {
  absl::StatusOr<SourceType> type = ParseSourceType(GetParam().text);
  ASSERT_FALSE(type.ok());
  EXPECT_EQ(type.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(type.status().message()), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, TypeErrorTest,
    ::testing::Values(
        TypeErrorRow{"String",
                     "could not parse type `String`: unknown type `String`"},
        TypeErrorRow{"", "could not parse type ``: expected a type"},
        TypeErrorRow{"*f64", "could not parse type `*f64`: expected `const` "
                             "or `mut` after `*`"},
        TypeErrorRow{"&[f64", "could not parse type `&[f64`: expected `]` to "
                              "close the slice type"},
        TypeErrorRow{"(f64, f64, f64)",
                     "could not parse type `(f64, f64, f64)`: only pairs are "
                     "supported, found a tuple of 3"},
        TypeErrorRow{"(f64,)", "could not parse type `(f64,)`: only pairs are "
                               "supported, found a tuple of 1"},
        TypeErrorRow{"(&f64, f64)",
                     "could not parse type `(&f64, f64)`: a pair must hold "
                     "two scalars, found `&f64`"},
        TypeErrorRow{"f64 f64",
                     "could not parse type `f64 f64`: unexpected `f64`"},
        TypeErrorRow{"[f64]", "could not parse type `[f64]`: unexpected "
                              "`[f64]`"},
        TypeErrorRow{"f63", "could not parse type `f63`: unknown type `f63`"},
        TypeErrorRow{"&[f64; 0]", "could not parse type `&[f64; 0]`: expected "
                                  "a positive array length after `;`"},
        TypeErrorRow{"&[f64; 4", "could not parse type `&[f64; 4`: expected "
                                 "`]` to close the array type"},
        TypeErrorRow{"&params", "could not parse type `&params`: unknown "
                                "type `params`"},
        TypeErrorRow{"i7", "could not parse type `i7`: unknown type `i7`"}),
    [](const ::testing::TestParamInfo<TypeErrorRow> &info) {
      return "Error" + std::to_string(info.index);
    });

TEST(SignatureTest, NamedParametersAndReturn) {
  absl::StatusOr<SourceSignature> sig =
      ParseSourceSignature("sum_sq(x: &[f64], n: usize) -> f64");
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_EQ(sig->name, "sum_sq");
  ASSERT_EQ(sig->params.size(), 2u);
  EXPECT_EQ(sig->params[0].name, "x");
  EXPECT_EQ(sig->params[0].type.ToString(), "&[f64]");
  EXPECT_EQ(sig->params[1].name, "n");
  EXPECT_EQ(sig->params[1].type.ToString(), "usize");
  EXPECT_EQ(sig->params[1].type.bits, 64u);
  EXPECT_EQ(sig->ret, SourceType::Float(64));
}

TEST(SignatureTest, UnnamedParametersAndNoReturn) {
  absl::StatusOr<SourceSignature> sig =
      ParseSourceSignature("  f( &[f64] , (f64, f64), *mut f32 )  ");
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_EQ(sig->name, "f");
  ASSERT_EQ(sig->params.size(), 3u);
  EXPECT_EQ(sig->params[0].name, "");
  EXPECT_EQ(sig->params[0].type.kind, TK::Slice);
  EXPECT_EQ(sig->params[1].type.kind, TK::Pair);
  EXPECT_EQ(sig->params[2].type.ToString(), "*mut f32");
  EXPECT_EQ(sig->ret.kind, TK::Unit);
}

TEST(SignatureTest, EmptyParameterListAndUnitReturn) {
  absl::StatusOr<SourceSignature> sig = ParseSourceSignature("g() -> ()");
  ASSERT_TRUE(sig.ok()) << sig.status();
  EXPECT_EQ(sig->name, "g");
  EXPECT_TRUE(sig->params.empty());
  EXPECT_EQ(sig->ret.kind, TK::Unit);
}

TEST(SignatureTest, MutBindingTrailingCommaAndPairReturn) {
  absl::StatusOr<SourceSignature> sig =
      ParseSourceSignature("h(mut x: f32, _: &mut [f64],) -> (f64, f64)");
  ASSERT_TRUE(sig.ok()) << sig.status();
  ASSERT_EQ(sig->params.size(), 2u);
  EXPECT_EQ(sig->params[0].name, "x");
  EXPECT_EQ(sig->params[0].type, SourceType::Float(32));
  EXPECT_EQ(sig->params[1].name, "_");
  EXPECT_EQ(sig->params[1].type.kind, TK::MutSlice);
  EXPECT_EQ(sig->ret.ToString(), "(f64, f64)");
}

struct SigErrorRow {
  const char *text;
  const char *message;
};

std::ostream &operator<<(std::ostream &os, const SigErrorRow &row) {
  return os << "`" << row.text << "`";
}

class SignatureErrorTest : public ::testing::TestWithParam<SigErrorRow> {};

TEST_P(SignatureErrorTest, Rejects) {
  absl::StatusOr<SourceSignature> sig = ParseSourceSignature(GetParam().text);
  ASSERT_FALSE(sig.ok());
  EXPECT_EQ(sig.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(sig.status().message()), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, SignatureErrorTest,
    ::testing::Values(
        SigErrorRow{"f64", "could not parse signature `f64`: expected `(` "
                           "after the function name"},
        SigErrorRow{"(x: f64)", "could not parse signature `(x: f64)`: "
                                "missing the function name"},
        SigErrorRow{"my f(x: f64)", "could not parse signature `my f(x: "
                                    "f64)`: invalid function name `my f`"},
        SigErrorRow{"f(x: f64", "could not parse signature `f(x: f64`: "
                                "missing `)` after the parameters"},
        SigErrorRow{"f(x: Foo)",
                    "could not parse signature `f(x: Foo)`: could not parse "
                    "type `Foo`: unknown type `Foo`"},
        SigErrorRow{"f(x: f64) f64", "could not parse signature `f(x: f64) "
                                     "f64`: unexpected `f64` after the "
                                     "parameters"},
        SigErrorRow{"f(, x: f64)", "could not parse signature `f(, x: f64)`: "
                                   "parameter #1 is empty"},
        SigErrorRow{"f(1x: f64)", "could not parse signature `f(1x: f64)`: "
                                  "invalid parameter name `1x`"},
        SigErrorRow{"f(x: f64) ->",
                    "could not parse signature `f(x: f64) ->`: return type: "
                    "could not parse type ``: expected a type"},
        SigErrorRow{"f(x:) -> f64", "could not parse signature `f(x:) -> "
                                    "f64`: could not parse type ``: expected "
                                    "a type"}),
    [](const ::testing::TestParamInfo<SigErrorRow> &info) {
      return "Error" + std::to_string(info.index);
    });

TEST(SignatureDepthTest, DeepNestingIsAnErrorNotACrash) {
  std::string ok = "f(x: " + std::string(60, '&') + "f64) -> f64";
  EXPECT_TRUE(ParseSourceSignature(ok).ok());
  std::string deep = "f(x: " + std::string(10000, '&') + "f64) -> f64";
  absl::StatusOr<SourceSignature> sig = ParseSourceSignature(deep);
  ASSERT_FALSE(sig.ok());
  EXPECT_NE(std::string(sig.status().message()).find("nested deeper than 64"),
            std::string::npos)
      << sig.status();
  std::string ptrs = "f(x: ";
  for (int i = 0; i < 20000; ++i)
    ptrs += "*mut ";
  EXPECT_FALSE(ParseSourceSignature(ptrs + "f64)").ok());
}

} // namespace
} // namespace autodiff
