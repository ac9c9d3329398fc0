//===- tests/unit/rules/RuleEmitterTest.cpp - Rules emitted as IR ---------===//
//
// FindRule on parsed IR, the shape of the tangents and adjoints EmitTangent
// and EmitAdjoints build (folding, intrinsics for libm names, splats for
// vectors, libm fallback lane by lane), and a sweep that emits every rule
// on every type it applies to and runs the verifier.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/RuleExpr.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cctype>
#include <memory>
#include <ostream>
#include <string>

namespace autodiff {

/// Shows a rule parameter by name in gtest messages.
inline void PrintTo(const DerivativeRule *rule, std::ostream *os) {
  *os << (rule ? rule->name : "<null>");
}

namespace {

using namespace llvm::PatternMatch;
using llvm::Value;

std::string Print(const Value *v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (v)
    v->print(os);
  else
    os << "<null>";
  return s;
}

/// Parses a module with a function @f in which %r is the operation under
/// test, %t0, %t1, ... the tangents of its operands and %adj an adjoint.
class RuleEmitterTest : public testing::Test {
protected:
  void Parse(const std::string &ir) {
    llvm::SMDiagnostic err;
    m_ = llvm::parseAssemblyString(ir, err, ctx_);
    if (!m_) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      err.print("ir", os);
      FAIL() << msg;
    }
    f_ = m_->getFunction("f");
    ASSERT_NE(f_, nullptr);
    for (llvm::Instruction &i : f_->getEntryBlock())
      if (i.getName() == "r")
        r_ = &i;
    ASSERT_NE(r_, nullptr) << "no %r in @f";
  }

  Value *Arg(llvm::StringRef name) {
    for (llvm::Argument &a : f_->args())
      if (a.getName() == name)
        return &a;
    return nullptr;
  }

  llvm::SmallVector<Value *, 3> Operands() {
    llvm::SmallVector<Value *, 3> ops;
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(r_))
      ops.append(call->arg_begin(), call->arg_end());
    else
      ops.append(r_->op_begin(), r_->op_end());
    return ops;
  }

  const DerivativeRule &Rule() {
    const DerivativeRule *rule = FindRule(*r_);
    EXPECT_NE(rule, nullptr) << "no rule for " << Print(r_);
    static const DerivativeRule kNone{"none", {}};
    return rule ? *rule : kNone;
  }

  /// Emits the tangent of %r from %t0, %t1, ... before the return, makes
  /// @f return it and verifies @f.
  Value *Tangent() {
    llvm::SmallVector<Value *, 3> tangents;
    for (unsigned i = 0; i < Operands().size(); ++i)
      tangents.push_back(Arg("t" + std::to_string(i)));
    llvm::IRBuilder<> b(f_->getEntryBlock().getTerminator());
    Value *t = EmitTangent(b, Rule(), Operands(), r_, tangents);
    Return(t);
    return t;
  }

  void Return(Value *v) {
    auto *ret =
        llvm::cast<llvm::ReturnInst>(f_->getEntryBlock().getTerminator());
    ASSERT_EQ(v->getType(), f_->getReturnType());
    ret->setOperand(0, v);
    Verify();
  }

  void Verify() {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    EXPECT_FALSE(llvm::verifyModule(*m_, &os)) << msg << "\n" << Print(f_);
  }

  /// The name of the function `v` calls ("" if `v` is no call).
  static std::string Callee(Value *v) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(v);
    return call && call->getCalledFunction()
               ? call->getCalledFunction()->getName().str()
               : "";
  }

  unsigned Count(unsigned opcode) {
    unsigned n = 0;
    for (llvm::Instruction &i : f_->getEntryBlock())
      n += i.getOpcode() == opcode;
    return n;
  }
  unsigned CallsTo(llvm::StringRef name) {
    unsigned n = 0;
    for (llvm::Instruction &i : f_->getEntryBlock())
      n += Callee(&i) == name;
    return n;
  }

  llvm::LLVMContext ctx_;
  std::unique_ptr<llvm::Module> m_;
  llvm::Function *f_ = nullptr;
  llvm::Instruction *r_ = nullptr;
};

//===----------------------------------------------------------------------===//
// Forward mode
//===----------------------------------------------------------------------===//

