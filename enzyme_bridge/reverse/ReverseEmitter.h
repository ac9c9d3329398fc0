//===- enzyme_bridge/reverse/ReverseEmitter.h - Reverse-mode internals -*- C++ -*-===//
//
// Internal to the core. The emitter works on a copy of the primal that is
// first prepared (ReverseMode.cpp: calls to module functions inlined,
// locals promoted, loops in simplified and LCSSA form). Then:
//  - ReverseShadows.cpp adds the shadows of pointers to the forward sweep;
//  - ReverseTape.cpp gives each loop an iteration counter and decides, for
//    each primal value the reverse sweep needs, whether to recompute it
//    there (scalar evolution, cheap pure instructions, loads of memory no
//    later write changes: ReverseReloads.cpp) or to cache it
//    (a stack slot outside loops, a growable array indexed by the loop's
//    iteration inside them);
//  - ReverseControl.cpp builds one reverse block per primal block and the
//    edges between them (branch decisions, loops counted down);
//  - ReverseAdjoints.cpp gives each instruction its adjoint code.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REVERSE_REVERSEEMITTER_H
#define AUTODIFF_ENZYME_BRIDGE_REVERSE_REVERSEEMITTER_H

#include "enzyme_bridge/analysis/ActivityAnalysis.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/ClonePrimal.h"
#include "enzyme_bridge/requests/Request.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstVisitor.h"

#include <memory>
#include <optional>

namespace llvm {
class SCEVExpander;
} // namespace llvm

namespace autodiff {

class DerivativeCache;

/// Whether `t` holds floating-point data (a scalar, vector or aggregate
/// with a floating-point leaf): the types that have adjoints.
bool HoldsFloat(llvm::Type *t);

/// libm's sincos / sincosf or libdevice's __nv_sincos / __nv_sincosf.
bool IsSincos(const llvm::Function &f);

/// Defines `void __autodiff_release_tapes(void)` and the list of tape pools
/// it empties in `m`, once (ReverseTapeArrays.cpp): every module with a
/// reverse-mode derivative has them, so a program may call it.
void DefineTapeRelease(llvm::Module &m);

/// Names `f`'s unnamed blocks and values for the tape report.
void NameForReport(llvm::Function &f);

/// GPU device code: the elements each tape array of a loop holds in the
/// thread's local memory before it moves to the heap (device malloc is
/// slow and contended).
inline constexpr uint64_t kLocalTapeElements = 64;
/// What lets the reverse sweep run one loop's iterations backwards and
/// index the caches of values computed inside it.
struct LoopTape {
  llvm::Loop *loop = nullptr;
  llvm::BasicBlock *preheader = nullptr;
  llvm::BasicBlock *header = nullptr;
  llvm::BasicBlock *latch = nullptr;
  /// Forward: 0, 1, 2, ... per execution of the header in one entry.
  llvm::PHINode *counter = nullptr;
  /// Forward, in the preheader: iterations of this loop before this entry.
  llvm::Value *forward_base = nullptr;
  /// Forward, in the header: the iteration's index in the caches.
  llvm::Value *flat_index = nullptr;
  /// Header executions so far: counted up by the forward sweep at each
  /// exit, down by the reverse sweep at each loop entry.
  llvm::AllocaInst *total = nullptr;
  /// Reverse: the current iteration within this entry, and the cache index
  /// of this entry's iteration 0.
  llvm::AllocaInst *reverse_counter = nullptr;
  llvm::AllocaInst *reverse_base = nullptr;
  /// Elements allocated in each cache of this loop.
  llvm::AllocaInst *capacity = nullptr;
  /// Per cache of this loop: the slot holding its array, and the element.
  llvm::SmallVector<std::pair<llvm::AllocaInst *, llvm::Type *>, 4> caches;
  /// The backedge-taken count when scalar evolution can compute it at the
  /// preheader (caches are then reserved once per entry).
  const llvm::SCEV *backedge_count = nullptr;
  /// With a backedge count: the outermost loop whose iterations still to
  /// come the first entry reserves for (this one, or an enclosing one whose
  /// iterations all run it the same number of times).
  llvm::Loop *reserved_before = nullptr;
  /// Per exit block: the number of iterations when leaving through it.
  llvm::MapVector<llvm::BasicBlock *, llvm::PHINode *> exit_trip_counts;
};

/// Where a combined derivative's forward sweep ends: a primal return's
/// branch to the reverse sweep, and the value it returned (null for void).
struct SplitPoint {
  llvm::BranchInst *branch = nullptr;
  llvm::Value *result = nullptr;
  /// The result's shadow, for an active pointer result.
  llvm::Value *shadow = nullptr;
};

/// The functions of `m` a call through a pointer of type `type` may reach
/// (ReverseIndirectCalls.cpp).
llvm::SmallVector<llvm::Function *, 4> Candidates(llvm::Module &m,
                                                  llvm::FunctionType *type);

/// The candidates of `call` through a function pointer: those of its type,
/// narrowed to what its vtable slot may hold when it is a virtual call
/// (ReverseIndirectCalls.cpp).
llvm::SmallVector<llvm::Function *, 4> CallCandidates(const llvm::CallBase &call);

/// Candidates of calls through function pointers whose derivative could
/// not be made (each with the reason): their arms of a dispatch stop the
/// program with that reason instead (RunExcludingFailedCandidates).
using ExcludedCandidates = llvm::MapVector<llvm::Function *, std::string>;

/// Runs `attempt` (which builds `out`'s body with the exclusions given);
/// when it fails at an instruction inlined from a candidate of a dispatch
/// (ReverseIndirectCalls.cpp), empties `out` and tries again with that
/// candidate excluded: a function whose address is taken for another use
/// (a finite-difference wrapper of the same type, say) does not stop the
/// derivative of code that never calls it.
absl::Status RunExcludingFailedCandidates(
    llvm::Function &out,
    llvm::function_ref<absl::Status(const ExcludedCandidates &)> attempt);

/// Metadata kind marking the zeroed global that stands for the shadow of
/// constant memory (ReverseEmitter::ConstantMemorySink).
inline constexpr const char *kConstantSinkMetadata = "autodiff.constant_sink";

/// On a shufflevector of the differentiated body: the lanes whose mask
/// element was poison in the primal (given a defined lane before
/// differentiation); the reverse sweep drops their adjoints.
inline constexpr const char *kDeadLanesMetadata = "autodiff.dead_lanes";

/// Per lane of `sv`'s result, whether kDeadLanesMetadata names it dead
/// (DiscardedValues.cpp).
llvm::SmallVector<bool, 16> DeadShuffleLanes(const llvm::ShuffleVectorInst &sv);

/// Whether `v` makes the write-only arena that absorbs adjoints of
/// constant arguments and inactive pointers (`__autodiff_sink_shadow`).
bool IsSinkArena(const llvm::Value *v);
/// Whether `v` is the zeroed global that stands for the shadow of a
/// constant global (a vtable, a table of constants): only zeros are read
/// from it.
bool IsConstantMemorySink(const llvm::Value *v);
/// Either: a shadow that only absorbs adjoints. Pointers loaded through
/// it are null.
bool IsSinkShadow(const llvm::Value *v);

class ReverseEmitter : public llvm::InstVisitor<ReverseEmitter, absl::Status> {
public:
  /// `split`: the derivative will be cut into an augmented forward sweep and
  /// a reverse sweep run later (ReverseSplit.cpp), after the caller may have
  /// written memory: loads of memory the function does not own are cached,
  /// and no store is undone.
  ReverseEmitter(const DiffRequest &r, llvm::Function &out,
                 DerivativeCache &cache, bool split = false);
  ~ReverseEmitter();

