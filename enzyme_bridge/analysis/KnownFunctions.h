//===- enzyme_bridge/analysis/KnownFunctions.h - Functions the core knows -*- C++ -*-=//
//
// Classifies callees the core treats specially: inactive functions (I/O,
// time, assertions, rustc's panics), allocation and deallocation functions,
// and intrinsics that carry no derivative.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_KNOWNFUNCTIONS_H
#define AUTODIFF_ENZYME_BRIDGE_KNOWNFUNCTIONS_H

#include <optional>
#include <string>

#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace autodiff {

/// A call whose arguments and result never carry a derivative: printf,
/// puts, time, assertion failures, rustc's panic functions, intrinsics such
/// as llvm.dbg.* and llvm.lifetime.*, functions with the "enzyme_inactive"
/// attribute or listed in `__enzyme_inactivefn` globals. Its side effects
/// still happen once per primal call.
bool IsInactiveCall(const llvm::CallBase &call);

/// Whether every object `ptr` may point into is a global listed in a
/// `void *__enzyme_inactive_global[] = {&g, ...}` registration: data the
/// user declared inactive (a trace or log buffer). Active values stored
/// there carry no derivative.
bool InInactiveGlobal(const llvm::Value *ptr);

enum class AllocKind {
  None,
  Malloc,  ///< malloc(n), _Znwm(n), __rust_alloc(n, align): size is arg 0.
  AlignedAlloc, ///< aligned_alloc(align, n), posix-style: size is arg 1.
  Calloc,  ///< calloc(n, m), __rust_alloc_zeroed: zeroed.
  Realloc, ///< realloc(p, n).
  RustRealloc, ///< __rust_realloc(p, old_size, align, new_size).
  NumbaMemInfo, ///< NRT_MemInfo_alloc*(size, ...),
                ///< NRT_MemInfo_new_varsize*(size, ...): a MemInfo whose
                ///< field 3 points to `size` bytes of data.
  RefCount,     ///< NRT_incref / NRT_decref(meminfo): mirrored on shadows.
  Free,    ///< free(p), _ZdlPv(p), __rust_dealloc(p, ...): pointer is arg 0.
};

/// The allocation kind of `call`'s callee.
AllocKind ClassifyAllocation(const llvm::CallBase &call);

/// The forward rule registered for `f` with
/// `void *__enzyme_register_derivative_NAME[2] = {f, fwd}`, if any.
llvm::Function *RegisteredForwardRule(const llvm::Function &f);

/// A custom reverse rule: `augment` takes `f`'s arguments, each pointer
/// followed by its shadow, and returns `{ptr tape, f's result}` (the tape
/// alone for a void `f`); `reverse` takes the same, then the differential
/// return when `f` returns a float, then the tape, and returns the
/// gradients of `f`'s floating-point scalar parameters.
struct ReverseRule {
  /// The registration, for messages: a global's name or "metadata".
  std::string source;
  /// Null when the registration does not name a function there.
  llvm::Function *augment = nullptr;
  llvm::Function *reverse = nullptr;
};

/// The reverse rule registered for `f`, with
/// `void *__enzyme_register_gradient_NAME[3] = {f, augment, reverse}` or
/// the `!enzyme_augment` / `!enzyme_gradient` metadata on `f`.
std::optional<ReverseRule> RegisteredReverseRule(const llvm::Function &f);

/// Whether `f` returns (possibly inside an aggregate) memory it allocated,
/// directly or through helpers a few calls deep: Rust's box_new_uninit and
/// similar allocation wrappers.
bool ReturnsFreshMemory(const llvm::Function &f);

/// The called function when the callee is a function behind casts, else null.
llvm::Function *CalledFunction(const llvm::CallBase &call);

/// Whether no call of `f`, as its body in this module reads, can end in an
/// exception: no `resume`, and every call that is not `nounwind` goes to a
/// function of the module that cannot unwind either (recursion included).
/// Judged on the body, not on attributes, so a `linkonce_odr` template
/// (std::sort's recursive helpers, whose attributes LLVM may not infer)
/// qualifies; the derivatives built from this body run this body's code.
bool CannotUnwind(const llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_KNOWNFUNCTIONS_H