TEST_F(RuleEmitterTest, FAddTangentIsTheSumOfTangents) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define double @f(double %a, double %b, double %t0, double %t1) {
      %r = fadd double %a, %b
      ret double %r
    })"));
  Value *t = Tangent();
  EXPECT_TRUE(match(t, m_FAdd(m_Specific(Arg("t0")), m_Specific(Arg("t1")))))
      << Print(t);
  EXPECT_EQ(Count(llvm::Instruction::FMul), 0u);
}

TEST_F(RuleEmitterTest, FSubTangentIsTheDifference) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define double @f(double %a, double %b, double %t0, double %t1) {
      %r = fsub double %a, %b
      ret double %r
    })"));
  Value *t = Tangent();
  EXPECT_TRUE(match(t, m_FSub(m_Specific(Arg("t0")), m_Specific(Arg("t1")))))
      << Print(t);
}

TEST_F(RuleEmitterTest, FNegTangentIsNegated) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define float @f(float %a, float %t0) {
      %r = fneg float %a
      ret float %r
    })"));
  Value *t = Tangent();
  EXPECT_TRUE(match(t, m_FNeg(m_Specific(Arg("t0"))))) << Print(t);
}

TEST_F(RuleEmitterTest, FMulTangentIsTheProductRule) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define double @f(double %a, double %b, double %t0, double %t1) {
      %r = fmul double %a, %b
      ret double %r
    })"));
  Value *t = Tangent();
  EXPECT_TRUE(
      match(t, m_FAdd(m_FMul(m_Specific(Arg("t0")), m_Specific(Arg("b"))),
                      m_FMul(m_Specific(Arg("t1")), m_Specific(Arg("a"))))))
      << Print(t);
}

TEST_F(RuleEmitterTest, FMulWithOneTangentHasOneTerm) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define double @f(double %a, double %b, double %t0) {
      %r = fmul double %a, %b
      ret double %r
    })"));
  Value *t = Tangent();
  EXPECT_TRUE(match(t, m_FMul(m_Specific(Arg("t0")), m_Specific(Arg("b")))))
      << Print(t);
  EXPECT_EQ(Count(llvm::Instruction::FAdd), 0u);
}

TEST_F(RuleEmitterTest, FDivTangentDividesAndSubtracts) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define double @f(double %a, double %b, double %t0, double %t1) {
      %r = fdiv double %a, %b
      ret double %r
    })"));
  Value *t = Tangent();
  Value *b = Arg("b");
  // One division: (t0 - t1 q) / b.
  EXPECT_TRUE(match(
      t, m_FDiv(m_FSub(m_Specific(Arg("t0")),
                       m_FMul(m_Specific(Arg("t1")), m_Specific(r_))),
                m_Specific(b))))
      << Print(t);
}

TEST_F(RuleEmitterTest, SinIntrinsicTangentCallsCos) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare double @llvm.sin.f64(double)
    define double @f(double %x, double %t0) {
      %r = call double @llvm.sin.f64(double %x)
      ret double %r
    })"));
  EXPECT_EQ(Rule().name, "llvm.sin");
  Value *t = Tangent();
  Value *cos = nullptr;
  ASSERT_TRUE(match(t, m_FMul(m_Specific(Arg("t0")), m_Value(cos))))
      << Print(t);
  EXPECT_EQ(Callee(cos), "llvm.cos.f64");
  EXPECT_EQ(llvm::cast<llvm::CallInst>(cos)->getArgOperand(0), Arg("x"));
}

TEST_F(RuleEmitterTest, LibmSinfTangentUsesTheFloatIntrinsic) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare float @sinf(float)
    define float @f(float %x, float %t0) {
      %r = call float @sinf(float %x)
      ret float %r
    })"));
  EXPECT_EQ(Rule().name, "sinf");
  Value *t = Tangent();
  Value *cos = nullptr;
  ASSERT_TRUE(match(t, m_FMul(m_Specific(Arg("t0")), m_Value(cos))))
      << Print(t);
  EXPECT_EQ(Callee(cos), "llvm.cos.f32");
}

