//===- tests/unit/codegen/LoweringTest.cpp - Lowering on parsed IR --------===//
//
// LowerAutoDiff, SignatureFromLlvm, CollectAnnotatedRequests and the
// pipeline driver on modules parsed from strings: the shapes they produce,
// the status codes of their errors, and that a failed request leaves the
// module valid and unchanged where it matters.
//
//===----------------------------------------------------------------------===//

#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

namespace autodiff {
namespace {

class LoweringTest : public ::testing::Test {
protected:
  std::unique_ptr<llvm::Module> Parse(const char *ir) {
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ir, diag, ctx_);
    if (!m) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      diag.print("test", os);
      ADD_FAILURE() << msg;
    }
    return m;
  }

  static LoweringRequest Request(const char *source, const char *attr,
                                 const char *signature = nullptr) {
    LoweringRequest req;
    req.source = source;
    absl::StatusOr<ParsedAttribute> parsed = ParseAutodiffAttribute(attr);
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    if (parsed.ok())
      req.attr = *parsed;
    if (signature) {
      absl::StatusOr<SourceSignature> sig = ParseSourceSignature(signature);
      EXPECT_TRUE(sig.ok()) << sig.status();
      if (sig.ok())
        req.signature = *sig;
    }
    return req;
  }

  static std::string TypeOf(const llvm::Function *f) {
    std::string s;
    llvm::raw_string_ostream os(s);
    f->getFunctionType()->print(os);
    return s;
  }

  static bool Valid(const llvm::Module &m) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    bool broken = llvm::verifyModule(m, &os);
    EXPECT_FALSE(broken) << msg;
    return !broken;
  }

  llvm::LLVMContext ctx_;
};

constexpr const char *kScalars = R"(
define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}
define void @g(ptr %p, float %a, i32 %n, i1 zeroext %b) {
  ret void
}
define double @sum(ptr %x.0, i64 %x.1) {
  ret double 0.0
}
)";

TEST_F(LoweringTest, SignatureFromLlvmMapsEachParameter) {
  auto m = Parse(kScalars);
  ASSERT_TRUE(m);
  SourceSignature f = SignatureFromLlvm(*m->getFunction("f"));
  EXPECT_EQ(f.name, "f");
  ASSERT_EQ(f.params.size(), 2u);
  EXPECT_EQ(f.params[0].name, "x");
  EXPECT_EQ(f.params[0].type.ToString(), "f64");
  EXPECT_EQ(f.ret.ToString(), "f64");

  SourceSignature g = SignatureFromLlvm(*m->getFunction("g"));
  ASSERT_EQ(g.params.size(), 4u);
  EXPECT_TRUE(g.params[0].type.IsPointerLike());
  EXPECT_EQ(g.params[1].type.ToString(), "f32");
  EXPECT_EQ(g.params[2].type.kind, SourceType::Kind::Int);
  EXPECT_EQ(g.params[2].type.bits, 32u);
  EXPECT_EQ(g.params[3].type.kind, SourceType::Kind::Bool);
  EXPECT_EQ(g.ret.kind, SourceType::Kind::Unit);
}

TEST_F(LoweringTest, SynthesizesTheTarget) {
  auto m = Parse(kScalars);
  ASSERT_TRUE(m);
  absl::Status s = LowerAutoDiff(
      *m, Request("f", "autodiff_reverse(d_f, Active, Const, Active)"));
  ASSERT_TRUE(s.ok()) << s;
  llvm::Function *d = m->getFunction("d_f");
  ASSERT_TRUE(d);
  EXPECT_EQ(TypeOf(d), "{ double, double } (double, double, double)");
  EXPECT_EQ(d->getArg(2)->getName(), "dret");
  llvm::Function *enzyme = m->getFunction("__enzyme_autodiff_d_f");
  ASSERT_TRUE(enzyme);
  EXPECT_TRUE(enzyme->isVarArg());
  EXPECT_TRUE(enzyme->hasFnAttribute(llvm::Attribute::NoInline));
  EXPECT_TRUE(m->getNamedGlobal("enzyme_out"));
  EXPECT_TRUE(Valid(*m));
}

