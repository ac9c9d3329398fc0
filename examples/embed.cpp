//===- examples/embed.cpp - The C++ API in one program --------------------===//
//
// What a host that embeds the backend does, start to finish:
//
//   1. parse (or build) an LLVM module holding the function to differentiate;
//   2. turn a request, written as for `autodiff-opt --autodiff`, into a
//      LoweringRequest with one call (ParseLoweringRequest);
//   3. run the pipeline: lowering, differentiation, optimization;
//   4. use the result; here it is compiled with LLVM's JIT and called.
//
// f(x, y) = x*x*y + sin(x) is differentiated in forward mode with respect
// to x (y is Const): d_f(x, dx, y) returns {f(x, y), df/dx * dx}. The
// program prints both and compares the tangent with the exact derivative
// 2xy + cos(x); it exits 1 if they disagree or any step fails.
//
// Built by the project's CMake as `embed-example` and run by its tests. An
// outside project links `autodiff::autodiff_codegen` (see the README).
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"
#include "codegen/Pipeline.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <memory>
#include <string>

namespace {

/// The module a compiler front end would hand over.
constexpr const char *kModule = R"(
; double f(double x, double y) { return x * x * y + sin(x); }
define double @f(double %x, double %y) {
  %xx = fmul double %x, %x
  %xxy = fmul double %xx, %y
  %s = call double @sin(double %x)
  %r = fadd double %xxy, %s
  ret double %r
}
declare double @sin(double)
)";

/// The request, in the syntax of `autodiff-opt --autodiff`.
constexpr const char *kSpec = "f=autodiff_forward(d_f, Dual, Const, Dual)";

/// What d_f returns: the primal value, then the tangent (a struct of two
/// doubles, as the C ABI returns `{ double, double }`).
struct Dual {
  double value;
  double tangent;
};
using DerivativeFn = Dual (*)(double x, double dx, double y);

int Fail(const std::string &message) {
  llvm::outs().flush();
  llvm::errs() << "embed-example: error: " << message << "\n";
  return 1;
}

/// Compiles `m` with LLVM's JIT and returns the address of `name` in `jit`.
llvm::Expected<DerivativeFn> Compile(std::unique_ptr<llvm::Module> m,
                                     std::unique_ptr<llvm::LLVMContext> ctx,
                                     std::unique_ptr<llvm::orc::LLJIT> &jit,
                                     const char *name) {
  auto built = llvm::orc::LLJITBuilder().create();
  if (!built)
    return built.takeError();
  jit = std::move(*built);
  if (llvm::Error err = jit->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))))
    return std::move(err);
  auto address = jit->lookup(name);
  if (!address)
    return address.takeError();
  return address->toPtr<DerivativeFn>();
}

} // namespace

int main() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();

  // 1. The module.
  auto ctx = std::make_unique<llvm::LLVMContext>();
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m =
      llvm::parseAssemblyString(kModule, diag, *ctx);
  if (!m)
    return Fail("cannot parse the module: " + diag.getMessage().str());

  // 2. The request, from its spec, in one call.
  absl::StatusOr<autodiff::LoweringRequest> request =
      autodiff::ParseLoweringRequest(kSpec);
  if (!request.ok())
    return Fail(std::string(request.status().message()));

  // 3. Lowering, differentiation and -O2, each followed by the verifier.
  autodiff::PipelineOptions options;
  options.post_opt = autodiff::OptLevel::O2;
  absl::Status status = autodiff::RunAutodiffPipeline(*m, {*request}, options);
  if (!status.ok())
    return Fail(std::string(status.message()));
  llvm::outs() << "request: " << kSpec
               << "\ntarget:  " << *m->getFunction("d_f")->getFunctionType()
               << "\n";

  // 4. Compile and call the derivative.
  std::unique_ptr<llvm::orc::LLJIT> jit;
  llvm::Expected<DerivativeFn> d_f =
      Compile(std::move(m), std::move(ctx), jit, "d_f");
  if (!d_f)
    return Fail("cannot compile the derivative: " +
                llvm::toString(d_f.takeError()));
  const double x = 2.0, y = 3.0;
  Dual r = (*d_f)(x, /*dx=*/1.0, y);
  double expected = 2 * x * y + std::cos(x);
  llvm::outs() << llvm::format("f(%g, %g)     = %.6f\n", x, y, r.value)
               << llvm::format("df/dx(%g, %g) = %.6f (exact: 2xy + cos(x) = "
                               "%.6f)\n",
                               x, y, r.tangent, expected);
  if (std::fabs(r.value - (x * x * y + std::sin(x))) > 1e-12 ||
      std::fabs(r.tangent - expected) > 1e-12)
    return Fail("the derivative disagrees with the exact one");
  llvm::outs() << "OK\n";
  return 0;
}
