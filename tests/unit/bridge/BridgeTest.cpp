//===- tests/unit/bridge/BridgeTest.cpp - Core internals on parsed IR -----===//
//
// Requests as values, call-site parsing in the three marker forms, type
// strings, and activity, on IR parsed from strings.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/ActivityAnalysis.h"
#include "enzyme_bridge/requests/CallSite.h"
#include "enzyme_bridge/requests/Request.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "gtest/gtest.h"
#include "llvm/ADT/DenseMap.h"
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

class BridgeTest : public ::testing::Test {
protected:
  Module &Parse(const char *ir) {
    SMDiagnostic err;
    m_ = parseAssemblyString(ir, err, ctx_);
    if (!m_) {
      std::string msg;
      raw_string_ostream os(msg);
      err.print("test", os);
      ADD_FAILURE() << msg;
      m_ = std::make_unique<Module>("empty", ctx_);
    }
    return *m_;
  }
  /// The first call in `fn` to a function whose name contains `callee`.
  CallBase *FirstCall(const char *fn, StringRef callee) {
    for (Instruction &i : instructions(*m_->getFunction(fn)))
      if (auto *cb = dyn_cast<CallBase>(&i))
        if (cb->getCalledOperand()->getName().contains(callee))
          return cb;
    return nullptr;
  }

  LLVMContext ctx_;
  std::unique_ptr<Module> m_;
};

constexpr const char *kSource = R"(
@enzyme_dup = external global ptr
@enzyme_const = external global ptr
@enzyme_width = external global i32
@enzyme_out = external global ptr
define double @f(ptr %p, double %x, i32 %n) {
  %v = load double, ptr %p
  %m = fmul double %v, %x
  ret double %m
}
declare double @__enzyme_fwddiff(...)
declare double @__enzyme_fwddiff_named(...)
declare double @__enzyme_autodiff(...)
define void @globals(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr %dp, ptr @enzyme_const, double %x, i32 3)
  ret void
}
define void @metadata(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_fwddiff_named(ptr @f, metadata !"enzyme_dup", ptr %p, ptr %dp, double %x, double 1.0, i32 3)
  ret void
}
define void @loads(ptr %p, ptr %dp0, ptr %dp1, double %x) {
  %w = load i32, ptr @enzyme_width
  %c = load i32, ptr @enzyme_const
  %r = call double (...) @__enzyme_fwddiff(ptr @f, i32 %w, i64 2, ptr %p, ptr %dp0, ptr %dp1, i32 %c, double %x, i32 %c, i32 3)
  ret void
}
define void @reverse(ptr %p, ptr %dp, double %x) {
  %r = call double (...) @__enzyme_autodiff(ptr @f, ptr %p, ptr %dp, ptr @enzyme_out, double %x, i32 3)
  ret void
}
define void @bad(ptr %p, double %x) {
  %r = call double (...) @__enzyme_fwddiff(ptr @f, ptr @enzyme_dup, ptr %p, ptr @enzyme_const, double %x, i32 3)
  ret void
}
)";

TEST_F(BridgeTest, RequestsAreValuesThatKeyMaps) {
  Module &m = Parse(kSource);
  DiffRequest a;
  a.fn = m.getFunction("f");
  a.args = {ArgActivity::Dup, ArgActivity::Const, ArgActivity::Const};
  a.return_tangent = true;
  DiffRequest b = a;
  EXPECT_EQ(a, b);
  EXPECT_EQ(hash_value(a), hash_value(b));
  b.width = 2;
  EXPECT_NE(a, b);
  DenseMap<DiffRequest, int> map;
  map[a] = 1;
  map[b] = 2;
  EXPECT_EQ(map.lookup(a), 1);
  EXPECT_EQ(map.lookup(b), 2);
  EXPECT_EQ(a.ToString(), "fwd(f)[dup,const,const]w1+tangent");
  EXPECT_EQ(b.DerivativeName(), "fwddiffe2_f");
}

TEST_F(BridgeTest, MarkerGlobalsPassedAsValues) {
  Parse(kSource);
  absl::StatusOr<RequestCall> rc =
      ParseRequestCall(*FirstCall("globals", "__enzyme"));
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_EQ(rc->request.ToString(), "fwd(f)[dup,const,const]w1+tangent");
  ASSERT_EQ(rc->shadows[0].size(), 1u);
  EXPECT_EQ(rc->shadows[0][0]->getName(), "dp");
}

TEST_F(BridgeTest, MetadataMarkersAndDefaults) {
  Parse(kSource);
  absl::StatusOr<RequestCall> rc =
      ParseRequestCall(*FirstCall("metadata", "__enzyme"));
  ASSERT_TRUE(rc.ok()) << rc.status();
  // x has no marker: a float is dup in forward mode; n is an integer: const.
  EXPECT_EQ(rc->request.ToString(), "fwd(f)[dup,dup,const]w1+tangent");
}

TEST_F(BridgeTest, LoadedMarkersOneLoadFeedsSeveral) {
  Parse(kSource);
  absl::StatusOr<RequestCall> rc =
      ParseRequestCall(*FirstCall("loads", "__enzyme"));
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_EQ(rc->request.width, 2u);
  EXPECT_EQ(rc->request.ToString(), "fwd(f)[dup,const,const]w2+tangent");
  ASSERT_EQ(rc->shadows[0].size(), 2u);
  EXPECT_EQ(rc->shadows[0][1]->getName(), "dp1");
}