TEST_F(LoweringTest, SliceSignatureAddsALengthCheck) {
  auto m = Parse(kScalars);
  ASSERT_TRUE(m);
  absl::Status s = LowerAutoDiff(
      *m, Request("sum", "autodiff_reverse(d_sum, Duplicated, Active)",
                  "sum(x: &[f64]) -> f64"));
  ASSERT_TRUE(s.ok()) << s;
  llvm::Function *d = m->getFunction("d_sum");
  ASSERT_TRUE(d);
  EXPECT_EQ(TypeOf(d), "double (ptr, i64, ptr, i64, double)");
  EXPECT_TRUE(m->getFunction("__autodiff_length_error"));
  EXPECT_TRUE(m->getFunction("fprintf"));
  EXPECT_TRUE(m->getFunction("abort"));
  EXPECT_TRUE(Valid(*m));
}

TEST_F(LoweringTest, ErrorsHaveCodesAndNameSourceAndTarget) {
  auto m = Parse(kScalars);
  ASSERT_TRUE(m);
  absl::Status missing = LowerAutoDiff(
      *m, Request("nope", "autodiff_reverse(d_nope, Active, Active)"));
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.message().find("`nope`"), absl::string_view::npos);
  EXPECT_NE(missing.message().find("`d_nope`"), absl::string_view::npos);

  absl::Status mismatch = LowerAutoDiff(
      *m, Request("f", "autodiff_reverse(d_f, Duplicated, Active)",
                  "f(x: &[f64]) -> f64"));
  EXPECT_EQ(mismatch.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(m->getFunction("d_f"));

  absl::Status count =
      LowerAutoDiff(*m, Request("f", "autodiff_reverse(d_f, Active)"));
  EXPECT_EQ(count.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Valid(*m));
}

TEST_F(LoweringTest, AFailedRequestLeavesTheModuleValid) {
  auto m = Parse(R"(
define double @f(double %x) {
  ret double %x
}
define double @d_f(double %x, float %dret) {
  ret double 0.0
}
declare double @__enzyme_autodiff_e_f(...)
)");
  ASSERT_TRUE(m);
  // Wrong placeholder: reported, the placeholder keeps its body.
  absl::Status s =
      LowerAutoDiff(*m, Request("f", "autodiff_reverse(d_f, Active, Active)"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(m->getFunction("d_f")->isDeclaration());
  // The entry point's name is taken with another type: no target is made.
  s = LowerAutoDiff(*m, Request("f", "autodiff_reverse(e_f, Active, Active)"));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(m->getFunction("e_f"));
  EXPECT_TRUE(Valid(*m));
}

TEST_F(LoweringTest, ReplacesAPlaceholderAndKeepsItsLinkage) {
  auto m = Parse(R"(
define double @f(double %x) {
  ret double %x
}
define internal { double, double } @d_f(double %x, double %dret) #0 {
  unreachable
}
define { double, double } @use(double %x) {
  %r = call { double, double } @d_f(double %x, double 1.0)
  ret { double, double } %r
}
attributes #0 = { noinline optnone noreturn }
)");
  ASSERT_TRUE(m);
  absl::Status s =
      LowerAutoDiff(*m, Request("f", "autodiff_reverse(d_f, Active, Active)"));
  ASSERT_TRUE(s.ok()) << s;
  llvm::Function *d = m->getFunction("d_f");
  EXPECT_TRUE(d->hasInternalLinkage());
  EXPECT_FALSE(d->hasFnAttribute(llvm::Attribute::NoInline));
  EXPECT_FALSE(d->hasFnAttribute(llvm::Attribute::OptimizeNone));
  EXPECT_FALSE(d->hasFnAttribute(llvm::Attribute::NoReturn));
  EXPECT_TRUE(Valid(*m));
}

TEST_F(LoweringTest, RefusesToReplaceARealBodyUnlessAsked) {
  auto m = Parse(R"(
define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}
define double @k3(double %a, double %b, double %c) {
  %s = fadd double %a, 42.0
  ret double %s
}
)");
  ASSERT_TRUE(m);
  LoweringRequest req =
      Request("f", "autodiff_forward(k3, Dual, Const, DualOnly)");
  absl::Status s = LowerAutoDiff(*m, req);
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(s.message().find("in autodiff of `f` into `k3`: target `k3` "
                             "already has a body that is not a placeholder"),
            0u)
      << s;
  // The user's function is untouched and nothing was added.
  llvm::Function *k3 = m->getFunction("k3");
  ASSERT_EQ(k3->getEntryBlock().size(), 2u);
  EXPECT_EQ(k3->getEntryBlock().front().getOpcode(), llvm::Instruction::FAdd);
  EXPECT_FALSE(m->getFunction("__enzyme_fwddiff_k3"));

  // Through the pipeline, the option applies to every request.
  PipelineOptions opts;
  opts.stop_after_lowering = true;
  s = RunAutodiffPipeline(*m, {req}, opts);
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists);
  opts.replace_defined_targets = true;
  s = RunAutodiffPipeline(*m, {req}, opts);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(llvm::isa<llvm::CallInst>(k3->getEntryBlock().front()));

  // So does the request's own field.
  auto m2 = Parse(R"(
define double @f(double %x, double %y) {
  %m = fmul double %x, %y
  ret double %m
}
define double @k3(double %a, double %b, double %c) {
  %s = fadd double %a, 42.0
  ret double %s
}
)");
  ASSERT_TRUE(m2);
  req.replace_defined_target = true;
  s = LowerAutoDiff(*m2, req);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(m2->getFunction("__enzyme_fwddiff_k3"));
  EXPECT_TRUE(Valid(*m2));
}