  absl::Status Run();
  llvm::ArrayRef<SplitPoint> split_points() const { return split_points_; }
  /// The derivative is the lane body of a vector reverse derivative
  /// (ReverseWidth.cpp), which cannot call the width-1 split derivatives
  /// of callees: `noinline` callees are inlined too (recursive ones stay
  /// calls, and the widening refuses them).
  void InlineNoinlineCallees() { inline_noinline_ = true; }
  /// The derivative in the cache this emission makes (for a split
  /// derivative its augmented half, for a vector one the wide function).
  void SetOwner(llvm::Function &f) { owner_ = &f; }
  /// Candidates of calls through pointers whose arms stop the program.
  void ExcludeCandidates(const ExcludedCandidates &c) { excluded_ = &c; }

  // Adjoints of instructions (ReverseAdjoints.cpp), emitted at `rb_` in the
  // reverse block of the instruction's block.
  absl::Status visitInstruction(llvm::Instruction &i);
  absl::Status visitBinaryOperator(llvm::BinaryOperator &i);
  absl::Status visitUnaryOperator(llvm::UnaryOperator &i);
  absl::Status visitCastInst(llvm::CastInst &i);
  absl::Status visitSelectInst(llvm::SelectInst &i);
  absl::Status visitLoadInst(llvm::LoadInst &i);
  absl::Status visitStoreInst(llvm::StoreInst &i);
  absl::Status visitExtractValueInst(llvm::ExtractValueInst &i);
  absl::Status visitInsertValueInst(llvm::InsertValueInst &i);
  absl::Status visitExtractElementInst(llvm::ExtractElementInst &i);
  absl::Status visitInsertElementInst(llvm::InsertElementInst &i);
  absl::Status visitShuffleVectorInst(llvm::ShuffleVectorInst &i);
  absl::Status visitCallBase(llvm::CallBase &call);
  /// The call returns or receives active data: a float with a derivative,
  /// or a pointer with a shadow.
  bool TouchesActiveData(llvm::CallBase &call);
  absl::Status visitFreezeInst(llvm::FreezeInst &i);
  /// `atomicrmw fadd/fsub` whose old value is unused (CUDA's atomicAdd).
  absl::Status visitAtomicRMWInst(llvm::AtomicRMWInst &i);

private:
  friend class ShadowBuilder;

  /// A call kept as a call whose forward sweep calls an augmented function
  /// (the callee's split derivative, or a registered reverse rule's
  /// `augment`): what the reverse sweep needs to call its reverse half.
  struct AugmentedCall {
    DiffRequest request;
    /// Set for a registered rule.
    std::optional<ReverseRule> rule;
    /// Per argument: the shadow passed after it, or null.
    llvm::SmallVector<llvm::Value *, 8> shadows;
    llvm::Instruction *tape = nullptr;
    llvm::Value *result = nullptr;
  };