TEST_F(RuleEmitterTest, VectorPowUsesSplatsAndVectorIntrinsics) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare <2 x double> @llvm.pow.v2f64(<2 x double>, <2 x double>)
    define <2 x double> @f(<2 x double> %x, <2 x double> %y,
        <2 x double> %t0, <2 x double> %t1) {
      %r = call <2 x double> @llvm.pow.v2f64(<2 x double> %x, <2 x double> %y)
      ret <2 x double> %r
    })"));
  EXPECT_EQ(Rule().name, "llvm.pow");
  Tangent();
  EXPECT_EQ(CallsTo("llvm.pow.v2f64"), 2u); // The primal and y * x^(y - 1).
  EXPECT_EQ(CallsTo("llvm.log.v2f64"), 1u);
  EXPECT_EQ(Count(llvm::Instruction::FCmp), 1u);
  EXPECT_EQ(Count(llvm::Instruction::Select), 1u);
  bool found_y_minus_1 = false;
  for (llvm::Instruction &i : f_->getEntryBlock()) {
    if (i.getOpcode() != llvm::Instruction::Call) {
      EXPECT_TRUE(i.getType()->isVectorTy() || i.getType()->isVoidTy() ||
                  llvm::isa<llvm::FCmpInst>(i))
          << Print(&i);
    }
    if (match(&i, m_FSub(m_Specific(Arg("y")), m_SpecificFP(1.0))))
      found_y_minus_1 = true;
  }
  EXPECT_TRUE(found_y_minus_1) << Print(f_);
}

TEST_F(RuleEmitterTest, VectorPowiSplatsTheIntegerExponent) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare <4 x float> @llvm.powi.v4f32.i32(<4 x float>, i32)
    define <4 x float> @f(<4 x float> %x, i32 %n, <4 x float> %t0) {
      %r = call <4 x float> @llvm.powi.v4f32.i32(<4 x float> %x, i32 %n)
      ret <4 x float> %r
    })"));
  EXPECT_EQ(Rule().name, "llvm.powi");
  Tangent();
  EXPECT_EQ(Count(llvm::Instruction::SIToFP), 1u);
  EXPECT_EQ(Count(llvm::Instruction::ShuffleVector), 1u);
  EXPECT_EQ(CallsTo("llvm.pow.v4f32"), 1u);
}

TEST_F(RuleEmitterTest, LdexpScalesByExp2OfTheExponent) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare <2 x float> @llvm.ldexp.v2f32.v2i32(<2 x float>, <2 x i32>)
    define <2 x float> @f(<2 x float> %x, <2 x i32> %n, <2 x float> %t0) {
      %r = call <2 x float> @llvm.ldexp.v2f32.v2i32(<2 x float> %x,
                                                    <2 x i32> %n)
      ret <2 x float> %r
    })"));
  Value *t = Tangent();
  Value *scale = nullptr;
  ASSERT_TRUE(match(t, m_FMul(m_Specific(Arg("t0")), m_Value(scale))))
      << Print(t);
  EXPECT_EQ(Callee(scale), "llvm.exp2.v2f32");
}

TEST_F(RuleEmitterTest, FabsUsesCopysign) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare double @fabs(double)
    define double @f(double %x, double %t0) {
      %r = call double @fabs(double %x)
      ret double %r
    })"));
  Value *t = Tangent();
  Value *sign = nullptr;
  ASSERT_TRUE(match(t, m_FMul(m_Specific(Arg("t0")), m_Value(sign))))
      << Print(t);
  EXPECT_EQ(Callee(sign), "llvm.copysign.f64");
}

TEST_F(RuleEmitterTest, FminSelectsTheOperandThatIsTheResult) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare double @fmin(double, double)
    define double @f(double %a, double %b, double %t0, double %t1) {
      %r = call double @fmin(double %a, double %b)
      ret double %r
    })"));
  Tangent();
  // fmin(a, NaN) is a: the derivative goes to the operand equal to the
  // result, not to the smaller one by an ordered comparison.
  unsigned oeq = 0;
  for (llvm::Instruction &i : f_->getEntryBlock())
    if (auto *cmp = llvm::dyn_cast<llvm::FCmpInst>(&i))
      oeq += cmp->getPredicate() == llvm::CmpInst::FCMP_OEQ &&
             cmp->getOperand(0) == f_->getArg(0) &&
             llvm::isa<llvm::CallInst>(cmp->getOperand(1));
  EXPECT_EQ(oeq, 2u);
  EXPECT_EQ(Count(llvm::Instruction::Select), 2u);
}

