//===- tests/unit/bridge/DiagnosticsTest.cpp - Messages and locations -----===//
//
// The two-line problem format, the operation each instruction is named by,
// the location payload a host reads back, one record per problem, and a
// failed run leaving valid IR behind.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"

#include "enzyme_bridge/Bridge.h"

#include "gtest/gtest.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <string>
#include <vector>

namespace autodiff {
namespace {

using namespace llvm;

constexpr const char *kSource = R"(
declare double @g(double)
declare double @0(double)
define double @f(double %x, ptr %fp, ptr %p) !dbg !5 {
  %a = call double @g(double %x), !dbg !8
  %b = call double %fp(double %x)
  %c = fdiv double %a, %b
  %d = atomicrmw fadd ptr %p, double %c monotonic
  %e = fcmp olt double %c, %d
  %h = call double asm "", "=x,0"(double %x)
  %u = call double @0(double %x)
  ret double %c
}
define double @fwddiffe_f(double %x) #0 {
  %y = fmul double %x, %x, !dbg !9
  ret double %y
}
attributes #0 = { "autodiff-primal"="f" }
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !{})
!8 = !DILocation(line: 3, column: 7, scope: !5)
!9 = !DILocation(line: 4, column: 2, scope: !5)
)";

class DiagnosticsTest : public ::testing::Test {
protected:
  void SetUp() override {
    SMDiagnostic err;
    m_ = parseAssemblyString(kSource, err, ctx_);
    ASSERT_TRUE(m_) << err.getMessage().str();
  }
  /// The `n`-th instruction of `fn`.
  Instruction &Inst(const char *fn, unsigned n) {
    auto it = inst_begin(*m_->getFunction(fn));
    std::advance(it, n);
    return *it;
  }

  LLVMContext ctx_;
  std::unique_ptr<Module> m_;
};

TEST_F(DiagnosticsTest, OperationNamesOpcodeAndCallee) {
  EXPECT_EQ("call to `g`", DescribeOperation(Inst("f", 0)));
  EXPECT_EQ("indirect call through `%fp`", DescribeOperation(Inst("f", 1)));
  EXPECT_EQ("`fdiv`", DescribeOperation(Inst("f", 2)));
  EXPECT_EQ("`atomicrmw fadd`", DescribeOperation(Inst("f", 3)));
  EXPECT_EQ("`fcmp olt`", DescribeOperation(Inst("f", 4)));
  EXPECT_EQ("inline assembly", DescribeOperation(Inst("f", 5)));
  EXPECT_EQ("call to an unnamed function", DescribeOperation(Inst("f", 6)));
}

TEST_F(DiagnosticsTest, ProblemIsPlaceThenIndentedInstruction) {
  absl::Status s = ErrorAt(absl::StatusCode::kUnimplemented, Inst("f", 0),
                           "no derivative rule");
  EXPECT_EQ(absl::StatusCode::kUnimplemented, s.code());
  EXPECT_EQ("in function `f`, call to `g` at t.c:3:7: no derivative rule\n"
            "  instruction: %a = call double @g(double %x)",
            std::string(s.message()));
  // Inside a derivative the user's function is named, and the location
  // record names it too.
  absl::Status d = ErrorAt(absl::StatusCode::kUnimplemented,
                           Inst("fwddiffe_f", 0), "m");
  EXPECT_EQ("in function `f` (while generating `fwddiffe_f`), `fmul` at "
            "t.c:4:2: m\n  instruction: %y = fmul double %x, %x",
            std::string(d.message()));
  auto locs = ProblemLocations(d);
  ASSERT_TRUE(locs.has_value());
  ASSERT_EQ(1u, locs->size());
  EXPECT_EQ("f", (*locs)[0].function);
  EXPECT_EQ("t.c", (*locs)[0].file);
  EXPECT_EQ("/src", (*locs)[0].directory);
  EXPECT_EQ(4u, (*locs)[0].line);
  EXPECT_EQ(2u, (*locs)[0].column);
}

TEST_F(DiagnosticsTest, LongInstructionsAreShortened) {
  std::string s = ValueToString(Inst("f", 0), 20);
  EXPECT_EQ(20u, s.size());
  EXPECT_EQ("...", s.substr(17));
}

