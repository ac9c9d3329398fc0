//===- enzyme_bridge/rules/Rules.h - Derivative rules as data --------*- C++ -*-===//
//
// One table entry per instruction, intrinsic and libm function, giving each
// operand's partial derivative as an expression in a small closed language
// (see RuleExpr.h). One emitter turns entries into IR for both modes:
// forward mode sums partial x tangent, reverse mode multiplies each partial
// by the adjoint of the result.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_RULES_H
#define AUTODIFF_ENZYME_BRIDGE_RULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class IRBuilderBase;
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace autodiff {

struct RuleExpr; // RuleExpr.h

/// The derivative rule of one operation.
struct DerivativeRule {
  /// "fmul", "llvm.sin", "sin", "sinf", ...
  std::string name;
  /// One entry per operand (call arguments for calls); null: the operand is
  /// not differentiable (an integer exponent, say) and contributes nothing.
  std::vector<const RuleExpr *> partials;
};

/// The rule for `inst`: a floating-point unary/binary operator (fneg, fadd,
/// fsub, fmul, fdiv, frem), a call to an intrinsic (by intrinsic id, any
/// overload, scalar or vector) or to a libm function (by name, with its `f`
/// variant). nullptr when the table has none.
const DerivativeRule *FindRule(const llvm::Instruction &inst);

/// Looks a rule up by name ("fmul", "llvm.pow", "atan2f").
const DerivativeRule *FindRuleByName(llvm::StringRef name);

/// Whether `m` is GPU device code (NVPTX): math the target's
/// instructions do not compute is called from libdevice there.
bool IsGpuModule(const llvm::Module &m);

/// The rule name of a libdevice function (`__nv_sinf` -> "sinf",
/// `__nv_dadd_rn` -> "fadd", `__nv_rsqrt` -> "__nv_rsqrt"); empty for
/// other names (GpuMath.cpp).
std::string LibdeviceRuleName(llvm::StringRef name);

/// The libm name of a math helper Numba calls (`npy_log2` -> "log2",
/// `numba_gamma` -> "tgamma"); `name` itself for other names.
std::string NumbaMathName(llvm::StringRef name);

/// The rule name of an `llvm.nvvm.*` intrinsic's base name
/// (`llvm.nvvm.sqrt.rn.d` -> "llvm.sqrt"); empty when it has none.
std::string NvvmRuleName(llvm::StringRef name);

/// Whether a GPU computes the Call node function `name` with an instruction.
bool GpuHasNativeMath(llvm::StringRef name);

/// All rules, for table-driven tests and documentation.
llvm::ArrayRef<DerivativeRule> AllRules();

/// Emits d(result)/d(operand `i`) at `b`'s insertion point, given the primal
/// operand values and the primal result (both valid at that point). Returns
/// nullptr when operand `i` has no partial. Declares libm functions it needs
/// in the module of `b`'s insertion block.
llvm::Value *EmitPartial(llvm::IRBuilderBase &b, const DerivativeRule &rule,
                         unsigned i, llvm::ArrayRef<llvm::Value *> operands,
                         llvm::Value *result);

/// Forward mode: emits sum_i partial_i * tangents[i] (a null tangent is a
/// zero tangent and its term is skipped; constant partials 1 and -1 fold).
/// Returns the tangent of the result (zero of the result type when every
/// term vanishes).
llvm::Value *EmitTangent(llvm::IRBuilderBase &b, const DerivativeRule &rule,
                         llvm::ArrayRef<llvm::Value *> operands,
                         llvm::Value *result,
                         llvm::ArrayRef<llvm::Value *> tangents);

/// Reverse mode: for each operand, partial_i * adjoint (null where there is
/// no partial).
llvm::SmallVector<llvm::Value *, 3>
EmitAdjoints(llvm::IRBuilderBase &b, const DerivativeRule &rule,
             llvm::ArrayRef<llvm::Value *> operands, llvm::Value *result,
             llvm::Value *adjoint);

/// Reverse mode, one operand: partial_i * adjoint, with the folds of
/// EmitTangent (a quotient partial q / y becomes (adjoint / y) * q, which
/// shares its division with the other operand's adjoint / y). Null when
/// operand `i` has no partial or the product vanishes.
llvm::Value *EmitScaledPartial(llvm::IRBuilderBase &b,
                               const DerivativeRule &rule, unsigned i,
                               llvm::ArrayRef<llvm::Value *> operands,
                               llvm::Value *result, llvm::Value *adjoint);

/// Evaluates a partial numerically on doubles (operands and result as
/// doubles), for tests against finite differences. Integer operands are
/// passed as doubles holding integers.
double EvaluatePartial(const DerivativeRule &rule, unsigned i,
                       llvm::ArrayRef<double> operands, double result);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_RULES_H
