//===- runtime/capi/CApi.cpp - The C API: ahead of time and the JIT -------===//
//
// autodiff/autodiff.h on the codegen pipeline (lowering, differentiation,
// optimization: codegen/Pipeline.h) and LLVM's ORC LLJIT. Each ad_jit
// keeps one LLVMContext (a ThreadSafeContext shared with the JIT's compile
// layer) in which added modules are parsed and linked into a pending
// module; a lookup runs the pipeline on it, hands it to the JIT and starts
// a new pending module. The context's diagnostic handler collects what LLVM
// reports (the linker's errors, say) instead of printing and exiting, so a
// bad input never ends the host process.
//
//===----------------------------------------------------------------------===//
#include "autodiff/autodiff.h"

#include "runtime/capi/Options.h"

#include "codegen/Pipeline.h"
#include "support/IrText.h"
#include "support/ParseIr.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#ifndef AUTODIFF_VERSION
#define AUTODIFF_VERSION "unknown"
#endif

#define AD_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

char *CopyString(const std::string &s) {
  char *copy = static_cast<char *>(std::malloc(s.size() + 1));
  if (copy) {
    std::memcpy(copy, s.data(), s.size());
    copy[s.size()] = '\0';
  }
  return copy;
}

/// Returns 0 after setting *error (if asked for) to `message`.
int Fail(char **error, const std::string &message) {
  if (error)
    *error = CopyString(message);
  return 0;
}

std::string ErrorText(llvm::Error e) { return llvm::toString(std::move(e)); }

/// Collects the errors LLVM reports through a context (rather than the
/// default handler's print-and-exit).
struct CollectedDiagnostics {
  std::string errors;
  static void Handle(const llvm::DiagnosticInfo *di, void *self) {
    if (di->getSeverity() != llvm::DS_Error)
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::DiagnosticPrinterRawOStream printer(os);
    di->print(printer);
    auto *me = static_cast<CollectedDiagnostics *>(self);
    me->errors += (me->errors.empty() ? "" : "\n") + text;
  }
  void Install(llvm::LLVMContext &ctx) {
    ctx.setDiagnosticHandlerCallBack(Handle, this);
  }
};

/// Parses text or bitcode into `ctx`; null with `*why` on failure.
std::unique_ptr<llvm::Module> ParseModule(const char *ir, size_t size,
                                          llvm::LLVMContext &ctx,
                                          std::string *why) {
  if (!ir) {
    *why = "no IR given (null pointer)";
    return nullptr;
  }
  if (auto at = autodiff::FindOversizedNumberedId(std::string_view(ir, size))) {
    *why = "cannot read the module: <module>:" + std::to_string(at->line) +
           ":" + std::to_string(at->column) +
           ": invalid value number (too large)";
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(ir, size), "<module>");
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> m = autodiff::ParseIr(*buffer, diag, ctx);
  if (!m) {
    std::string text;
    llvm::raw_string_ostream os(text);
    diag.print("", os, /*ShowColors=*/false);
    *why = "cannot read the module: " + llvm::StringRef(text).trim().str();
  }
  return m;
}

void InitializeNativeTargetOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

} // namespace

struct ad_jit {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  llvm::orc::ThreadSafeContext context;
  CollectedDiagnostics diagnostics;
  /// Modules added since the last lookup, linked together.
  std::unique_ptr<llvm::Module> pending;
  std::vector<autodiff::LoweringRequest> items;
  autodiff::PipelineOptions options;
  /// Errors ORC reported during the current lookup.
  std::string reported;
  /// Whether a lookup has found a symbol (compiled code may have run).
  bool looked_up = false;

  /// Differentiates, optimizes and hands to the JIT what is pending.
  bool CompilePending(std::string *why);
};