TEST_F(DiagnosticsTest, JoinedProblemsKeepOneLocationEach) {
  std::vector<absl::Status> parts = {
      ErrorAt(absl::StatusCode::kInvalidArgument, Inst("f", 0), "first"),
      absl::UnimplementedError("no place"),
      ErrorAt(absl::StatusCode::kUnimplemented, Inst("f", 2), "third")};
  absl::Status all = JoinProblems(parts);
  EXPECT_EQ(absl::StatusCode::kInvalidArgument, all.code());
  std::vector<std::string> problems = SplitProblems(all.message());
  ASSERT_EQ(3u, problems.size());
  EXPECT_EQ(std::string(parts[0].message()), problems[0]);
  EXPECT_EQ("no place", problems[1]);
  auto locs = ProblemLocations(all);
  ASSERT_TRUE(locs.has_value());
  ASSERT_EQ(3u, locs->size());
  EXPECT_TRUE((*locs)[0].HasSource());
  EXPECT_EQ(3u, (*locs)[0].line);
  EXPECT_FALSE((*locs)[1].HasSource());
  EXPECT_EQ("", (*locs)[1].function);
  EXPECT_EQ("f", (*locs)[2].function);
  EXPECT_FALSE((*locs)[2].HasSource()); // No debug location on the fdiv.
  EXPECT_TRUE(JoinProblems({}).ok());
}

TEST_F(DiagnosticsTest, StatusWithoutMatchingPayloadHasNoLocations) {
  EXPECT_FALSE(ProblemLocations(absl::InternalError("a\nb")).has_value());
  absl::Status s = ErrorAt(absl::StatusCode::kInternal, Inst("f", 0), "x");
  absl::Status two(s.code(), std::string(s.message()) + "\nanother");
  two.SetPayload(kLocationPayload, *s.GetPayload(kLocationPayload));
  EXPECT_FALSE(ProblemLocations(two).has_value());
}

// Two derivatives fail half-way (one inside a loop with phis, one after a
// tangent was emitted); both are reported, and the module stays valid for
// a host that runs more passes before it stops.
TEST(FailedRunTest, ReportsEveryProblemAndLeavesValidIR) {
  LLVMContext ctx;
  SMDiagnostic err;
  std::unique_ptr<Module> m = parseAssemblyString(R"(
declare double @opaque(double)
declare double @__enzyme_fwddiff(...)
define double @loop(double %x, i32 %n) {
entry:
  br label %head
head:
  %s = phi double [ 0.0, %entry ], [ %t, %head ]
  %i = phi i32 [ 0, %entry ], [ %j, %head ]
  %o = call double @opaque(double %s)
  %t = fmul double %o, %x
  %j = add i32 %i, 1
  %c = icmp slt i32 %j, %n
  br i1 %c, label %head, label %exit
exit:
  ret double %t
}
define double @straight(double %x) {
  %y = fmul double %x, %x
  %z = call double @opaque(double %y)
  ret double %z
}
define double @d(double %x, i32 %n) {
  %a = call double (...) @__enzyme_fwddiff(ptr @loop, double %x, double 1.0, i32 %n)
  %b = call double (...) @__enzyme_fwddiff(ptr @straight, double %x, double 1.0)
  %r = fadd double %a, %b
  ret double %r
}
)",
                                                  err, ctx);
  ASSERT_TRUE(m) << err.getMessage().str();
  absl::Status s = DifferentiateModule(*m, BridgeOptions());
  EXPECT_EQ(absl::StatusCode::kUnimplemented, s.code());
  std::vector<std::string> problems = SplitProblems(s.message());
  ASSERT_EQ(2u, problems.size()) << s.message();
  EXPECT_NE(std::string::npos, problems[0].find("in function `loop`"));
  EXPECT_NE(std::string::npos, problems[1].find("in function `straight`"));
  std::string broken;
  raw_string_ostream os(broken);
  EXPECT_FALSE(verifyModule(*m, &os)) << os.str();
}

} // namespace
} // namespace autodiff