TEST_F(RuleEmitterTest, RoundingHasAZeroTangentAndEmitsNothing) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare double @llvm.floor.f64(double)
    define double @f(double %x, double %t0) {
      %r = call double @llvm.floor.f64(double %x)
      ret double %r
    })"));
  size_t before = f_->getEntryBlock().size();
  Value *t = Tangent();
  EXPECT_TRUE(match(t, m_AnyZeroFP())) << Print(t);
  EXPECT_EQ(f_->getEntryBlock().size(), before);
}

TEST_F(RuleEmitterTest, CopysignIgnoresTheSignTangent) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare float @llvm.copysign.f32(float, float)
    define float @f(float %x, float %s, float %t0, float %t1) {
      %r = call float @llvm.copysign.f32(float %x, float %s)
      ret float %r
    })"));
  Tangent();
  for (llvm::Instruction &i : f_->getEntryBlock())
    for (llvm::Use &u : i.operands())
      EXPECT_NE(u.get(), Arg("t1")) << Print(&i);
}

TEST_F(RuleEmitterTest, UsesTheBuilderFastMathFlags) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define double @f(double %a, double %b, double %t0, double %t1) {
      %r = fmul double %a, %b
      ret double %r
    })"));
  llvm::IRBuilder<> b(f_->getEntryBlock().getTerminator());
  llvm::FastMathFlags fmf;
  fmf.setFast();
  b.setFastMathFlags(fmf);
  Value *t = EmitTangent(b, Rule(), Operands(), r_, {Arg("t0"), Arg("t1")});
  Return(t);
  EXPECT_TRUE(llvm::cast<llvm::Instruction>(t)->isFast()) << Print(t);
}

TEST_F(RuleEmitterTest, NoTangentsGiveAZeroOfTheResultType) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define <2 x double> @f(<2 x double> %a, <2 x double> %b) {
      %r = fmul <2 x double> %a, %b
      ret <2 x double> %r
    })"));
  Value *t = Tangent();
  EXPECT_TRUE(match(t, m_AnyZeroFP())) << Print(t);
}

//===----------------------------------------------------------------------===//
// Reverse mode and single partials
//===----------------------------------------------------------------------===//

TEST_F(RuleEmitterTest, FDivAdjoints) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define double @f(double %a, double %b, double %adj) {
      %r = fdiv double %a, %b
      ret double %r
    })"));
  llvm::IRBuilder<> b(f_->getEntryBlock().getTerminator());
  auto adjoints = EmitAdjoints(b, Rule(), Operands(), r_, Arg("adj"));
  ASSERT_EQ(adjoints.size(), 2u);
  EXPECT_TRUE(match(adjoints[0],
                    m_FDiv(m_Specific(Arg("adj")), m_Specific(Arg("b")))))
      << Print(adjoints[0]);
  // -(adj / b) q: the quotient adj / b is the first adjoint's (one
  // division once CSE merges them).
  EXPECT_TRUE(match(adjoints[1],
                    m_FNeg(m_FMul(m_FDiv(m_Specific(Arg("adj")),
                                         m_Specific(Arg("b"))),
                                  m_Specific(r_)))))
      << Print(adjoints[1]);
  Verify();
}

TEST_F(RuleEmitterTest, AdjointsAreNullWithoutPartialOrWhenZero) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare double @llvm.powi.f64.i32(double, i32)
    declare double @llvm.trunc.f64(double)
    define double @f(double %x, i32 %n, double %adj) {
      %r = call double @llvm.powi.f64.i32(double %x, i32 %n)
      %u = call double @llvm.trunc.f64(double %x)
      ret double %r
    })"));
  llvm::IRBuilder<> b(f_->getEntryBlock().getTerminator());
  auto adjoints = EmitAdjoints(b, Rule(), Operands(), r_, Arg("adj"));
  ASSERT_EQ(adjoints.size(), 2u);
  EXPECT_NE(adjoints[0], nullptr);
  EXPECT_EQ(adjoints[1], nullptr);
  EXPECT_EQ(Count(llvm::Instruction::SIToFP), 1u);

  auto *trunc = llvm::cast<llvm::CallInst>(r_->getNextNode());
  const DerivativeRule *rule = FindRule(*trunc);
  ASSERT_NE(rule, nullptr);
  auto none = EmitAdjoints(b, *rule, {Arg("x")}, trunc, Arg("adj"));
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(none[0], nullptr);
  Verify();
}