bool ad_jit::CompilePending(std::string *why) {
  if (!pending && items.empty())
    return true;
  return context.withContextDo([&](llvm::LLVMContext *ctx) {
    if (!pending)
      pending = std::make_unique<llvm::Module>("autodiff.jit", *ctx);
    std::unique_ptr<llvm::Module> m = std::move(pending);
    std::vector<autodiff::LoweringRequest> requests = std::move(items);
    items.clear();
    diagnostics.errors.clear();
    absl::Status s = autodiff::RunAutodiffPipeline(*m, requests, options);
    if (!s.ok() || !diagnostics.errors.empty()) {
      *why = !s.ok() ? std::string(s.message()) : diagnostics.errors;
      return false;
    }
    m->setDataLayout(jit->getDataLayout());
    m->setTargetTriple(jit->getTargetTriple());
    llvm::orc::ThreadSafeModule tsm(std::move(m), context);
    if (llvm::Error e = jit->addIRModule(std::move(tsm))) {
      *why = ErrorText(std::move(e));
      return false;
    }
    return true;
  });
}

AD_EXPORT const char *ad_version(void) {
  return "autodiff " AUTODIFF_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

AD_EXPORT void ad_free_error(char *error) { std::free(error); }

AD_EXPORT ad_jit *ad_jit_create(const char *options, char **error) {
  absl::StatusOr<autodiff::capi::ToolOptions> parsed =
      autodiff::capi::ParseOptions(options ? options : "",
                                   /*allow_output_format=*/false);
  if (!parsed.ok()) {
    Fail(error, std::string(parsed.status().message()));
    return nullptr;
  }
  InitializeNativeTargetOnce();
  auto created = llvm::orc::LLJITBuilder().create();
  if (!created) {
    Fail(error, "cannot create the JIT: " + ErrorText(created.takeError()));
    return nullptr;
  }
  auto j = std::make_unique<ad_jit>();
  j->jit = std::move(*created);
  // What ORC reports while materializing (a symbol the module needs that
  // nobody defines) is kept for the failing lookup's message; its default
  // reporter would print it to the host's stderr.
  ad_jit *self = j.get();
  j->jit->getExecutionSession().setErrorReporter([self](llvm::Error e) {
    self->reported += (self->reported.empty() ? "" : "\n") +
                      ErrorText(std::move(e));
  });
  j->options = parsed->pipeline;
  auto host = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      j->jit->getDataLayout().getGlobalPrefix());
  if (!host) {
    Fail(error, "cannot search the host process for symbols: " +
                    ErrorText(host.takeError()));
    return nullptr;
  }
  j->jit->getMainJITDylib().addGenerator(std::move(*host));
  j->context =
      llvm::orc::ThreadSafeContext(std::make_unique<llvm::LLVMContext>());
  j->context.withContextDo(
      [&](llvm::LLVMContext *ctx) { j->diagnostics.Install(*ctx); });
  return j.release();
}

AD_EXPORT int ad_jit_add_module(ad_jit *jit, const char *ir, size_t size,
                                char **error) {
  if (!jit)
    return Fail(error, "ad_jit_add_module: no JIT (null pointer)");
  std::string why;
  bool ok = jit->context.withContextDo([&](llvm::LLVMContext *ctx) {
    std::unique_ptr<llvm::Module> m = ParseModule(ir, size, *ctx, &why);
    if (!m)
      return false;
    if (!jit->pending) {
      jit->pending = std::move(m);
      return true;
    }
    jit->diagnostics.errors.clear();
    if (llvm::Linker::linkModules(*jit->pending, std::move(m))) {
      why = "cannot link the module with the ones added before it: " +
            jit->diagnostics.errors;
      return false;
    }
    return true;
  });
  return ok ? 1 : Fail(error, why);
}

AD_EXPORT int ad_jit_add_item(ad_jit *jit, const char *spec, char **error) {
  if (!jit)
    return Fail(error, "ad_jit_add_item: no JIT (null pointer)");
  if (!spec)
    return Fail(error, "ad_jit_add_item: no spec (null pointer)");
  absl::StatusOr<autodiff::LoweringRequest> req =
      autodiff::ParseLoweringRequest(spec);
  if (!req.ok())
    return Fail(error, std::string(req.status().message()));
  req->replace_defined_target = jit->options.replace_defined_targets;
  jit->items.push_back(std::move(*req));
  return 1;
}

