//===- enzyme_bridge/requests/DerivativeCache.h - One derivative per request -*- C++ -*-===//
//
// Maps requests to generated functions. Get() creates the function's
// declaration at once (so recursive calls find it) and queues its body;
// Drain() generates queued bodies until none is left.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_DERIVATIVECACHE_H
#define AUTODIFF_ENZYME_BRIDGE_DERIVATIVECACHE_H

#include "enzyme_bridge/requests/Request.h"

#include "absl/status/statusor.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/FMF.h"

#include <deque>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class Module;
class raw_ostream;
} // namespace llvm

namespace autodiff {

/// The derivative's signature: per parameter its primal, then `width`
/// shadows when active; returns nothing, the one leaf, or a literal struct
/// of [primal if return_primal] + [`width` tangents if return_tangent].
llvm::FunctionType *ForwardDerivativeType(const DiffRequest &r);

/// Gives `call` the calling convention and the ABI-relevant parameter
/// attributes of `callee` (byval, sret, zeroext, signext, inreg, ...): code
/// generation lowers arguments from the call site, and a convention mismatch
/// is undefined behaviour.
void CopyAbiParamAttrs(llvm::CallBase &call, const llvm::Function &callee);

/// What the program prints when a derivative reaches, through a function
/// pointer, a candidate whose derivative could not be made.
std::string CandidateStopMessage(const std::string &caller,
                                 const std::string &callee,
                                 const std::string &reason);

class DerivativeCache {
public:
  explicit DerivativeCache(llvm::Module &m) : m_(m) {}

  /// The function for `r`, creating its declaration if new.
  absl::StatusOr<llvm::Function *> Get(const DiffRequest &r);
  /// Generates every queued body (which may queue more). A body that fails
  /// does not stop the others; the status holds every distinct problem,
  /// and the cache's functions are then left as (valid) declarations.
  absl::Status Drain();
  /// Records who calls derivative `f`: `speculative` when the only call is
  /// in a dispatch arm of a call through a function pointer (`caller`'s
  /// derivative may never take that arm). A derivative all of whose calls
  /// are speculative and whose body fails gets a body that stops the
  /// program with the reason instead of failing the module.
  void NoteCaller(llvm::Function &f, llvm::Function &caller_derivative,
                  bool speculative, const std::string &caller);
  /// `f` is called by the user's code (a request's derivative).
  void NoteRoot(llvm::Function &f) { roots_.insert(&f); }
  /// "request -> function" per entry, in creation order (for the printer).
  void Print(llvm::raw_ostream &os) const;
  /// Where reverse-mode emitters report what their tape holds and why
  /// (`print<autodiff-tape>`); null for no report.
  void set_tape_log(llvm::raw_ostream *os) { tape_log_ = os; }
  llvm::raw_ostream *tape_log() const { return tape_log_; }
  /// Fast-math flags for the arithmetic emitters add (tangents and
  /// adjoints); the primal's own instructions keep theirs.
  void set_derivative_fmf(llvm::FastMathFlags fmf) { derivative_fmf_ = fmf; }
  llvm::FastMathFlags derivative_fmf() const { return derivative_fmf_; }
  /// Whether loop tapes keep their arrays between calls in pools (atomic
  /// exchanges on globals). Off for derivatives that another request will
  /// differentiate in turn (higher order): plain allocations are what that
  /// outer derivative can differentiate.
  void set_tape_pools(bool on) { tape_pools_ = on; }
  bool tape_pools() const { return tape_pools_; }
  /// Whether reverse mode may log stores and undo them (UndoLog.cpp). Off
  /// for derivatives another request differentiates in turn: the log moves
  /// floating-point bytes as integers, which an outer reverse derivative
  /// cannot differentiate.
  void set_undo_log(bool on) { undo_log_ = on; }
  bool undo_log() const { return undo_log_; }
  /// Whether reverse mode keeps calls to `noinline` functions out of line
  /// (through split derivatives) instead of inlining them. Off for modules
  /// where every function is `noinline` (clang -O0), where the attribute
  /// says nothing about keeping a function out of line, and inlining gives
  /// the derivative the caller's view of the callee's memory.
  void set_respect_noinline(bool on) { respect_noinline_ = on; }
  bool respect_noinline() const { return respect_noinline_; }

private:
  absl::Status EmitBody(const DiffRequest &r, llvm::Function &f);
  /// After `r`'s body failed with `s`: when every derivative it made is
  /// called only speculatively, gives each a body that stops the program
  /// and returns true.
  bool StubSpeculative(const DiffRequest &r, const absl::Status &s);
  /// Whether `f` may be called other than through a dispatch arm: it is a
  /// root, has a caller not recorded, or a non-speculative caller that is.
  bool Needed(llvm::Function *f,
              llvm::SmallPtrSetImpl<llvm::Function *> &seen) const;

  llvm::Module &m_;
  llvm::MapVector<DiffRequest, llvm::Function *> map_;
  /// Derivatives made per function and mode: a bound on requests that
  /// would differ at each depth of a recursion.
  llvm::DenseMap<std::pair<const llvm::Function *, int>, unsigned> variants_;
  std::deque<DiffRequest> pending_;
  /// Per derivative called from other derivatives: each caller, whether
  /// the call is speculative, and the caller's primal name.
  struct CallerEdge {
    llvm::Function *caller;
    bool speculative;
    std::string name;
  };
  llvm::MapVector<llvm::Function *, std::vector<CallerEdge>> callers_;
  llvm::SmallPtrSet<llvm::Function *, 8> roots_;
  llvm::raw_ostream *tape_log_ = nullptr;
  llvm::FastMathFlags derivative_fmf_;
  bool tape_pools_ = true;
  bool undo_log_ = true;
  bool respect_noinline_ = true;
};

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_DERIVATIVECACHE_H