TEST_F(RuleEmitterTest, EmitPartial) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare double @sqrt(double)
    define double @f(double %x, double %y) {
      %r = call double @sqrt(double %x)
      ret double %r
    })"));
  llvm::IRBuilder<> b(f_->getEntryBlock().getTerminator());
  Value *p = EmitPartial(b, Rule(), 0, Operands(), r_);
  EXPECT_TRUE(match(p, m_FDiv(m_SpecificFP(0.5), m_Specific(r_)))) << Print(p);
  const DerivativeRule &fmul = *FindRuleByName("fmul");
  EXPECT_EQ(EmitPartial(b, fmul, 0, {Arg("x"), Arg("y")}, nullptr), Arg("y"));
  EXPECT_EQ(EmitPartial(b, fmul, 1, {Arg("x"), Arg("y")}, nullptr), Arg("x"));
  const DerivativeRule &powi = *FindRuleByName("llvm.powi");
  EXPECT_EQ(EmitPartial(b, powi, 1, {Arg("x"), nullptr}, r_), nullptr);
  Verify();
}

//===----------------------------------------------------------------------===//
// Functions without an intrinsic: libm, lane by lane for vectors
//===----------------------------------------------------------------------===//

const DerivativeRule &ErfCallRule() {
  using namespace rule_expr;
  static const DerivativeRule rule{"test.erf", {Call("erf", Op(0))}};
  return rule;
}

TEST_F(RuleEmitterTest, LibmFallbackScalarizesVectors) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define <2 x float> @f(<2 x float> %x, <2 x float> %t0) {
      %r = fadd <2 x float> %x, %x
      ret <2 x float> %r
    })"));
  llvm::IRBuilder<> b(f_->getEntryBlock().getTerminator());
  Return(EmitTangent(b, ErfCallRule(), {Arg("x")}, r_, {Arg("t0")}));
  EXPECT_EQ(CallsTo("erff"), 2u);
  EXPECT_EQ(Count(llvm::Instruction::ExtractElement), 2u);
  EXPECT_EQ(Count(llvm::Instruction::InsertElement), 2u);
  llvm::Function *erff = m_->getFunction("erff");
  ASSERT_NE(erff, nullptr);
  EXPECT_TRUE(erff->isDeclaration());
  EXPECT_TRUE(erff->doesNotThrow());
}

TEST_F(RuleEmitterTest, LibmFallbackPerFloatingPointType) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    define half @f(half %h, double %d, x86_fp80 %l) {
      %r = fadd half %h, %h
      ret half %r
    })"));
  llvm::IRBuilder<> b(f_->getEntryBlock().getTerminator());
  Value *h = EmitPartial(b, ErfCallRule(), 0, {Arg("h")}, nullptr);
  EXPECT_TRUE(match(h, m_FPTrunc(m_Value()))) << Print(h);
  EXPECT_EQ(CallsTo("erff"), 1u);
  EmitPartial(b, ErfCallRule(), 0, {Arg("d")}, nullptr);
  EXPECT_EQ(CallsTo("erf"), 1u);
  EmitPartial(b, ErfCallRule(), 0, {Arg("l")}, nullptr);
  EXPECT_EQ(CallsTo("erfl"), 1u);
  Return(h);
}

//===----------------------------------------------------------------------===//
// FindRule
//===----------------------------------------------------------------------===//

