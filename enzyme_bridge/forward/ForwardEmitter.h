//===- enzyme_bridge/forward/ForwardEmitter.h - Forward-mode internals -*- C++ -*-===//
//
// Internal to the core: the visitor that adds tangent code to a copy of the
// primal function. ForwardMode.cpp holds values and control flow;
// ForwardCalls.cpp holds calls (intrinsics, rules, calls to functions in the
// module, calls through function pointers), ForwardAllocation.cpp heap
// allocation, ForwardMathCalls.cpp complex and output-pointer math,
// ForwardAtomics.cpp loads, stores and atomic operations, ForwardRawBits.cpp
// integers that carry the bits of floats.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_FORWARDEMITTER_H
#define AUTODIFF_ENZYME_BRIDGE_FORWARDEMITTER_H

#include "enzyme_bridge/analysis/ActivityAnalysis.h"
#include "enzyme_bridge/ClonePrimal.h"
#include "enzyme_bridge/requests/Request.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "absl/status/status.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstVisitor.h"

#include <map>
#include <optional>
#include <tuple>

namespace autodiff {

class DerivativeCache;

class ForwardEmitter : public llvm::InstVisitor<ForwardEmitter, absl::Status> {
public:
  ForwardEmitter(const DiffRequest &r, llvm::Function &out,
                 DerivativeCache &cache);

  absl::Status Run();

  // Values and control flow (ForwardMode.cpp); memory accesses and atomics
  // (ForwardAtomics.cpp).
  absl::Status visitInstruction(llvm::Instruction &i);
  absl::Status visitAllocaInst(llvm::AllocaInst &i);
  absl::Status visitLoadInst(llvm::LoadInst &i);
  absl::Status visitStoreInst(llvm::StoreInst &i);
  absl::Status visitGetElementPtrInst(llvm::GetElementPtrInst &i);
  absl::Status visitCastInst(llvm::CastInst &i);
  absl::Status visitUnaryOperator(llvm::UnaryOperator &i);
  absl::Status visitBinaryOperator(llvm::BinaryOperator &i);
  // Integers carrying the bits of floats (ForwardRawBits.cpp).
  absl::Status VisitIntegerBits(llvm::Instruction &i);
  bool VisitAddressArithmetic(llvm::BinaryOperator &i);
  /// Sets `handled` when `i` is a sign-bit operation and got its tangent.
  absl::Status VisitSignBitOp(llvm::BinaryOperator &i, bool &handled);
  /// Whether `i` moves whole bytes; if so its tangent is set.
  bool VisitByteMove(llvm::Instruction &i);
  absl::Status VisitIntegerBitsIntrinsic(llvm::CallBase &call);
  /// A diagnostic when `i`, an integer operation on the bits of an active
  /// float, feeds a float again (its derivative would be lost).
  absl::Status CheckFloatBitsKept(llvm::Instruction &i);
  bool FloatBitsReachFloat(llvm::Instruction &i);
  /// MayReturnFloatBits (ReturnedBits.h), remembered.
  bool ReturnsFloatBits(const llvm::Function &f, int64_t lo, int64_t hi);
  bool FromUntrackedActiveBits(llvm::Value *v, unsigned depth);
  absl::Status CheckUntrackedBitsStore(llvm::StoreInst &i);
  bool IsFloatBits(llvm::Value *v, unsigned depth, bool direct = false,
                   bool loose = false);
  /// `sitofp`/`uitofp` reading mantissa bits of an active float
  /// (ForwardBitsAsNumbers.cpp).
  absl::Status CheckNotFloatBits(llvm::Instruction &i);
  uint64_t MantissaBitsOf(llvm::Value *root);
  absl::Status CheckFloatPlacement(llvm::Instruction &access);
  absl::Status CheckPartialFloatWrite(llvm::StoreInst &st);
  bool PassesFloatBits(llvm::Value *a, bool loose);
  bool PassesBitsInto(llvm::Value *a, llvm::Function *callee);
  bool HoldsFloatBits(llvm::Value *ptr);
  std::string DeclaredFloats(llvm::Value *ptr);
  absl::Status CheckPointersIntoFloats(llvm::CallBase &call,
                                       const DiffRequest &r);
  absl::Status CheckWholeFloatBytes(llvm::Instruction &i, llvm::Value *bits,
                                    llvm::Type *as,
                                    const llvm::CallBase *site = nullptr);
  bool LosesTangent(llvm::Value *val);
  absl::Status visitSelectInst(llvm::SelectInst &i);
  absl::Status visitPHINode(llvm::PHINode &) { return absl::OkStatus(); }
  absl::Status visitExtractValueInst(llvm::ExtractValueInst &i);
  absl::Status visitInsertValueInst(llvm::InsertValueInst &i);
  absl::Status visitExtractElementInst(llvm::ExtractElementInst &i);
  absl::Status visitInsertElementInst(llvm::InsertElementInst &i);
  absl::Status visitShuffleVectorInst(llvm::ShuffleVectorInst &i);
  absl::Status visitFreezeInst(llvm::FreezeInst &i);
  absl::Status visitCmpInst(llvm::CmpInst &) { return absl::OkStatus(); }
  absl::Status visitBranchInst(llvm::BranchInst &) { return absl::OkStatus(); }
  absl::Status visitSwitchInst(llvm::SwitchInst &) { return absl::OkStatus(); }
  absl::Status visitUnreachableInst(llvm::UnreachableInst &) {
    return absl::OkStatus();
  }
  absl::Status visitReturnInst(llvm::ReturnInst &) { return absl::OkStatus(); }
  absl::Status visitFenceInst(llvm::FenceInst &) { return absl::OkStatus(); }
  absl::Status visitLandingPadInst(llvm::LandingPadInst &) {
    return absl::OkStatus();
  }
  absl::Status visitResumeInst(llvm::ResumeInst &) { return absl::OkStatus(); }
  absl::Status visitAtomicRMWInst(llvm::AtomicRMWInst &i);
  absl::Status visitAtomicCmpXchgInst(llvm::AtomicCmpXchgInst &i);

