//===- examples/jit_runtime.cpp - A tiny language runtime on the C API ----===//
//
// What a JIT-compiling language runtime does with the C API
// (autodiff/autodiff.h): its compiler builds the user's function with the
// LLVM C++ API (here, the polynomial p(x) = sum_k c_k x^k of a "user
// program" given as coefficients, unrolled by the "compiler" into a Horner
// chain), hands the module to the library as bitcode, asks for the
// derivative with an item, and calls the compiled derivative through the
// library's JIT. The library's C interface keeps LLVM's C++ types out of
// the runtime's interface to it: any LLVM the runtime itself uses is only
// used to write bitcode.
//
// Built as `jit-runtime-example` and run by the tests
// (tests/lit/examples/jit-runtime.test). Exits 1 on any failure or a
// derivative that disagrees with the exact one.
//
//===----------------------------------------------------------------------===//
#include "autodiff/autodiff.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

/// The runtime's compiler: `double poly(double x)` by Horner's rule.
std::string CompileToBitcode(const std::vector<double> &coefficients) {
  llvm::LLVMContext ctx;
  llvm::Module m("user_program", ctx);
  llvm::IRBuilder<> b(ctx);
  auto *fty = llvm::FunctionType::get(b.getDoubleTy(), {b.getDoubleTy()},
                                      /*isVarArg=*/false);
  auto *f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage,
                                   "poly", m);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::Value *x = f->getArg(0);
  llvm::Value *acc = llvm::ConstantFP::get(b.getDoubleTy(),
                                           coefficients.back());
  for (size_t k = coefficients.size() - 1; k-- > 0;) {
    llvm::Value *scaled = b.CreateFMul(acc, x);
    acc = b.CreateFAdd(scaled,
                       llvm::ConstantFP::get(b.getDoubleTy(), coefficients[k]));
  }
  b.CreateRet(acc);
  if (llvm::verifyModule(m, &llvm::errs()))
    return "";
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(m, os);
  return bitcode;
}

int Fail(const char *what, char *error) {
  std::fprintf(stderr, "%s: %s\n", what, error ? error : "(no message)");
  ad_free_error(error);
  return 1;
}

} // namespace

int main() {
  const std::vector<double> c = {1.0, -2.0, 0.5, 3.0}; // 1 - 2x + x^2/2 + 3x^3
  std::string bitcode = CompileToBitcode(c);
  if (bitcode.empty())
    return Fail("compile", nullptr);

  char *error = nullptr;
  ad_jit *jit = ad_jit_create("-O2", &error);
  if (!jit)
    return Fail("ad_jit_create", error);
  int ok =
      ad_jit_add_module(jit, bitcode.data(), bitcode.size(), &error) &&
      ad_jit_add_item(jit, "poly=autodiff_forward(d_poly, Dual, DualOnly)",
                      &error);
  auto *dpoly = ok ? reinterpret_cast<double (*)(double, double)>(
                         ad_jit_lookup(jit, "d_poly", &error))
                   : nullptr;
  if (!dpoly) {
    int status = Fail("differentiate", error);
    ad_jit_destroy(jit);
    return status;
  }
  bool agree = true;
  for (double x : {-1.5, 0.0, 0.75, 2.0}) {
    double exact = c[1] + 2 * c[2] * x + 3 * c[3] * x * x;
    double got = dpoly(x, 1.0);
    std::printf("p'(%g) = %.6f (exact %.6f)\n", x, got, exact);
    agree &= std::fabs(got - exact) <= 1e-12 * (1 + std::fabs(exact));
  }
  ad_jit_destroy(jit);
  std::puts(agree ? "OK" : "MISMATCH");
  return agree ? 0 : 1;
}
