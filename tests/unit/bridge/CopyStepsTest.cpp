//===- tests/unit/bridge/CopyStepsTest.cpp - Copies and last stores -------===//
//
// Integer copies between memory holding floats, in step or not
// (analysis/CopySteps.h), and the last store of each byte a load from a
// local reads (LastStoresBefore, analysis/LocalCopies.h), on IR parsed
// from strings.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/CopySteps.h"
#include "enzyme_bridge/analysis/LocalCopies.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "gtest/gtest.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace autodiff {
namespace {

using namespace llvm;

class CopyStepsTest : public ::testing::Test {
protected:
  Function &Parse(const std::string &ir) {
    SMDiagnostic err;
    m_ = parseAssemblyString(ir, err, ctx_);
    if (!m_) {
      std::string msg;
      raw_string_ostream os(msg);
      err.print("test", os);
      ADD_FAILURE() << msg;
      m_ = std::make_unique<Module>("empty", ctx_);
      FunctionType *ft = FunctionType::get(Type::getVoidTy(ctx_), false);
      return *Function::Create(ft, Function::ExternalLinkage, "f", *m_);
    }
    return *m_->getFunction("f");
  }
  /// What CopiesOutOfStep says of `f`'s copies, joined.
  std::string Findings(Function &f) {
    TypeInfo types = TypeInfo::Compute(f);
    std::string all;
    for (auto &[inst, why] : CopiesOutOfStep(f, [&]() -> const TypeInfo & {
           return types;
         }))
      all += why + "\n";
    return all;
  }

  LLVMContext ctx_;
  std::unique_ptr<Module> m_;
};

/// A copy loop `d[i] = s[index]` over `ty` elements between two arrays
/// of three doubles the caller described, `src` bytes into `s`. (Facts
/// at each double: this function's own integer accesses at run-time
/// offsets would make one "at every offset" Anything.)
std::string CopyLoop(const char *ty, const char *index, int src) {
  return std::string(R"(
define void @f(ptr "enzyme_type"="{[-1]:Pointer, [-1,0]:Float@double, [-1,8]:Float@double, [-1,16]:Float@double}" %d,
               ptr "enzyme_type"="{[-1]:Pointer, [-1,0]:Float@double, [-1,8]:Float@double, [-1,16]:Float@double}" %s0,
               i64 %n) {
entry:
  %s = getelementptr i8, ptr %s0, i64 )") +
         std::to_string(src) + R"(
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %j = )" + index + R"(
  %from = getelementptr )" + ty + R"(, ptr %s, i64 %j
  %v = load )" + ty + R"(, ptr %from
  %to = getelementptr )" + ty + R"(, ptr %d, i64 %i
  store )" + ty + R"( %v, ptr %to
  %next = add nuw nsw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
)";
}

TEST_F(CopyStepsTest, SameIndexCopiesKeepEachByteInItsFloat) {
  EXPECT_EQ(Findings(Parse(CopyLoop("i32", "add i64 %i, 0", 0))), "");
  EXPECT_EQ(Findings(Parse(CopyLoop("i8", "add i64 %i, 0", 0))), "");
  // Whole doubles in reverse order: each moves by a multiple of 8.
  EXPECT_EQ(Findings(Parse(CopyLoop("i64", "sub i64 %n, %i", 0))), "");
}

TEST_F(CopyStepsTest, ShiftedOrReversedCopiesAreFound) {
  std::string shifted = Findings(Parse(CopyLoop("i32", "add i64 %i, 0", 4)));
  EXPECT_NE(shifted.find("move by -4 against the double values"),
            std::string::npos)
      << shifted;
  std::string reversed = Findings(Parse(CopyLoop("i8", "sub i64 7, %i", 0)));
  EXPECT_NE(reversed.find("not a multiple of 8 bytes"), std::string::npos)
      << reversed;
  // Words moved by 8 bytes: still whole doubles.
  EXPECT_EQ(Findings(Parse(CopyLoop("i32", "add i64 %i, 2", 0))), "");
}

TEST_F(CopyStepsTest, LastStoresFollowStraightLineCode) {
  // A union: a double written, one word of it read, another double
  // written over it and the word written back.
  Function &f = Parse(R"(
define double @f(double %x, double %y) {
entry:
  %u = alloca double
  store double %x, ptr %u
  %hi.p = getelementptr i8, ptr %u, i64 4
  %hi = load i32, ptr %hi.p
  br label %next
next:
  store double %y, ptr %u
  store i32 %hi, ptr %hi.p
  %r = load double, ptr %u
  ret double %r
}
)");
  LoadInst *r = nullptr, *hi = nullptr;
  for (Instruction &i : instructions(f))
    if (auto *ld = dyn_cast<LoadInst>(&i))
      (ld->getType()->isDoubleTy() ? r : hi) = ld;
  ASSERT_TRUE(r && hi);
  const DataLayout &dl = f.getDataLayout();
  auto last = LastStoresBefore(*r, dl);
  ASSERT_TRUE(last.has_value());
  ASSERT_EQ(last->size(), 2u);
  EXPECT_EQ((*last)[0].value, f.getArg(1)); // bytes 0..3 of %y
  EXPECT_EQ((*last)[0].lo, 0);
  EXPECT_EQ((*last)[0].hi, 4);
  EXPECT_EQ((*last)[1].value, hi); // bytes 4..7: the word written back
  EXPECT_EQ((*last)[1].at, 4);
  auto word = LastStoresBefore(*hi, dl);
  ASSERT_TRUE(word.has_value());
  ASSERT_EQ(word->size(), 1u);
  EXPECT_EQ((*word)[0].value, f.getArg(0)); // the high word of %x
  EXPECT_EQ((*word)[0].lo, 4);
  EXPECT_EQ((*word)[0].hi, 8);
}

TEST_F(CopyStepsTest, LastStoresUnknownWhenTheLocalEscapes) {
  Function &f = Parse(R"(
declare void @g(ptr)
define double @f(double %x) {
entry:
  %u = alloca double
  store double %x, ptr %u
  call void @g(ptr %u)
  %r = load double, ptr %u
  ret double %r
}
)");
  LoadInst *r = nullptr;
  for (Instruction &i : instructions(f))
    if (auto *ld = dyn_cast<LoadInst>(&i))
      r = ld;
  ASSERT_TRUE(r);
  EXPECT_FALSE(LastStoresBefore(*r, f.getDataLayout()).has_value());
}

} // namespace
} // namespace autodiff