  // Preparation (ReverseMode.cpp).
  absl::Status Prepare();
  void PrepareBody();
  /// The activity of `out_` (and, on a GPU, its thread-private accesses).
  void ComputeActivity();
  /// Replaces each call through a function pointer that touches active
  /// data by a dispatch over the module's candidate callees; whether any
  /// was replaced (ReverseIndirectCalls.cpp).
  bool DispatchIndirectCalls();
  /// Marks the blocks of each dispatch arm (the candidate's inlined body)
  /// with the candidate, and removes the marks (TagDispatchArms(false)).
  void TagDispatchArms(bool tag);
  /// The candidate whose dispatch arm `i` is in (null outside arms).
  llvm::Function *DispatchArmCandidate(const llvm::Instruction &i) const;
  /// Tells the cache whether `derivative` of `call`'s callee is called
  /// only from a dispatch arm (DerivativeCache::NoteCaller).
  void NoteModuleCallCaller(llvm::CallBase &call, llvm::Function &derivative);
  void InlineModuleCalls();
  void SimplifyLoops();
  void ComputeAnalyses();

  // Shadows of pointers in the forward sweep (ReverseShadows.cpp).
  /// The shadow of a pointer into constant memory of unknown extent (a
  /// constant argument kept beside active data): the sink arena.
  llvm::Value *SinkShadow();
  /// The shadow of `p` where pointers are joined (phi, select): the known
  /// one, or the sink for a pointer into a constant argument's memory.
  llvm::Value *JoinedShadow(llvm::Value *p);
  /// Whether `p` points into the memory of a pointer argument that has no
  /// shadow (passed as constant): the caller wants no adjoint for it.
  bool InConstantArgument(llvm::Value *p);
  /// Whether JoinedShadow(p) is (or would be) a sink (IsSinkShadow), without
  /// making the sink arena.
  bool SinkOnly(llvm::Value *p);
  /// The shadow of an inactive part of an aggregate or vector: the sink
  /// for a pointer, null otherwise.
  llvm::Value *InactivePartShadow(llvm::Type *t);
  /// Stops the program with a message if `shadow` is in the sink arena
  /// (active data stored into memory declared constant).
  void CheckNotSink(llvm::Value *shadow);
  /// The shadow of constant memory (a zeroed global that drops adjoints),
  /// or null if `v` is not constant memory.
  llvm::Value *ConstantMemorySink(llvm::Value *v);
  absl::Status BuildShadows();
  /// The shadow of `v` made so far; null, undef and zero are their own.
  llvm::Value *KnownShadow(llvm::Value *v);
  absl::Status ShadowStore(llvm::StoreInst &store);
  bool MovePointerBits(llvm::StoreInst &store);
  /// The shadow's address for an address computed on integers (ptrtoint,
  /// then adds, subtracts and ors of offsets); null if it is not one.
  llvm::Value *ShadowAddress(llvm::Value *v);
  llvm::Value *
  ShadowAddress(llvm::Value *v,
                llvm::DenseMap<llvm::Value *, llvm::Value *> &made);
  llvm::Value *ShadowAddressInSlot(llvm::LoadInst &load);
  absl::Status ShadowMemTransfer(llvm::MemTransferInst &mt);
  /// realloc and __rust_realloc: a new zeroed shadow holding the old one's
  /// contents up to the smaller size; the old shadow is kept.
  absl::Status ShadowRealloc(llvm::CallBase &call, bool rust);
  /// The byte size of the allocation `p` starts, computed before `at`;
  /// null when it does not come from an allocation of the function.
  llvm::Value *AllocatedSize(llvm::Value *p, llvm::Instruction *at);
  /// insertvalue, extractvalue and whole loads of aggregates with pointers.
  void ShadowAggregate(llvm::Instruction &i);
  /// Pointer-valued instructions; `receiver`: a stack slot that receives
  /// active values.
  absl::Status ShadowPointer(llvm::Instruction &i, bool receiver);