TEST_F(BridgeTest, ReverseRequestsParse) {
  Parse(kSource);
  absl::StatusOr<RequestCall> rc =
      ParseRequestCall(*FirstCall("reverse", "__enzyme"));
  ASSERT_TRUE(rc.ok()) << rc.status();
  EXPECT_EQ(rc->request.mode, Mode::Reverse);
  EXPECT_EQ(rc->request.ToString(), "rev(f)[dup,out,const]w1+dret");
}

TEST_F(BridgeTest, MissingShadowIsAnError) {
  Parse(kSource);
  absl::StatusOr<RequestCall> rc =
      ParseRequestCall(*FirstCall("bad", "__enzyme"));
  ASSERT_FALSE(rc.ok());
  EXPECT_EQ(rc.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(rc.status().message())
                .find("missing shadow 1 of 1 for parameter 0 of `f`"),
            std::string::npos)
      << rc.status();
}

TEST_F(BridgeTest, MarkerNames) {
  Module &m = Parse(kSource);
  EXPECT_EQ(MarkerName(m.getNamedGlobal("enzyme_dup")), "enzyme_dup");
  EXPECT_FALSE(MarkerName(m.getFunction("f")).has_value());
  EXPECT_FALSE(MarkerName(nullptr).has_value());
}

TEST_F(BridgeTest, EnzymeTypeStrings) {
  MemoryTypes pointee = ParseEnzymeTypeString(
      "{[-1]:Pointer, [-1,-1]:Float@double}", ctx_, /*pointee=*/true);
  EXPECT_EQ(pointee.ToString(), "{[-1]:Float@double}");
  MemoryTypes value =
      ParseEnzymeTypeString("{[-1]:Float@float}", ctx_, /*pointee=*/false);
  EXPECT_EQ(value.ToString(), "{[-1]:Float@float}");
  MemoryTypes fields = ParseEnzymeTypeString(
      "{[-1]:Pointer, [-1,0]:Integer, [-1,8]:Float@double}", ctx_, true);
  EXPECT_EQ(fields.ToString(), "{[0]:Integer, [8]:Float@double}");
  EXPECT_TRUE(ParseEnzymeTypeString("garbage", ctx_, true).Empty());
}

TEST_F(BridgeTest, ConflictingFactsJoinToAnything) {
  MemoryTypes t;
  BaseType d;
  d.kind = BaseType::Float;
  d.fp = Type::getDoubleTy(ctx_);
  BaseType i;
  i.kind = BaseType::Integer;
  EXPECT_TRUE(t.Add(0, d));
  EXPECT_FALSE(t.Add(0, d));
  EXPECT_TRUE(t.Add(0, i));
  EXPECT_EQ(t.Lookup(0).kind, BaseType::Anything);
  EXPECT_EQ(t.Lookup(8).kind, BaseType::Unknown);
}

TEST_F(BridgeTest, ActivityFollowsDataAndIgnoresIntegers) {
  Module &m = Parse(R"(
define double @g(double %x, i32 %n, double %c) {
  %a = fmul double %x, %c
  %k = add i32 %n, 1
  %kf = sitofp i32 %k to double
  %b = fadd double %c, %kf
  %r = fadd double %a, %b
  ret double %r
}
)");
  Function &g = *m.getFunction("g");
  ActivityInfo info = ActivityInfo::Compute(g, {g.getArg(0)}, true);
  auto Inst = [&](StringRef name) -> const Value * {
    for (const Instruction &i : instructions(g))
      if (i.getName() == name)
        return &i;
    return nullptr;
  };
  EXPECT_TRUE(info.IsActive(g.getArg(0)));
  EXPECT_FALSE(info.IsActive(g.getArg(2))); // Constant input.
  EXPECT_TRUE(info.IsActive(Inst("a")));
  EXPECT_FALSE(info.IsActive(Inst("k")));
  EXPECT_FALSE(info.IsActive(Inst("b")));
  EXPECT_TRUE(info.IsActive(Inst("r")));
}

TEST_F(BridgeTest, UntypedMemcpyIsDiagnosedTypedIsNot) {
  Module &m = Parse(R"(
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @untyped(ptr %d, ptr %s) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  ret void
}
define void @typed(ptr %d, ptr %s) {
  %v = load double, ptr %s
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 16, i1 false)
  ret void
}
)");
  auto Copy = [&](const char *fn) -> const Instruction & {
    for (const Instruction &i : instructions(*m.getFunction(fn)))
      if (isa<CallBase>(i))
        return i;
    return *m.getFunction(fn)->getEntryBlock().begin();
  };
  TypeInfo untyped = TypeInfo::Compute(*m.getFunction("untyped"));
  absl::Status st = untyped.CheckTransfer(Copy("untyped"));
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(st.message()).find("cannot deduce the type"),
            std::string::npos)
      << st;
  TypeInfo typed = TypeInfo::Compute(*m.getFunction("typed"));
  EXPECT_TRUE(typed.CheckTransfer(Copy("typed")).ok());
  EXPECT_EQ(typed.TypesAt(m.getFunction("typed")->getArg(0)).ToString(),
            "{[0]:Float@double}");
}

} // namespace
} // namespace autodiff