  // Calls (ForwardCalls.cpp).
  absl::Status visitCallBase(llvm::CallBase &call);

private:
  // Tangent bookkeeping.
  llvm::Value *T(llvm::Value *v, unsigned lane);
  llvm::Value *TOrZero(llvm::Value *v, unsigned lane);
  bool HasT(llvm::Value *v);
  /// The shadow of a constant value of type `t` where one must be
  /// materialized: zero, with pointers (also inside aggregates) into the
  /// read-only zero arena, so tangent loads through them read zero.
  llvm::Value *ZeroShadow(llvm::Type *t);
  /// Whether `shadow` points into the zero arena (an i1 computed at `b_`).
  llvm::Value *InZeroArena(llvm::Value *shadow);
  void SetT(llvm::Value *v, Lanes lanes);
  /// Records lane k's tangent of `v` as make(k), for every lane.
  void SetLanes(llvm::Value *v,
                llvm::function_ref<llvm::Value *(unsigned lane)> make);
  bool Active(const llvm::Value *v) const { return activity_->IsActive(v); }
  /// Per lane, make(shadow, lane) for each lane where `ptr` has a shadow
  /// (null elsewhere).
  Lanes PerShadowLane(
      llvm::Value *ptr,
      llvm::function_ref<llvm::Value *(llvm::Value *shadow, unsigned lane)>
          make);

  // Structure.
  void PromoteLocals();
  void CreateTangentPhis();
  absl::Status FillTangentPhis();
  bool CarriesActiveAddress(llvm::Value *v);
  absl::Status RewriteReturns();
  void FindUnneededPrimalStores();
  void DropNamesOfUnnamedTangents();