  // Tape (ReverseTape.cpp).
  void CreateLoopTapes();
  /// The primal (forward-sweep) value `v` at `rb_`: recomputed or loaded
  /// from its cache.
  llvm::Value *Lookup(llvm::Value *v);
  /// The shadow of pointer `p` at `rb_`; null when it has none.
  llvm::Value *LookupShadow(llvm::Value *p);
  llvm::Value *Recompute(llvm::Instruction &i, unsigned depth);
  llvm::Value *RecomputeSCEV(const llvm::SCEV *s, llvm::Type *ty,
                             unsigned depth);
  /// Cheap pure instructions, and libdevice math in GPU device code.
  bool Recomputable(const llvm::Instruction &i) const;
  bool CanRecompute(llvm::Value *v, unsigned depth);
  /// Whether `i` (not recomputable from values at hand) is better computed
  /// again from at most one value not cached yet, such as the loop-carried
  /// phi at the start of a chain of arithmetic, than cached itself.
  bool RecomputeFromOneCache(llvm::Instruction &i);
  bool NeededByAdjoints(llvm::Instruction &v);
  bool CanRecomputeSCEV(const llvm::SCEV *s, unsigned depth);
  /// A loop-carried phi holding a load of an earlier iteration, read again
  /// there (CarriedLoads.cpp); `links`: phis followed so far.
  bool CanRecomputeCarried(llvm::PHINode &p, unsigned links, unsigned depth);
  llvm::Value *RecomputeCarried(llvm::PHINode &p, unsigned links);
  /// A phi of values made on different paths into its block, loads among
  /// them, read again on the path the forward sweep took.
  bool Speculatable(llvm::Value *v, llvm::BasicBlock &join, unsigned depth);
  llvm::Value *Speculate(llvm::Value *v, llvm::BasicBlock &join);
  bool GuardedIncoming(llvm::Value *v, llvm::BasicBlock &join, unsigned depth);
  bool CanRecomputeGuarded(llvm::PHINode &p, unsigned depth);
  llvm::Value *RecomputeGuarded(llvm::PHINode &p);
  llvm::Value *LoadFromCache(llvm::Instruction &i);
  llvm::Align TapeAlign(llvm::Type *t) const;
  /// The cache index of the current reverse iteration of `l`.
  llvm::Value *ReverseIndex(LoopTape &t);
  void FinishTapes();
  /// The arrays of loop tapes, and the pool that keeps them between calls
  /// (ReverseTapeArrays.cpp).
  llvm::GlobalVariable *TapePool(unsigned number);
  llvm::Function *ReserveFunction(LoopTape &t, unsigned number,
                                  llvm::GlobalVariable *pool);
  llvm::Function *ReleaseFunction(LoopTape &t, unsigned number,
                                  llvm::GlobalVariable *pool);
  /// GPU device code: `t`'s arrays start in the thread's local memory.
  void UseLocalTapeBuffers(LoopTape &t);
  /// `t`'s loop and the enclosing loops, innermost first, each of whose
  /// iterations runs the one inside it the same number of times (trip
  /// counts known at `t`'s entry): its first entry reserves for them all.
  llvm::SmallVector<llvm::Loop *, 4> HoistedReserveNest(LoopTape &t);
  llvm::Value *IterationsToCome(LoopTape &t, llvm::ArrayRef<llvm::Loop *> nest);
  bool InContext(const llvm::Loop *l) const;

  // Loads executed again by the reverse sweep (ReverseReloads.cpp).
  void FindReloadableLoads();
  /// Frees moved to the reverse sweep (see ReverseReloads.cpp): found before
  /// the loads, emitted at the allocation's adjoint, erased from the
  /// forward sweep at the end.
  void FindDeferredFrees();
  // Shadow lifetimes of heap allocations (ShadowLifetimes.cpp).
  enum class ShadowLife { Released, Outlives, AtRunTime };
  ShadowLife ShadowLifeOf(llvm::CallBase &alloc);
  bool MayRelease(llvm::CallBase &site, llvm::CallBase &alloc);
  void PlanShadowLifetimes();
  void RecordRelease(llvm::CallBase &site);
  bool FreesCallerMemory(llvm::CallBase &site);
  bool FreesArgumentMemory(llvm::CallBase &site);
  bool ReleasesLoadedPointer(llvm::CallBase &site);
  bool FreesReturnedMemory(llvm::CallBase &site);
  bool IsFreshMemoryCall(const llvm::CallBase &call);
  void ReleaseRecordedShadows();
  /// Stores undone by the reverse sweep (see ReverseReloads.cpp): the
  /// forward sweep keeps the overwritten value, the store's adjoint puts
  /// it back, the end of the reverse sweep writes the stored value again.
  void LogOverwrite(llvm::StoreInst &store);
  void UndoStore(llvm::StoreInst &store);
  void RedoStores();
  // The undo log (UndoLog.cpp): stores in loops, or followed by other
  // writes of their memory, undone in the reverse sweep through one log.
  /// Whether this derivative may log stores (not split, not GPU code).
  bool CanLogStores() const;
  /// Among the loads in `pending` (each with the undoable or `loggable`
  /// stores that may change it), those whose stores are not worth logging
  /// get cached; the others' loggable stores are logged.
  void ChooseLoggedStores(
      llvm::MapVector<llvm::Instruction *,
                      llvm::SmallVector<llvm::Instruction *, 2>> &pending,
      const llvm::SmallPtrSetImpl<llvm::Instruction *> &loggable);
  /// Whether the reverse sweep may need the value `r` loaded.
  bool ValueMayBeNeeded(llvm::Instruction &r);
  void CreateUndoLog();
  /// Whether every logged store inside `a` runs a number of times known at
  /// `a`'s entry (trip counts up to `a` known there, unchanged inside).
  bool BoundedLogLoop(llvm::Loop *a, llvm::SCEVExpander &checker);
  /// `m`'s backedge count when it is known at the entry of `a` (around
  /// it) and every iteration of the loops between runs `m`; else null.
  const llvm::SCEV *TripBound(llvm::Loop *m, llvm::Loop *a,
                              llvm::SCEVExpander &checker);
  /// Reserves the log's room at the entry of the outermost such loops
  /// (each push also checks its room).
  void ReserveUndoLog(llvm::Function *reserve);
  void EmitUndoLogPushes();
  void UndoLoggedStore(llvm::StoreInst &store);
  void MarkUndoLogEnd();
  void ReplayUndoLog();
  // Stores executed again by the reverse sweep (RefilledStores.cpp).
  /// Stores among `writes` the reverse sweep may execute again at the
  /// start of each reverse iteration of their loop.
  llvm::SmallPtrSet<llvm::Instruction *, 4>
  FindRefillableStores(llvm::ArrayRef<llvm::Instruction *> writes);
  /// Whether load `r`, whose later writes are the refillable `stores`,
  /// reads what they wrote in the same iteration of their loop.
  bool ReadsRefilledMemory(llvm::Instruction &r,
                           llvm::ArrayRef<llvm::Instruction *> stores);
  void RecordRefills(llvm::Instruction &r,
                     llvm::ArrayRef<llvm::Instruction *> stores);
  /// Drops the refills of loops whose refilled values read a load read
  /// again only because later stores are undone: their loads are cached.
  void DropRefillsReadingRestored();
  /// Whether store `w` into shared memory cannot change what `r` reads
  /// through pointer arguments, given the entry's check that they do not
  /// point into those arrays (the pairs to check are added to `checks`).
  bool SharedStoreSpares(
      llvm::Instruction &r, llvm::Instruction &w,
      llvm::SmallVectorImpl<std::pair<llvm::Argument *, llvm::GlobalVariable *>>
          &checks);
  /// At the start of the reverse block of `latch`: its loop's refills.
  void EmitRefills(llvm::BasicBlock &latch);
  void EmitSharedArgumentChecks();
  void EmitDeferredFree(llvm::CallBase &alloc);
  void EraseDeferredFrees();
  /// Whether `i` is a load whose memory no later write of the primal can
  /// change.
  bool Reloadable(const llvm::Instruction &i) const;

