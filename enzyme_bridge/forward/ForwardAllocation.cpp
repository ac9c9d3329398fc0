//===- enzyme_bridge/ForwardAllocation.cpp - Shadows of heap memory ------===//
//
// Forward mode for allocation functions: each allocation of active memory
// gets a shadow allocation of the same size, zeroed (malloc, new, Rust's
// allocator shims, Numba's NRT MemInfos), reallocations grow the shadow,
// and frees and reference counts are mirrored on the shadow.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/ShadowArenas.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/forward/ForwardEmitter.h"
#include "enzyme_bridge/analysis/KnownFunctions.h"
#include "enzyme_bridge/Diagnostics.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {

//===----------------------------------------------------------------------===//
// Heap allocation
//===----------------------------------------------------------------------===//

absl::Status ForwardEmitter::VisitAllocation(CallBase &call, int kindValue) {
  auto kind = static_cast<AllocKind>(kindValue);
  // A throwing allocator (C++ operator new under a landing pad): shadows
  // are allocated once it has returned, on the normal edge.
  if (auto *inv = dyn_cast<InvokeInst>(&call))
    if (kind != AllocKind::Free && kind != AllocKind::RefCount &&
        (Active(&call) || HasT(call.getArgOperand(0))))
      SplitNormalEdge(*inv);
  SmallVector<Value *, 4> args(call.args());
  Lanes lanes;
  switch (kind) {
  case AllocKind::Malloc:
  case AllocKind::AlignedAlloc:
  case AllocKind::Calloc:
    if (!Active(&call))
      return absl::OkStatus();
    for (unsigned k = 0; k < width_; ++k) {
      CallInst *s = b_.CreateCall(call.getFunctionType(),
                                  call.getCalledOperand(), args,
                                  call.getName() + "'mi");
      s->setAttributes(call.getAttributes());
      if (kind == AllocKind::Malloc || kind == AllocKind::AlignedAlloc)
        b_.CreateMemSet(s, b_.getInt8(0),
                        args[kind == AllocKind::Malloc ? 0 : 1], MaybeAlign());
      lanes.push_back(s);
    }
    SetT(&call, lanes);
    return absl::OkStatus();
  case AllocKind::Realloc:
    if (!Active(&call) && !HasT(args[0]))
      return absl::OkStatus();
    for (unsigned k = 0; k < width_; ++k) {
      SmallVector<Value *, 2> sargs = {TOrZero(args[0], k), args[1]};
      CallInst *s = b_.CreateCall(call.getFunctionType(),
                                  call.getCalledOperand(), sargs,
                                  call.getName() + "'mi");
      if (!T(args[0], k))
        b_.CreateMemSet(s, b_.getInt8(0), args[1], MaybeAlign());
      lanes.push_back(s);
    }
    SetT(&call, lanes);
    return absl::OkStatus();
  case AllocKind::RustRealloc: {
    // __rust_realloc(p, old, align, new): grow the shadow the same way and
    // zero what is new.
    if (!Active(&call) && !HasT(args[0]))
      return absl::OkStatus();
    for (unsigned k = 0; k < width_; ++k) {
      SmallVector<Value *, 4> sargs(args.begin(), args.end());
      sargs[0] = TOrZero(args[0], k);
      CallInst *s = b_.CreateCall(call.getFunctionType(),
                                  call.getCalledOperand(), sargs,
                                  call.getName() + "'mi");
      s->setAttributes(call.getAttributes());
      Value *grew = b_.CreateICmpUGT(args[3], args[1]);
      Value *from = b_.CreateSelect(grew, args[1], args[3]);
      Value *tail = b_.CreateGEP(b_.getInt8Ty(), s, from);
      b_.CreateMemSet(tail, b_.getInt8(0), b_.CreateSub(args[3], from),
                      MaybeAlign());
      lanes.push_back(s);
    }
    SetT(&call, lanes);
    return absl::OkStatus();
  }
  case AllocKind::NumbaMemInfo: {
    // The shadow is a MemInfo of its own; its data buffer starts zeroed.
    if (!Active(&call))
      return absl::OkStatus();
    for (unsigned k = 0; k < width_; ++k)
      lanes.push_back(CreateZeroedMemInfo(b_, call, call.getName() + "'mi"));
    SetT(&call, lanes);
    return absl::OkStatus();
  }
  case AllocKind::RefCount:
    // Shadow MemInfos live and die with their primals.
    for (unsigned k = 0; k < width_ && HasT(args[0]); ++k)
      if (Value *sp = T(args[0], k))
        b_.CreateCall(call.getFunctionType(), call.getCalledOperand(),
                      {b_.CreateSelect(InZeroArena(sp),
                                       ConstantPointerNull::get(
                                           cast<PointerType>(sp->getType())),
                                       sp)});
    return absl::OkStatus();
  case AllocKind::Free:
    if (!HasT(args[0]))
      return absl::OkStatus();
    for (unsigned k = 0; k < width_; ++k) {
      if (!T(args[0], k))
        continue;
      SmallVector<Value *, 3> sargs(args.begin(), args.end());
      // A shadow in the zero arena (of constant memory) is not freed.
      Value *sp = T(args[0], k);
      sargs[0] = b_.CreateSelect(InZeroArena(sp),
                                 ConstantPointerNull::get(
                                     cast<PointerType>(sp->getType())),
                                 sp);
      b_.CreateCall(call.getFunctionType(), call.getCalledOperand(), sargs);
    }
    return absl::OkStatus();
  case AllocKind::None:
    break;
  }
  return absl::OkStatus();
}

/// NRT_MemInfo_varsize_alloc / _realloc(mi, size) give a variable-size
/// MemInfo (made by NRT_MemInfo_new_varsize: the list behind a Numba
/// reduction along an axis) a data buffer of `size` bytes and return it:
/// the shadow MemInfo gets one the same way, its new bytes zeroed.
absl::Status ForwardEmitter::VisitNumbaVarsize(CallBase &call) {
  Value *mi = call.getArgOperand(0), *size = call.getArgOperand(1);
  if (!HasT(mi)) {
    if (!Active(&call))
      return absl::OkStatus();
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "the buffer of a Numba MemInfo that has no shadow (made "
                   "outside the differentiated code?) receives active data");
  }
  // Numba 0.56's MemInfo: refct, dtor, dtor_info, data, size, external.
  const DataLayout &dl = call.getModule()->getDataLayout();
  uint64_t sizeField = 4 * dl.getPointerSize();
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    Value *smi = T(mi, k);
    Value *old = b_.CreateLoad(
        size->getType(), b_.CreateConstGEP1_64(b_.getInt8Ty(), smi, sizeField));
    CallInst *s = b_.CreateCall(call.getFunctionType(),
                                call.getCalledOperand(), {smi, size},
                                call.getName() + "'mi");
    s->setAttributes(call.getAttributes());
    Value *grew = b_.CreateICmpUGT(size, old);
    Value *from = b_.CreateSelect(grew, old, size);
    b_.CreateMemSet(b_.CreateGEP(b_.getInt8Ty(), s, from), b_.getInt8(0),
                    b_.CreateSub(size, from), MaybeAlign());
    lanes.push_back(s);
  }
  SetT(&call, lanes);
  return absl::OkStatus();
}

} // namespace autodiff