AD_EXPORT int ad_jit_define_symbol(ad_jit *jit, const char *name,
                                   void *address, char **error) {
  if (!jit || !name)
    return Fail(error, "ad_jit_define_symbol: no JIT or no name (null "
                       "pointer)");
  llvm::orc::SymbolMap symbols;
  symbols[jit->jit->mangleAndIntern(name)] = {
      llvm::orc::ExecutorAddr::fromPtr(address),
      llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  if (llvm::Error e = jit->jit->getMainJITDylib().define(
          llvm::orc::absoluteSymbols(std::move(symbols))))
    return Fail(error, "cannot define `" + std::string(name) +
                           "`: " + ErrorText(std::move(e)));
  return 1;
}

AD_EXPORT void *ad_jit_lookup(ad_jit *jit, const char *name, char **error) {
  if (!jit || !name) {
    Fail(error, "ad_jit_lookup: no JIT or no name (null pointer)");
    return nullptr;
  }
  std::string why;
  if (!jit->CompilePending(&why)) {
    Fail(error, why);
    return nullptr;
  }
  jit->reported.clear();
  llvm::Expected<llvm::orc::ExecutorAddr> addr = jit->jit->lookup(name);
  if (!addr) {
    std::string text = ErrorText(addr.takeError());
    if (!jit->reported.empty())
      text = jit->reported + "\n" + text;
    Fail(error, "cannot find or compile `" + std::string(name) + "`: " + text);
    return nullptr;
  }
  jit->looked_up = true;
  return addr->toPtr<void *>();
}

AD_EXPORT void ad_jit_destroy(ad_jit *jit) {
  // Reverse derivatives keep their loop tapes' arrays in pools between
  // calls; the pools live in the JIT's memory, so free what they hold
  // before that memory goes (once code has run, the release function of
  // the modules with reverse derivatives is there to call).
  if (jit && jit->jit && jit->looked_up) {
    jit->reported.clear();
    llvm::Expected<llvm::orc::ExecutorAddr> release =
        jit->jit->lookup("__autodiff_release_tapes");
    if (release)
      release->toPtr<void (*)()>()();
    else
      llvm::consumeError(release.takeError());
  }
  delete jit;
}

AD_EXPORT int ad_differentiate(const char *ir, size_t size,
                               const char *options,
                               const char *const *items, size_t nitems,
                               char **out, size_t *out_size, char **error) {
  if (!out)
    return Fail(error, "ad_differentiate: no place for the result (out is "
                       "a null pointer)");
  absl::StatusOr<autodiff::capi::ToolOptions> parsed =
      autodiff::capi::ParseOptions(options ? options : "",
                                   /*allow_output_format=*/true);
  if (!parsed.ok())
    return Fail(error, std::string(parsed.status().message()));
  std::vector<autodiff::LoweringRequest> requests;
  for (size_t k = 0; k < nitems; ++k) {
    if (!items || !items[k])
      return Fail(error, "ad_differentiate: item " + std::to_string(k) +
                             " is a null pointer");
    absl::StatusOr<autodiff::LoweringRequest> req =
        autodiff::ParseLoweringRequest(items[k]);
    if (!req.ok())
      return Fail(error, std::string(req.status().message()));
    req->replace_defined_target = parsed->pipeline.replace_defined_targets;
    requests.push_back(std::move(*req));
  }
  llvm::LLVMContext ctx;
  CollectedDiagnostics diagnostics;
  diagnostics.Install(ctx);
  std::string why;
  std::unique_ptr<llvm::Module> m = ParseModule(ir, size, ctx, &why);
  if (!m)
    return Fail(error, why);
  absl::Status s = autodiff::RunAutodiffPipeline(*m, requests,
                                                 parsed->pipeline);
  if (!s.ok())
    return Fail(error, std::string(s.message()));
  if (!diagnostics.errors.empty())
    return Fail(error, diagnostics.errors);
  std::string result;
  llvm::raw_string_ostream os(result);
  if (parsed->bitcode)
    llvm::WriteBitcodeToFile(*m, os);
  else
    m->print(os, nullptr);
  os.flush();
  *out = CopyString(result);
  if (!*out)
    return Fail(error, "out of memory for the result");
  if (out_size)
    *out_size = result.size();
  return 1;
}
