//===- support/ParseIr.h - Parse a module without LLVM's fatal errors -*- C++ -*-===//
//
// LLVM's readers upgrade a module's debug info as they finish, and that
// upgrade calls report_fatal_error (an abort of the whole process, the
// host's too) when the module fails the verifier for any other reason
// ("Broken module found, compilation aborted!": a malformed module flag
// beside current debug info, found by fuzz_ir). ParseIr parses with that
// upgrade off, then upgrades the debug info itself only when the module
// verifies; a broken module is returned as it is, and the pipeline's
// verify-input stage reports it as one diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_SUPPORT_PARSEIR_H
#define AUTODIFF_SUPPORT_PARSEIR_H

#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace autodiff {

/// Turns off the readers' own debug-info upgrade (LLVM's
/// -disable-auto-upgrade-debug-info), once per process.
inline void TakeOverDebugInfoUpgrade() {
  static const bool done = [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("disable-auto-upgrade-debug-info");
    if (it != options.end())
      static_cast<llvm::cl::opt<bool> *>(it->second)->setValue(true);
    return true;
  }();
  (void)done;
}

/// llvm::parseIR (text or bitcode), without the fatal error on a broken
/// module; null with `err` set when it does not parse.
inline std::unique_ptr<llvm::Module> ParseIr(llvm::MemoryBufferRef buffer,
                                             llvm::SMDiagnostic &err,
                                             llvm::LLVMContext &ctx) {
  TakeOverDebugInfoUpgrade();
  std::unique_ptr<llvm::Module> m = llvm::parseIR(buffer, err, ctx);
  bool broken_debug_info = false;
  if (m && !llvm::verifyModule(*m, nullptr, &broken_debug_info))
    llvm::UpgradeDebugInfo(*m);
  return m;
}

} // namespace autodiff

#endif // AUTODIFF_SUPPORT_PARSEIR_H