  // Calls.
  absl::Status VisitIntrinsic(llvm::CallBase &call, llvm::Function &callee);
  absl::Status VisitMemoryIntrinsic(llvm::CallBase &call);
  absl::Status VisitMaskedAccess(llvm::CallBase &call);
  absl::Status VisitVectorReduction(llvm::CallBase &call);
  absl::Status VisitPairResultIntrinsic(llvm::CallBase &call);
  /// x86 SIMD intrinsics; false if `call` is not one the core knows.
  bool VisitX86Intrinsic(llvm::CallBase &call);
  absl::Status VisitAllocation(llvm::CallBase &call, int kind);
  absl::Status VisitNumbaVarsize(llvm::CallBase &call);
  /// Tangent from the rule table for `i` with differentiable `ops`.
  absl::Status ApplyRule(llvm::Instruction &i,
                         llvm::ArrayRef<llvm::Value *> ops);
  absl::Status VisitModuleCall(llvm::CallBase &call, llvm::Function &callee);
  absl::Status VisitIndirectCall(llvm::CallBase &call);
  /// `before_call`: a rule of a void function runs before the call (the
  /// built-in BLAS rules, which read what the call overwrites).
  absl::Status VisitCustomRule(llvm::CallBase &call, llvm::Function &rule,
                               bool before_call = false);
  /// Splits the normal edge of `inv` with a new block (phis updated) and
  /// puts the builder before its branch: code there sees inv's result.
  llvm::BasicBlock *SplitNormalEdge(llvm::InvokeInst &inv);
  /// libm functions with output pointers (frexp, modf, sincos); false if
  /// `call` is none of them.
  bool VisitOutputPointerMath(llvm::CallBase &call, llvm::StringRef name);
  /// C99 complex helpers on (re, im) pairs: __muldc3, __divdc3, cexp, clog,
  /// csqrt (and their float forms when passed as scalars); false if `call`
  /// is none of them.
  bool VisitComplexCall(llvm::CallBase &call, llvm::StringRef name);
  bool VisitPackedComplexReal(llvm::CallBase &call, llvm::StringRef name);
  /// lgamma and tgamma, through an emitted digamma; false otherwise.
  bool VisitGammaCall(llvm::CallBase &call, llvm::StringRef name);
  /// The request for differentiating `call` (same callee type and width).
  DiffRequest CalleeRequest(llvm::CallBase &call, llvm::Function &callee);
  /// Caller types of the memory `call` passes with tangents (ForwardCalls).
  void AddArgumentTypes(llvm::CallBase &call, DiffRequest &r);
  /// Operands for a derivative of `call` under `req`.
  llvm::SmallVector<llvm::Value *, 8> DerivativeArgs(llvm::CallBase &call,
                                                    const DiffRequest &req);
  /// Unpacks a derivative call's result: replaces `call` by the primal and
  /// records the tangents.
  void ReplaceWithDerivativeResult(llvm::CallBase &call, llvm::Value *result,
                                   const DiffRequest &req);

  const DiffRequest &req_;
  llvm::Function &out_;
  DerivativeCache &cache_;
  unsigned width_;
  llvm::IRBuilder<> b_;
  std::optional<ActivityInfo> activity_;
  /// Integer results of derivative calls that carry a float's bits.
  llvm::SmallPtrSet<llvm::Value *, 8> float_bits_;
  /// Aggregate results of derivative calls, and their callees (whose
  /// integer fields may carry a float's bits: ReturnsFloatBits).
  llvm::DenseMap<llvm::Value *, const llvm::Function *> returned_by_;
  /// The primal result of each derivative call of a module function, and
  /// the call it replaced (erased at the end; FloatBytes.h follows the
  /// bytes its callee returns).
  llvm::DenseMap<const llvm::Value *, const llvm::CallBase *> primal_results_;
  std::map<std::tuple<const llvm::Function *, int64_t, int64_t>, bool>
      returns_float_bits_;
  /// BitsTurnedIntoResult (FloatBytes.h) of callees, remembered.
  /// Integer copies out of step with the floats they move
  /// (analysis/CopySteps.h), found before the visit.
  llvm::DenseMap<const llvm::Instruction *, std::string> copies_out_of_step_;
  llvm::DenseMap<const llvm::Function *, bool> joins_bits_;
  /// Integers holding an address computed from an active pointer (with
  /// the shadow's address as their tangent).
  llvm::SmallPtrSet<llvm::Value *, 8> address_ints_;
  /// Computed on first need (integer copies of float bits).
  std::optional<TypeInfo> types_;
  /// The callees' own types (for their requests' caller types).
  TypeInfoCache callee_types_;
  llvm::DenseMap<llvm::Value *, Lanes> tangents_;
  llvm::DenseMap<llvm::Type *, llvm::Value *> zero_shadows_;
  llvm::SmallVector<std::pair<llvm::PHINode *, Lanes>, 16> phis_;
  llvm::SmallVector<llvm::ReturnInst *, 4> returns_;
  llvm::SmallVector<llvm::Instruction *, 8> erase_;
  llvm::SmallPtrSet<llvm::Instruction *, 8> unneeded_stores_;
};

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_FORWARDEMITTER_H