TEST_F(RuleEmitterTest, FindRuleAcceptsCallsWithAttributes) {
  ASSERT_NO_FATAL_FAILURE(Parse(R"(
    declare double @sin(double) #0
    define double @f(double %x) {
      %r = call fast double @sin(double %x) #1
      ret double %r
    }
    attributes #0 = { nofree nounwind willreturn }
    attributes #1 = { nofree })"));
  EXPECT_EQ(Rule().name, "sin");
}

struct NoRuleCase {
  const char *what;
  const char *ir;
};

class FindRuleNullTest : public testing::TestWithParam<NoRuleCase> {};

TEST_P(FindRuleNullTest, ReturnsNull) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  auto m = llvm::parseAssemblyString(GetParam().ir, err, ctx);
  ASSERT_NE(m, nullptr) << err.getMessage().str();
  llvm::Instruction *r = nullptr;
  for (llvm::Instruction &i : m->getFunction("f")->getEntryBlock())
    if (i.getName() == "r")
      r = &i;
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(FindRule(*r), nullptr) << GetParam().what;
}

const NoRuleCase kNoRuleCases[] = {
    {"integer add", R"(define i32 @f(i32 %a, i32 %b) {
                         %r = add i32 %a, %b
                         ret i32 %r
                       })"},
    {"integer mul", R"(define <2 x i64> @f(<2 x i64> %a, <2 x i64> %b) {
                         %r = mul <2 x i64> %a, %b
                         ret <2 x i64> %r
                       })"},
    {"conversion", R"(define i32 @f(double %a) {
                        %r = fptosi double %a to i32
                        ret i32 %r
                      })"},
    {"unknown function", R"(declare double @mystery(double)
                            define double @f(double %a) {
                              %r = call double @mystery(double %a)
                              ret double %r
                            })"},
    {"sin defined in the module", R"(define double @sin(double %a) {
                                       ret double %a
                                     }
                                     define double @f(double %a) {
                                       %r = call double @sin(double %a)
                                       ret double %r
                                     })"},
    {"sin with another signature", R"(declare i32 @sin(i32)
                                      define i32 @f(i32 %a) {
                                        %r = call i32 @sin(i32 %a)
                                        ret i32 %r
                                      })"},
    {"function named like an instruction",
     R"(declare double @fadd(double, double)
        define double @f(double %a) {
          %r = call double @fadd(double %a, double %a)
          ret double %r
        })"},
    {"intrinsic without a rule", R"(declare i32 @llvm.ctpop.i32(i32)
                                    define i32 @f(i32 %a) {
                                      %r = call i32 @llvm.ctpop.i32(i32 %a)
                                      ret i32 %r
                                    })"},
    {"indirect call", R"(define double @f(ptr %p, double %a) {
                           %r = call double %p(double %a)
                           ret double %r
                         })"},
};

INSTANTIATE_TEST_SUITE_P(Cases, FindRuleNullTest,
                         testing::ValuesIn(kNoRuleCases),
                         [](const testing::TestParamInfo<NoRuleCase> &info) {
                           std::string name = info.param.what;
                           for (char &c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c)))
                               c = '_';
                           return name;
                         });

//===----------------------------------------------------------------------===//
// Every rule, on every type it applies to: found again by FindRule, and its
// tangent and adjoints verify
//===----------------------------------------------------------------------===//

enum class TypeCase { Half, Float, Double, X86FP80, V4Float, NxV2Double };

llvm::Type *MakeType(llvm::LLVMContext &ctx, TypeCase t) {
  switch (t) {
  case TypeCase::Half:
    return llvm::Type::getHalfTy(ctx);
  case TypeCase::Float:
    return llvm::Type::getFloatTy(ctx);
  case TypeCase::Double:
    return llvm::Type::getDoubleTy(ctx);
  case TypeCase::X86FP80:
    return llvm::Type::getX86_FP80Ty(ctx);
  case TypeCase::V4Float:
    return llvm::FixedVectorType::get(llvm::Type::getFloatTy(ctx), 4);
  case TypeCase::NxV2Double:
    return llvm::ScalableVectorType::get(llvm::Type::getDoubleTy(ctx), 2);
  }
  return nullptr;
}

const llvm::StringMap<unsigned> &InstructionOpcodes() {
  static const llvm::StringMap<unsigned> map = {
      {"fneg", llvm::Instruction::FNeg}, {"fadd", llvm::Instruction::FAdd},
      {"fsub", llvm::Instruction::FSub}, {"fmul", llvm::Instruction::FMul},
      {"fdiv", llvm::Instruction::FDiv}, {"frem", llvm::Instruction::FRem}};
  return map;
}

/// The types a rule applies to: any for instructions and intrinsics; the
/// one its suffix says for libm functions.
std::vector<TypeCase> TypesOf(const DerivativeRule &rule) {
  llvm::StringRef name = rule.name;
  if (name.starts_with("llvm.") || InstructionOpcodes().count(name))
    return {TypeCase::Half,    TypeCase::Float,   TypeCase::Double,
            TypeCase::X86FP80, TypeCase::V4Float, TypeCase::NxV2Double};
  if (name.size() > 1 && FindRuleByName(name.drop_back())) {
    if (name.back() == 'f')
      return {TypeCase::Float};
    if (name.back() == 'l')
      return {TypeCase::X86FP80};
  }
  return {TypeCase::Double};
}

using SweepCase = std::pair<const DerivativeRule *, TypeCase>;