  // Calls kept as calls (ReverseModuleCalls.cpp).
  /// Marks calls to module functions that write no memory their caller
  /// sees as read-only (on the copy's call sites).
  void MarkReadOnlyModuleCalls();
  /// Whether `call` is a call to a function of the module, left after
  /// inlining, that touches active data: it goes through the callee's
  /// split derivative.
  bool StaysModuleCall(llvm::CallBase &call);
  /// The split derivative `call` needs (mode Augmented).
  void AddArgumentTypes(llvm::CallBase &call, DiffRequest &r);
  absl::StatusOr<DiffRequest> ModuleCallRequest(llvm::CallBase &call,
                                                llvm::Function &callee);
  /// Forward sweep: calls the augmented half before `call`.
  absl::Status AugmentModuleCall(llvm::CallBase &call);
  /// Reverse sweep: calls the reverse half with the tape.
  absl::Status VisitModuleCall(llvm::CallBase &call, llvm::Function &callee);
  /// The reverse half's leading arguments: the primal arguments, each
  /// followed by the shadow the augmented call got.
  llvm::SmallVector<llvm::Value *, 8> ReverseCallArgs(llvm::CallBase &call,
                                                      const AugmentedCall &info);
  llvm::Value *LookupTape(const AugmentedCall &info);
  // Registered reverse rules (ReverseRuleCalls.cpp).
  absl::Status CheckReverseRule(llvm::CallBase &call, llvm::Function &fn,
                                const ReverseRule &rule);
  absl::Status AugmentRuleCall(llvm::CallBase &call, llvm::Function &fn,
                               const ReverseRule &rule);
  absl::Status ReverseRuleCall(llvm::CallBase &call, AugmentedCall &info);
  /// At the end: the augmented calls' results replace the primal calls.
  void ReplaceAugmentedCalls();

  // What the tape holds and why (ReverseTapeReport.cpp).
  void PrintTape(llvm::raw_ostream &os);
  std::string CacheReason(llvm::Instruction &i);
  void RecordCache(llvm::Instruction &i);

  // Control flow (ReverseControl.cpp).
  absl::Status BuildReverseBlocks();
  absl::Status EmitReverseBlock(llvm::BasicBlock &bb);
  /// Starts a region of reverse code in `block` standing for primal `ctx`.
  void BeginRegion(llvm::BasicBlock *block, llvm::BasicBlock *ctx);
  /// The edge from rev(bb) to rev(pred): phi adjoints, loop entries.
  llvm::BasicBlock *ReverseEdge(llvm::BasicBlock &bb, llvm::BasicBlock &pred,
                                llvm::ArrayRef<llvm::PHINode *> phis,
                                llvm::ArrayRef<llvm::Value *> phi_adjoints);
  void EnterLoopBackwards(LoopTape &t, llvm::BasicBlock &exit);
  llvm::Value *ComeFrom(llvm::BasicBlock &bb);
  /// Which of `preds` (as ComeFrom numbers them) the forward sweep entered
  /// `bb` from, at `rb_`: from a branch condition computed again, or cached.
  llvm::Value *RecoverComeFrom(llvm::BasicBlock &bb,
                               llvm::ArrayRef<llvm::BasicBlock *> preds);
  absl::Status CheckTerminator(llvm::Instruction &term);
  absl::Status RewriteReturns();
  void EmitFinalReturn();

