//===- codegen/RuntimeChecks.cpp - Run-time checks in targets -------------===//
//
// Design. rustc trusts that a duplicated slice's shadow is as long as the
// primal (a FIXME in its lowering); Enzyme then writes past the end of a
// short shadow. We check before the `__enzyme_*` call. A failing check
// branches (marked unlikely) to one internal, cold, noreturn helper per
// module, `__autodiff_length_error(fmt, have, primal, need)`, which prints
// with `fprintf` to stderr and calls `abort`, so the lowered module links
// against libc alone. Each check passes its own format string holding the
// target and parameter names, keeping the helper generic.
//
//===----------------------------------------------------------------------===//
#include "codegen/RuntimeChecks.h"

#include "absl/strings/str_cat.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace autodiff {
namespace {

constexpr const char *kHelperName = "__autodiff_length_error";

/// The C library's `stderr` as a value, per platform.
llvm::Value *StderrStream(llvm::IRBuilder<> &b, llvm::Module &m) {
  llvm::Type *ptr = b.getPtrTy();
  const llvm::Triple &triple = m.getTargetTriple();
  if (triple.isOSWindows()) {
    llvm::FunctionCallee iob = m.getOrInsertFunction(
        "__acrt_iob_func",
        llvm::FunctionType::get(ptr, {b.getInt32Ty()}, false));
    return b.CreateCall(iob, {b.getInt32(2)}, "stderr");
  }
  const char *name = triple.isOSDarwin() ? "__stderrp" : "stderr";
  llvm::Constant *gv = m.getOrInsertGlobal(name, ptr);
  return b.CreateLoad(ptr, gv, "stderr");
}

/// `void __autodiff_length_error(ptr fmt, i64 have, i64 primal, i64 need)`.
llvm::Function *LengthErrorHelper(llvm::Module &m) {
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Type *ptr = llvm::PointerType::getUnqual(ctx);
  llvm::Type *i64 = llvm::Type::getInt64Ty(ctx);
  auto *fty = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx),
                                      {ptr, i64, i64, i64}, false);
  if (llvm::Function *f = m.getFunction(kHelperName))
    if (f->getFunctionType() == fty && !f->isDeclaration())
      return f;
  llvm::Function *f = llvm::Function::Create(
      fty, llvm::GlobalValue::InternalLinkage, kHelperName, m);
  f->addFnAttr(llvm::Attribute::NoReturn);
  f->addFnAttr(llvm::Attribute::Cold);
  f->addFnAttr(llvm::Attribute::NoInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  const char *names[] = {"fmt", "have", "primal", "need"};
  for (unsigned i = 0; i < 4; ++i)
    f->getArg(i)->setName(names[i]);

  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::FunctionCallee fprintf = m.getOrInsertFunction(
      "fprintf", llvm::FunctionType::get(b.getInt32Ty(), {ptr, ptr}, true));
  llvm::FunctionCallee abort = m.getOrInsertFunction(
      "abort", llvm::FunctionType::get(b.getVoidTy(), false));
  llvm::Value *stream = StderrStream(b, m);
  b.CreateCall(fprintf, {stream, f->getArg(0), f->getArg(1), f->getArg(2),
                         f->getArg(3)});
  llvm::CallInst *call = b.CreateCall(abort);
  call->setDoesNotReturn();
  b.CreateUnreachable();
  return f;
}

/// How the message names the target: demangled, without Rust's legacy
/// `::h0123456789abcdef` hash suffix.
std::string DisplayName(const std::string &name) {
  std::string out = llvm::demangle(name);
  size_t hash = out.rfind("::h");
  if (hash != std::string::npos && out.size() == hash + 19 &&
      out.find_first_not_of("0123456789abcdef", hash + 3) == std::string::npos)
    out.resize(hash);
  return out;
}

/// `s` with every '%' doubled, for use inside a printf format.
std::string EscapeFormat(const std::string &s) {
  std::string out;
  for (char c : s) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

} // namespace

absl::Status EmitLengthChecks(llvm::IRBuilder<> &b,
                              const std::vector<LengthCheck> &checks,
                              const std::vector<llvm::Value *> &params,
                              const std::string &target,
                              const std::string &where) {
  if (checks.empty())
    return absl::OkStatus();
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::Module &m = *fn->getParent();
  llvm::LLVMContext &ctx = m.getContext();
  llvm::Function *helper = LengthErrorHelper(m);
  llvm::MDNode *unlikely = llvm::MDBuilder(ctx).createUnlikelyBranchWeights();
  for (const LengthCheck &c : checks) {
    if (c.primal_len >= params.size() || c.shadow_len >= params.size() ||
        !params[c.primal_len]->getType()->isIntegerTy() ||
        !params[c.shadow_len]->getType()->isIntegerTy())
      return absl::InternalError(
          absl::StrCat(where, "length check of ", c.what,
                       " refers to a missing or non-integer parameter"));
    if (c.factor == 0)
      return absl::InternalError(
          absl::StrCat(where, "length check of ", c.what, " has factor 0"));
    llvm::Value *primal =
        b.CreateZExtOrTrunc(params[c.primal_len], b.getInt64Ty());
    llvm::Value *have =
        b.CreateZExtOrTrunc(params[c.shadow_len], b.getInt64Ty());
    llvm::Value *need = primal;
    std::string fmt =
        absl::StrCat("autodiff: ", EscapeFormat(DisplayName(target)), ": ",
                     EscapeFormat(c.what),
                     " has length %llu, but the primal has "
                     "length %llu");
    if (c.factor != 1) {
      llvm::Value *mul = b.CreateBinaryIntrinsic(
          llvm::Intrinsic::umul_with_overflow, primal, b.getInt64(c.factor));
      llvm::Value *overflow = b.CreateExtractValue(mul, 1);
      llvm::Value *product = b.CreateExtractValue(mul, 0);
      need = b.CreateSelect(overflow, b.getInt64(UINT64_MAX), product, "need");
      absl::StrAppend(&fmt, " and ", c.factor, " lanes need length %llu");
    }
    fmt += "\n";
    llvm::Value *bad = b.CreateICmpULT(have, need, "short_shadow");
    auto *fail = llvm::BasicBlock::Create(ctx, "length_error", fn);
    auto *ok = llvm::BasicBlock::Create(ctx, "length_ok", fn);
    b.CreateCondBr(bad, fail, ok, unlikely);
    b.SetInsertPoint(fail);
    llvm::Value *msg = b.CreateGlobalString(fmt, ".autodiff.length_msg");
    llvm::CallInst *call = b.CreateCall(helper, {msg, have, primal, need});
    call->setDoesNotReturn();
    b.CreateUnreachable();
    b.SetInsertPoint(ok);
  }
  return absl::OkStatus();
}

} // namespace autodiff