constexpr const char *kAnnotated = R"(
@.s1 = private unnamed_addr constant [38 x i8] c"autodiff_reverse(d_f, Active, Active)\00", section "llvm.metadata"
@.s2 = private unnamed_addr constant [4 x i8] c"hot\00", section "llvm.metadata"
@.file = private unnamed_addr constant [4 x i8] c"a.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @.s1, ptr @.file, i32 3, ptr null }, { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @.s2, ptr @.file, i32 3, ptr null }], section "llvm.metadata"

define double @f(double %x) {
  ret double %x
}
)";

TEST_F(LoweringTest, CollectsAnnotatedRequestsAndKeepsOthers) {
  auto m = Parse(kAnnotated);
  ASSERT_TRUE(m);
  absl::StatusOr<std::vector<LoweringRequest>> reqs =
      CollectAnnotatedRequests(*m);
  ASSERT_TRUE(reqs.ok()) << reqs.status();
  ASSERT_EQ(reqs->size(), 1u);
  EXPECT_EQ((*reqs)[0].source, "f");
  EXPECT_EQ((*reqs)[0].attr.target, "d_f");
  EXPECT_FALSE((*reqs)[0].signature.has_value());
  llvm::GlobalVariable *ann = m->getNamedGlobal("llvm.global.annotations");
  ASSERT_TRUE(ann);
  EXPECT_EQ(llvm::cast<llvm::ArrayType>(ann->getValueType())->getNumElements(),
            1u);
  EXPECT_FALSE(m->getNamedGlobal(".s1"));
  EXPECT_TRUE(m->getNamedGlobal(".s2"));
  EXPECT_TRUE(m->getNamedGlobal(".file"));
  EXPECT_TRUE(Valid(*m));
  // A second pass finds nothing left.
  reqs = CollectAnnotatedRequests(*m);
  ASSERT_TRUE(reqs.ok());
  EXPECT_TRUE(reqs->empty());
}