  // Adjoints (ReverseAdjoints.cpp).
  /// The accumulator of `v`'s adjoint; null when `v` has none (inactive,
  /// constant, or not floating-point).
  llvm::AllocaInst *AdjointSlot(llvm::Value *v);
  bool HasAdjoint(llvm::Value *v);
  void AddAdjoint(llvm::Value *v, llvm::Value *adjoint);
  /// Reads and clears the adjoint of `v` (zero when none was added).
  llvm::Value *TakeAdjoint(llvm::Value *v);
  llvm::Value *AddValues(llvm::Value *a, llvm::Value *b);
  /// How an adjoint is added into shadow memory: plainly, with atomic
  /// adds (other GPU threads may add there too), or plainly only when the
  /// launch (`...Block`: the block, for shared memory) is one-dimensional
  /// (a thread-private access, GpuKernels.h).
  enum class Accumulation {
    Plain,
    Atomic,
    AtomicUnlessOneDimensional,
    AtomicUnlessOneDimensionalBlock
  };
  /// *shadow += adjoint, leaf by leaf.
  void AccumulateInto(llvm::Value *shadow, llvm::Value *adjoint,
                      llvm::Align align,
                      Accumulation how = Accumulation::Plain);
  /// A floating-point scalar or fixed vector, with atomic adds
  /// (ReverseParallel.cpp).
  void AtomicAccumulate(llvm::Value *shadow, llvm::Value *adjoint,
                        llvm::Align align);

  // GPU kernels (ReverseParallel.cpp).
  /// How the adjoint of `access` (through primal pointer `ptr`) is added.
  Accumulation AccumulationFor(const llvm::Instruction &access,
                               const llvm::Value *ptr) const;
  /// Zeroes, at the entry, the shared-memory shadows the function uses.
  void ZeroSharedShadows();
  absl::Status MirrorBarrier(llvm::CallBase &call);
  absl::Status ApplyRule(llvm::Instruction &i);
  void FindDiscardable();
  void FindMaybeNonFinite();
  bool NeedsStrongZero(const llvm::Instruction &i);
  absl::Status VisitAllocationCall(llvm::CallBase &call, int kind);
  absl::Status VisitMemoryIntrinsic(llvm::CallBase &call);
  /// The adjoint of copying `len` bytes from `primal_src` to `primal_dst`
  /// (shadows `src`, `dst`), by what the memory holds: `src' += dst'`,
  /// `dst' = 0`; a diagnostic at `call` for memory of unknown type.
  absl::Status EmitTransferAdjoint(llvm::Instruction &call,
                                   llvm::Value *primal_dst,
                                   llvm::Value *primal_src, llvm::Value *dst,
                                   llvm::Value *src, llvm::Value *len,
                                   bool may_overlap,
                                   llvm::ConstantInt *fixed_bytes);
  /// The adjoint of a struct copy: float fields move from `dst`'s shadow
  /// to `src`'s.
  /// What a memory copy moves, as one description for both sweeps: the
  /// facts of its two sides within the bytes it copies, with the gaps a
  /// record type declares filled for a fixed-size copy.
  MemoryTypes CopiedTypes(llvm::Value *primal_dst, llvm::Value *primal_src,
                          llvm::ConstantInt *fixed_bytes);
  /// Calls `helper(dst_shadow, src_shadow, bytes)`, through a temporary
  /// copy of the destination's adjoints when the two may overlap.
  void EmitCopyAdjointCall(llvm::Function *helper, llvm::Value *dst,
                           llvm::Value *src, llvm::Value *len,
                           bool may_overlap);
  void EmitFieldCopyAdjoint(llvm::Value *dst, llvm::Value *src,
                            llvm::ArrayRef<CopiedField> fields);
  /// sincos / sincosf and libdevice's __nv_sincos (ReverseCalls.cpp).
  absl::Status VisitSincos(llvm::CallBase &call);
  /// Vector reductions (fadd, fmax, fmin, fmaximum, fminimum); false for
  /// other intrinsics.
  bool VisitReduction(llvm::IntrinsicInst &call);
  absl::Status VisitMaskedAccess(llvm::IntrinsicInst &call);
  /// C99 complex helpers (__muldc3, __divdc3, cexp, ...): false when
  /// `name` is none of them (ReverseComplexCalls.cpp).
  bool VisitComplexCall(llvm::CallBase &call, llvm::StringRef name);
  bool VisitPackedComplexReal(llvm::CallBase &call, llvm::StringRef name);
  /// lgamma, tgamma, frexp, modf and the llvm.modf/frexp/sincos
  /// intrinsics: false for other calls (ReverseSpecialMath.cpp).
  bool VisitSpecialMath(llvm::CallBase &call);
  /// x86 SIMD intrinsics of hand-written `_mm*` code (linear ones, blends,
  /// max/min): false for others (ReverseSpecialMath.cpp).
  bool VisitX86Intrinsic(llvm::CallBase &call);
  absl::Status CheckCopyIntoUnshadowed(llvm::MemIntrinsic &mi);
  absl::Status IntegerOverFloats(llvm::Instruction &i, llvm::Value *ptr,
                                 llvm::Type *ty);
  absl::Status CheckFloatPlacement(llvm::Instruction &access);
  void ClearReusedSlot(llvm::StoreInst &st);
  void ClearSlotForFloat(llvm::StoreInst &store);
  void MirrorAddressStore(llvm::StoreInst &store);
  bool MemoryMayHold(llvm::Value *ptr, llvm::Type *t, BaseType::Kind kind);
  absl::Status FillAddressPhis(
      llvm::ArrayRef<std::pair<llvm::PHINode *, llvm::PHINode *>> phis);
  absl::Status CheckNoFloatBits(llvm::Instruction &i, llvm::Value *ptr,
                                llvm::Type *ty);
  /// The analysis without integer copies' own types (strict_types_).
  const TypeInfo &StrictTypes();
  /// Whether, by StrictTypes, every byte of the `size` bytes at `ptr` is an
  /// integer.
  bool StrictlyInteger(const llvm::Value *ptr, int64_t size);
  bool Active(const llvm::Value *v) const { return activity_->IsActive(v); }
  absl::Status Unsupported(llvm::Instruction &i, const std::string &what);

