//===- codegen/RuntimeChecks.h - Run-time checks in targets ----*- C++ -*-===//
//
// Internal to codegen/: the shadow length checks a lowered target performs
// before it calls into `__enzyme_*`.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_CODEGEN_RUNTIMECHECKS_H
#define AUTODIFF_CODEGEN_RUNTIMECHECKS_H

#include "frontend/Abi.h"

#include "absl/status/status.h"
#include "llvm/IR/IRBuilder.h"

#include <string>
#include <vector>

namespace autodiff {

/// Emits `checks` at the builder's position. A failing check calls an
/// internal helper that prints "autodiff: TARGET: WHAT has length N, but
/// the primal has length M" to stderr and aborts; the builder is left in the
/// block where all checks passed. `params` are the target's parameters in
/// plan order; `where` prefixes diagnostics about a malformed plan.
absl::Status EmitLengthChecks(llvm::IRBuilder<> &b,
                              const std::vector<LengthCheck> &checks,
                              const std::vector<llvm::Value *> &params,
                              const std::string &target,
                              const std::string &where);

} // namespace autodiff

#endif // AUTODIFF_CODEGEN_RUNTIMECHECKS_H
