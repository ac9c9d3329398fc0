//===- tests/unit/codegen/PlaceholderTest.cpp - IsPlaceholderBody ---------===//
//
// Which bodies count as placeholders (replaced without being asked) and
// which as real code (kept unless the host asks for the replacement), one
// function per case, parsed from strings.
//
//===----------------------------------------------------------------------===//

#include "codegen/Placeholder.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace autodiff {
namespace {

constexpr const char *kBodies = R"(
@g = global double 0.0
declare void @abort() noreturn
declare i32 @puts(ptr)
declare double @sin(double) memory(none)
declare void @_ZN4core4hint9black_box17h0000000000000000E(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define double @src(double %x) {
  ret double %x
}

; Placeholders.
define double @p_zero(double %x) {
  ret double 0.0
}
define double @p_negzero(double %x) {
  ret double -0.0
}
define void @p_void(double %x) {
  ret void
}
define double @p_unreachable(double %x) {
  unreachable
}
define double @p_abort(double %x) {
  call void @abort()
  unreachable
}
define double @p_readnone_call(double %x) {
  %s = call double @sin(double %x)
  %c = fcmp olt double %s, 0.0
  br i1 %c, label %a, label %b
a:
  ret double undef
b:
  ret double poison
}
define double @p_black_box(double %x) {
  %slot = alloca double
  store double %x, ptr %slot
  call void @_ZN4core4hint9black_box17h0000000000000000E(ptr %slot)
  ret double 0.0
}
define double @p_calls_source(double %x) {
  %r = call double @src(double %x)
  ret double 0.0
}
define double @p_memcpy_local(ptr %p) {
  %slot = alloca [2 x double]
  call void @llvm.memcpy.p0.p0.i64(ptr %slot, ptr %p, i64 16, i1 false)
  ret double 0.0
}
define void @p_sret_zero(ptr sret({ double, double }) %r, double %x) {
  call void @llvm.memset.p0.i64(ptr %r, i8 0, i64 16, i1 false)
  ret void
}

; Real bodies.
define double @r_returns_arg(double %x) {
  ret double %x
}
define double @r_computes(double %x) {
  %s = fadd double %x, 42.0
  ret double %s
}
define double @r_constant(double %x) {
  ret double 42.0
}
define double @r_writes_global(double %x) {
  store double %x, ptr @g
  ret double 0.0
}
define double @r_writes_argument(ptr %p) {
  store double 0.0, ptr %p
  ret double 0.0
}
define double @r_prints(double %x) {
  %r = call i32 @puts(ptr @g)
  ret double 0.0
}
define void @r_sret_value(ptr sret({ double, double }) %r, double %x) {
  store double %x, ptr %r
  ret void
}
define void @r_sret_ones(ptr sret({ double, double }) %r, double %x) {
  call void @llvm.memset.p0.i64(ptr %r, i8 1, i64 16, i1 false)
  ret void
}
define double @r_memcpy_out(ptr %p, ptr %q) {
  call void @llvm.memcpy.p0.p0.i64(ptr %q, ptr %p, i64 16, i1 false)
  ret double 0.0
}
define double @r_loads(ptr %p) {
  %v = load double, ptr %p
  ret double %v
}
)";

class PlaceholderTest : public ::testing::TestWithParam<const char *> {
protected:
  static void SetUpTestSuite() {
    ctx_ = new llvm::LLVMContext;
    llvm::SMDiagnostic diag;
    module_ = llvm::parseAssemblyString(kBodies, diag, *ctx_).release();
    ASSERT_TRUE(module_) << diag.getMessage().str();
  }
  static void TearDownTestSuite() {
    delete module_;
    delete ctx_;
  }

  static llvm::LLVMContext *ctx_;
  static llvm::Module *module_;
};

llvm::LLVMContext *PlaceholderTest::ctx_ = nullptr;
llvm::Module *PlaceholderTest::module_ = nullptr;

TEST_P(PlaceholderTest, ClassifiesByName) {
  std::string name = GetParam();
  ASSERT_TRUE(module_);
  llvm::Function *f = module_->getFunction(name);
  ASSERT_TRUE(f) << name;
  bool expected = name.substr(0, 2) == "p_";
  EXPECT_EQ(IsPlaceholderBody(*f, module_->getFunction("src")), expected)
      << name;
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, PlaceholderTest,
    ::testing::Values("p_zero", "p_negzero", "p_void", "p_unreachable",
                      "p_abort", "p_readnone_call", "p_black_box",
                      "p_calls_source", "p_memcpy_local", "p_sret_zero",
                      "r_returns_arg", "r_computes", "r_constant",
                      "r_writes_global", "r_writes_argument", "r_prints",
                      "r_sret_value", "r_sret_ones", "r_memcpy_out", "r_loads"),
    [](const ::testing::TestParamInfo<const char *> &info) {
      return std::string(info.param);
    });

} // namespace
} // namespace autodiff