TEST_F(LoweringTest, AnnotationErrorsNameFileAndLine) {
  auto m = Parse(R"(
@.s = private unnamed_addr constant [36 x i8] c"autodiff_reverse(d_f, Active, Nope)\00", section "llvm.metadata"
@.file = private unnamed_addr constant [4 x i8] c"a.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @.s, ptr @.file, i32 7, ptr null }], section "llvm.metadata"
define double @f(double %x) {
  ret double %x
}
)");
  ASSERT_TRUE(m);
  absl::StatusOr<std::vector<LoweringRequest>> reqs =
      CollectAnnotatedRequests(*m);
  ASSERT_FALSE(reqs.ok());
  EXPECT_EQ(reqs.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(reqs.status().message().substr(0, 6), "a.c:7:");
  // Nothing was consumed.
  EXPECT_TRUE(m->getNamedGlobal("llvm.global.annotations"));
}

TEST_F(LoweringTest, PipelineStopsAfterLoweringAndPrints) {
  auto m = Parse(kAnnotated);
  ASSERT_TRUE(m);
  PipelineOptions opts;
  opts.stop_after_lowering = true;
  absl::Status s = RunAutodiffPipeline(*m, {}, opts);
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_TRUE(m->getFunction("d_f"));
  EXPECT_TRUE(m->getFunction("__enzyme_autodiff_d_f"));

  // Requests naming the same target twice are refused up front.
  auto m2 = Parse(kScalars);
  ASSERT_TRUE(m2);
  std::vector<LoweringRequest> twice = {
      Request("f", "autodiff_reverse(d, Active, Active, Active)"),
      Request("f", "autodiff_forward(d, Dual, Dual, Dual)")};
  s = RunAutodiffPipeline(*m2, twice, opts);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(m2->getFunction("d"));
}

TEST_F(LoweringTest, PipelineVerifiesItsInput) {
  auto m = Parse(kScalars);
  ASSERT_TRUE(m);
  // Break the module behind the parser's back.
  llvm::Function *f = m->getFunction("f");
  f->getEntryBlock().getTerminator()->eraseFromParent();
  PipelineOptions opts;
  absl::Status s = RunAutodiffPipeline(*m, {}, opts);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_NE(s.message().find("in the input module"), absl::string_view::npos);
  // One problem: the verifier's lines continue it, indented, none empty.
  std::string message(s.message());
  llvm::SmallVector<llvm::StringRef, 8> lines;
  llvm::StringRef(message).split(lines, '\n');
  ASSERT_GE(lines.size(), 2u);
  EXPECT_TRUE(lines[0].starts_with("in the input module: "));
  for (size_t i = 1; i < lines.size(); ++i) {
    EXPECT_TRUE(lines[i].starts_with("  ")) << lines[i].str();
    EXPECT_FALSE(lines[i].trim().empty()) << "line " << i;
  }
}

TEST(ParseLoweringRequestTest, TurnsASpecIntoARequest) {
  absl::StatusOr<LoweringRequest> req = ParseLoweringRequest(
      "dot(a: &[f64], b: &[f64]) -> f64=autodiff_forward(d_dot, 2, Dual, "
      "Const, Dual)");
  ASSERT_TRUE(req.ok()) << req.status();
  EXPECT_EQ(req->source, "dot");
  ASSERT_TRUE(req->signature.has_value());
  ASSERT_EQ(req->signature->params.size(), 2u);
  EXPECT_EQ(req->signature->params[0].name, "a");
  EXPECT_EQ(req->signature->params[0].type.ToString(), "&[f64]");
  EXPECT_EQ(req->signature->ret.ToString(), "f64");
  EXPECT_EQ(req->attr.mode, DiffMode::Forward);
  EXPECT_EQ(req->attr.target, "d_dot");
  EXPECT_EQ(req->attr.width, 2u);
  EXPECT_EQ(req->attr.activities.size(), 3u);
  EXPECT_TRUE(req->origin.empty());
  EXPECT_FALSE(req->replace_defined_target);

  absl::StatusOr<LoweringRequest> plain =
      ParseLoweringRequest("f=autodiff_forward(d_f, Dual, Dual)");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ(plain->source, "f");
  EXPECT_FALSE(plain->signature.has_value());
}

TEST(ParseLoweringRequestTest, BadSpecsQuoteTheSpec) {
  absl::StatusOr<LoweringRequest> req =
      ParseLoweringRequest("f=autodiff_forward(d_f, Dual, Foo)");
  ASSERT_FALSE(req.ok());
  EXPECT_EQ(req.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(req.status().message(),
            "'f=autodiff_forward(d_f, Dual, Foo)': did not recognize "
            "Activity: `Foo`");
  req = ParseLoweringRequest("garbage");
  ASSERT_FALSE(req.ok());
  EXPECT_EQ(req.status().message(),
            "'garbage': expected SOURCE=autodiff_forward(...) or "
            "SOURCE=autodiff_reverse(...), found `garbage`");
}

TEST(ParseOptLevelTest, AcceptsAllLevels) {
  EXPECT_EQ(ParseOptLevel("O0"), OptLevel::O0);
  EXPECT_EQ(ParseOptLevel("O1"), OptLevel::O1);
  EXPECT_EQ(ParseOptLevel("O2"), OptLevel::O2);
  EXPECT_EQ(ParseOptLevel("O3"), OptLevel::O3);
  EXPECT_EQ(ParseOptLevel("Os"), OptLevel::Os);
  EXPECT_EQ(ParseOptLevel("Oz"), OptLevel::Oz);
  EXPECT_EQ(ParseOptLevel("2"), OptLevel::O2);
  EXPECT_FALSE(ParseOptLevel("O4").has_value());
  EXPECT_FALSE(ParseOptLevel("").has_value());
  EXPECT_FALSE(ParseOptLevel("fast").has_value());
}

} // namespace
} // namespace autodiff