class RuleSweepTest : public testing::TestWithParam<SweepCase> {};

TEST_P(RuleSweepTest, EmitsVerifiedIR) {
  const DerivativeRule &rule = *GetParam().first;
  llvm::LLVMContext ctx;
  llvm::Module m("sweep", ctx);
  llvm::Type *ty = MakeType(ctx, GetParam().second);
  llvm::Type *i32 = llvm::Type::getInt32Ty(ctx);

  // Operand types: the rule's type; integers where there is no partial
  // (vectors of them for llvm.ldexp on vectors).
  llvm::SmallVector<llvm::Type *, 3> opTys;
  for (const RuleExpr *p : rule.partials) {
    llvm::Type *intTy = i32;
    if (rule.name == "llvm.ldexp" && ty->isVectorTy())
      intTy = llvm::VectorType::get(
          i32, llvm::cast<llvm::VectorType>(ty)->getElementCount());
    opTys.push_back(p ? ty : intTy);
  }
  // @f(operands..., tangents..., adjoint).
  llvm::SmallVector<llvm::Type *, 8> params(opTys.begin(), opTys.end());
  params.append(opTys.size(), ty);
  params.push_back(ty);
  auto *f = llvm::Function::Create(llvm::FunctionType::get(ty, params, false),
                                   llvm::Function::ExternalLinkage, "f", m);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::SmallVector<Value *, 3> ops, tangents;
  for (unsigned i = 0; i < opTys.size(); ++i) {
    ops.push_back(f->getArg(i));
    tangents.push_back(rule.partials[i] ? f->getArg(opTys.size() + i)
                                        : nullptr);
  }
  Value *adjoint = f->getArg(2 * opTys.size());

  Value *primal;
  auto opcode = InstructionOpcodes().find(rule.name);
  if (opcode != InstructionOpcodes().end()) {
    auto binop = static_cast<llvm::Instruction::BinaryOps>(opcode->second);
    primal = opcode->second == llvm::Instruction::FNeg
                 ? b.CreateFNeg(ops[0])
                 : b.CreateBinOp(binop, ops[0], ops[1]);
  } else if (llvm::StringRef(rule.name).starts_with("llvm.")) {
    llvm::Intrinsic::ID id = llvm::Intrinsic::lookupIntrinsicID(rule.name);
    ASSERT_NE(id, llvm::Intrinsic::not_intrinsic) << rule.name;
    primal = b.CreateCall(
        llvm::Intrinsic::getOrInsertDeclaration(&m, id, ty, opTys), ops);
  } else {
    primal = b.CreateCall(
        m.getOrInsertFunction(rule.name,
                              llvm::FunctionType::get(ty, opTys, false)),
        ops);
  }
  EXPECT_EQ(FindRule(*llvm::cast<llvm::Instruction>(primal)), &rule)
      << Print(primal);

  Value *tangent = EmitTangent(b, rule, ops, primal, tangents);
  ASSERT_NE(tangent, nullptr);
  EXPECT_EQ(tangent->getType(), ty);
  auto adjoints = EmitAdjoints(b, rule, ops, primal, adjoint);
  ASSERT_EQ(adjoints.size(), rule.partials.size());
  for (unsigned i = 0; i < adjoints.size(); ++i) {
    if (!rule.partials[i]) {
      EXPECT_EQ(adjoints[i], nullptr);
    } else if (adjoints[i]) {
      EXPECT_EQ(adjoints[i]->getType(), opTys[i]);
    }
  }
  b.CreateRet(tangent);

  std::string msg;
  llvm::raw_string_ostream os(msg);
  EXPECT_FALSE(llvm::verifyModule(m, &os)) << msg << "\n" << Print(f);
}

std::vector<SweepCase> SweepCases() {
  std::vector<SweepCase> cases;
  for (const DerivativeRule &rule : AllRules())
    for (TypeCase t : TypesOf(rule))
      cases.push_back({&rule, t});
  return cases;
}

std::string SweepName(const testing::TestParamInfo<SweepCase> &info) {
  static const char *types[] = {"half", "float",  "double",
                                "fp80", "v4float", "nxv2double"};
  std::string name = info.param.first->name + "_" +
                     types[static_cast<int>(info.param.second)];
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleSweepTest,
                         testing::ValuesIn(SweepCases()), SweepName);

} // namespace
} // namespace autodiff