  const DiffRequest &req_;
  llvm::Function &out_;
  DerivativeCache &cache_;
  const bool split_;
  bool inline_noinline_ = false;
  const ExcludedCandidates *excluded_ = nullptr;
  llvm::Function *owner_ = nullptr;
  /// Each dispatch arm made: its first block and its candidate.
  llvm::SmallVector<std::pair<llvm::WeakVH, llvm::Function *>, 4>
      dispatch_arms_;
  llvm::SmallVector<SplitPoint, 2> split_points_;
  /// Split mode: loads of memory the caller may write before the reverse
  /// sweep (cached for that reason).
  llvm::SmallPtrSet<const llvm::Instruction *, 8> caller_memory_loads_;
  ClonedPrimal cloned_;
  /// The arguments a run-time overlap check chooses the body's copy by
  /// (DisjointArguments.cpp); none if the body was not versioned.
  llvm::SmallVector<llvm::Argument *, 4> versioned_on_;
  bool active_return_ = false;
  /// GPU device code: accesses whose shadow only this thread touches.
  bool gpu_ = false;
  llvm::SmallPtrSet<const llvm::Instruction *, 16> thread_private_;

  // Analyses of the prepared copy, before the emitter adds to it.
  std::unique_ptr<llvm::DominatorTree> dt_;
  std::unique_ptr<llvm::LoopInfo> li_;
  std::unique_ptr<llvm::TargetLibraryInfoImpl> tlii_;
  std::unique_ptr<llvm::TargetLibraryInfo> tli_;
  std::unique_ptr<llvm::AssumptionCache> ac_;
  std::unique_ptr<llvm::ScalarEvolution> se_;
  std::optional<ActivityInfo> activity_;
  /// Primal blocks in reverse post-order, and the loop of each.
  llvm::SmallVector<llvm::BasicBlock *, 32> blocks_;
  llvm::DenseMap<llvm::BasicBlock *, llvm::Loop *> loop_of_;
  /// Each block's primal instructions, before the emitter adds its own.
  llvm::DenseMap<llvm::BasicBlock *, std::vector<llvm::Instruction *>>
      primal_insts_;
  /// Values whose adjoint may be zero because the primal discarded them
  /// (FindDiscardable), computed on first need.
  std::optional<llvm::DenseSet<const llvm::Value *>> discardable_;
  /// Values that may hold a NaN or infinity the function computed
  /// (FindMaybeNonFinite), with discardable_.
  std::optional<llvm::DenseSet<const llvm::Value *>> maybe_non_finite_;
  /// Computed on first need (memory copies, integer accesses).
  std::optional<TypeInfo> types_;
  /// The same without typing integer copies by their own type: whether
  /// an integer copy's memory is known to hold integers (CheckNoFloatBits).
  std::optional<TypeInfo> strict_types_;
  /// The callees' own type analyses (AddArgumentTypes).
  TypeInfoCache callee_types_;
  llvm::MapVector<llvm::Loop *, LoopTape> tapes_;
  /// Per primal load: null when no later write may change what it read,
  /// else such a write (or the load itself when it is atomic or volatile).
  llvm::DenseMap<const llvm::Instruction *, const llvm::Instruction *>
      clobbers_;
  /// Loads read again only because the reverse sweep puts back what later
  /// stores changed (undone, logged or refilled stores): their memory is
  /// right at their own point of the reverse sweep, not at another
  /// iteration's (CarriedLoads.cpp does not read them for a phi). Each
  /// with the stores put back.
  llvm::DenseMap<const llvm::Instruction *,
                 llvm::SmallVector<llvm::Instruction *, 2>>
      restored_loads_;
  /// Per allocation whose frees are deferred: one of them (the call to
  /// repeat); and all of them.
  llvm::DenseMap<llvm::CallBase *, llvm::CallBase *> deferred_free_of_;
  /// Each heap allocation's shadow lifetime; the releases whose freed
  /// shadows are recorded, with their lists (made when first used).
  bool lifetimes_planned_ = false;
  llvm::DenseMap<llvm::CallBase *, ShadowLife> lifetimes_;
  llvm::MapVector<llvm::CallBase *, llvm::AllocaInst *> recorded_releases_;
  llvm::SmallPtrSet<llvm::CallBase *, 4> caller_releases_;
  /// Releases, in a split derivative, of memory given as an argument: the
  /// shadow is deferred for its allocation to claim (DeferredReleases.cpp).
  llvm::SmallPtrSet<llvm::CallBase *, 4> argument_releases_;
  /// Per callee: whether it returns fresh memory (ShadowLifetimes.cpp).
  llvm::DenseMap<const llvm::Function *, bool> fresh_returns_;
  llvm::SmallPtrSet<llvm::CallBase *, 4> deferred_frees_;
  struct UndoneStore {
    llvm::AllocaInst *old = nullptr, *redo = nullptr, *scratch = nullptr;
    llvm::AllocaInst *ptr = nullptr, *done = nullptr;
  };
  llvm::MapVector<llvm::StoreInst *, UndoneStore> undone_stores_;
  /// The undo log: per logged store, the words of its entry. An entry is
  /// the store's address, its size in bytes when the logged stores differ
  /// in size, and the bytes it overwrote (then, once undone, the bytes it
  /// wrote), padded to words. The forward sweep pushes, the reverse sweep
  /// pops and swaps, the end replays the entries in order.
  struct UndoLog {
    llvm::MapVector<llvm::StoreInst *, unsigned> entry_words;
    /// Per logged store: the loads read again thanks to it, and its loop
    /// (the report).
    llvm::DenseMap<llvm::StoreInst *, unsigned> reloads;
    llvm::DenseMap<llvm::StoreInst *, llvm::Loop *> loop_of_store;
    bool sized = false;
    /// Capacity (words) and the log's array, reserved like a loop tape.
    LoopTape tape;
    llvm::AllocaInst *length = nullptr, *end = nullptr;
  };
  UndoLog undo_log_;
  /// Per loop: the stores refilled at the start of its reverse iterations,
  /// the loads read again thanks to them, and the barrier put before and
  /// after them (null when none is needed).
  struct Refills {
    llvm::SetVector<llvm::StoreInst *> stores;
    llvm::SmallVector<llvm::Instruction *, 8> loads;
    llvm::CallBase *barrier = nullptr;
  };
  llvm::MapVector<llvm::Loop *, Refills> refills_;
  /// Pointer arguments checked at the entry not to point into these shared
  /// arrays.
  llvm::MapVector<llvm::Argument *, llvm::SetVector<llvm::GlobalVariable *>>
      shared_checks_;
  llvm::MapVector<llvm::CallBase *, AugmentedCall> augmented_;
  /// Per tape of an augmented call: the primal call (for the tape report).
  llvm::DenseMap<const llvm::Instruction *, llvm::CallBase *> tape_of_call_;
  /// Cached values and why, in the order their caches were made (kept only
  /// when the tape is reported).
  std::vector<std::pair<llvm::Instruction *, std::string>> cached_in_order_;
  llvm::SmallVector<llvm::ReturnInst *, 4> returns_;

