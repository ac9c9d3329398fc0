//===- enzyme_bridge/rules/BlasRules.h - Built-in BLAS reverse rules -*- C++ -*-===//
//
// Rules the core provides for BLAS dot products, in both modes, so that code
// calling them differentiates without a user rule: `cblas_ddot` /
// `cblas_sdot`, the Fortran `ddot_` / `sdot_`, Numba's helper
// `numba_xxdot(kind, conj, n, x, y, out)` that `np.dot` of two vectors
// lowers to, its matrix-vector helper `numba_xxgemv` (`A @ x`) and its
// matrix-matrix helper `numba_xxgemm` (`A @ B`; kinds 's' and 'd'; 'c' and
// 'z' stop the program with a message), `cblas_dgemm`/`sgemm`,
// `cblas_dgemv`/`sgemv`, and
// axpy, scal and nrm2 (cblas and Fortran), Fortran's `dgemm_`/`sgemm_`. They are synthesized in the module in the custom-rule
// convention (KnownFunctions.h, ReverseRule) and called like a user's
// rule; a rule the user registers for the same function takes precedence.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_RULES_BLASRULES_H
#define AUTODIFF_ENZYME_BRIDGE_RULES_BLASRULES_H

#include "enzyme_bridge/analysis/KnownFunctions.h"

#include <optional>
#include <string>

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace autodiff {

/// Whether the core has a built-in reverse rule for `f` (by name and
/// signature).
bool HasBuiltinReverseRule(const llvm::Function &f);

/// The built-in reverse rule for `f`, its functions made in `f`'s module
/// on first use; nullopt when there is none.
std::optional<ReverseRule> BuiltinReverseRule(llvm::Function &f);

/// The built-in forward rule for `f` in the registered-derivative
/// convention (each pointer followed by its tangent; returns {primal,
/// tangent}), made in `f`'s module on first use; null when there is none.
llvm::Function *BuiltinForwardRule(llvm::Function &f);

/// What the built-in rule of `f` cannot differentiate at `call`, known at
/// compile time (one of Numba's helpers called with a constant complex
/// kind), as a diagnostic's text; empty when nothing is known.
std::string BuiltinRuleLimitation(const llvm::CallBase &call,
                                  const llvm::Function &f);

/// Whether BLAS function `f` only reads through its parameter `arg` (the
/// dot products' inputs; Numba's helper writes only its result pointer).
bool BlasParamReadOnly(const llvm::Function &f, unsigned arg);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_RULES_BLASRULES_H