  // Forward sweep.
  llvm::IRBuilder<> fb_;
  llvm::DenseMap<llvm::Value *, llvm::Value *> shadows_;
  /// Shadow phis of integer phis that carry addresses (BuildShadows).
  llvm::DenseMap<llvm::PHINode *, llvm::PHINode *> address_phis_;
  /// The sink arena's shadow (ShadowArenas.h), made at the entry on first
  /// use; once made, stores of active data check they do not go there.
  llvm::Value *sink_shadow_ = nullptr;
  /// Per primal block with several predecessors: which one it came from.
  llvm::DenseMap<llvm::BasicBlock *, llvm::PHINode *> come_from_;
  /// Stack slots caching values outside loops, and array slots inside.
  llvm::DenseMap<llvm::Value *, llvm::AllocaInst *> caches_;
  /// The stores that put a primal value into its cache: they keep a copy
  /// for the reverse sweep and do not move the value's bits anywhere the
  /// function can see (CheckNoFloatBits).
  llvm::SmallPtrSet<const llvm::Instruction *, 16> cache_stores_;
  llvm::AllocaInst *primal_result_ = nullptr;
  /// Per reallocation with a shadow: the bytes its shadow took over from
  /// the old one (forward sweep); per pointer: its allocation's size.
  llvm::DenseMap<llvm::Value *, llvm::Value *> realloc_kept_;
  llvm::DenseMap<llvm::Value *, llvm::Value *> allocated_size_;

  // Reverse sweep.
  llvm::IRBuilder<> rb_;
  llvm::BasicBlock *ctx_ = nullptr;
  llvm::DenseMap<llvm::Value *, llvm::Value *> memo_;
  /// Set when Lookup() could not give a value (a bug of the emitter).
  absl::Status lookup_error_;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> reverse_of_;
  llvm::DenseMap<llvm::Value *, llvm::AllocaInst *> adjoints_;
  llvm::BasicBlock *final_ = nullptr;
  llvm::Argument *dret_ = nullptr;
};

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REVERSE_REVERSEEMITTER_H
