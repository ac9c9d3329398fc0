//===- enzyme_bridge/GpuKernels.h - What GPU device code needs -*- C++ -*-===//
//
// Device code (NVPTX) runs the same function in many threads at once. The
// differentiation core handles it with a few facts from here:
//  - shared memory (address space 3) gets a shadow in shared memory, made
//    once per module and registered like a user's `!enzyme_shadow`;
//  - barriers (`__syncthreads`) are mirrored in the reverse sweep;
//  - the reverse sweep adds adjoints into memory other threads may touch
//    with atomic adds, except accesses this file proves thread-private: the
//    index is the global thread index `blockIdx.x * blockDim.x +
//    threadIdx.x`, every access to that base uses it, and the base pointer
//    is the same in every thread (global memory), or no other thread of
//    the block touches the element between the same two barriers
//    (shared memory, GpuSharedAccesses.h). Those are plain when the launch
//    is one-dimensional (checked at run time: with a second dimension the
//    index repeats).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_GPUKERNELS_H
#define AUTODIFF_ENZYME_BRIDGE_GPUKERNELS_H

#include "absl/status/status.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"

#include <string>

namespace llvm {
class CallBase;
class Function;
class IRBuilderBase;
class Instruction;
class Module;
class Value;
} // namespace llvm

namespace autodiff {

/// Gives each shared-memory global holding floating-point data a shadow in
/// shared memory (`NAME_shadow`), registered with `!enzyme_shadow`. Does
/// nothing outside GPU modules.
void RegisterSharedMemoryShadows(llvm::Module &m);

/// Whether `g` is such a shadow (it must be zeroed by the reverse sweep).
bool IsSharedMemoryShadow(const llvm::Value &g);

/// A block-wide barrier (`__syncthreads`) or a warp's (`__syncwarp`):
/// mirrored in the reverse sweep.
bool IsBarrierCall(const llvm::CallBase &call);

/// Whether `ptr` points to memory only the executing thread sees: a stack
/// slot or the local address space.
bool IsThreadLocalMemory(const llvm::Value *ptr);

/// Whether `ptr` points into a shared-memory array (address space 3): the
/// block's own memory.
bool IsSharedMemory(const llvm::Value *ptr);

/// The loads, stores and atomic updates of `copy` (a prepared copy of
/// `primal` in a GPU module) whose location no other thread touches when
/// the launch is one-dimensional.
llvm::SmallPtrSet<const llvm::Instruction *, 16>
FindThreadPrivateAccesses(llvm::Function &copy, const llvm::Function &primal);

/// Whether `f` is a kernel (`__global__`: the PTX kernel calling
/// convention).
bool IsKernel(const llvm::Function &f);
/// Whether `v` is a call of intrinsic `id`.
bool IsIntrinsic(const llvm::Value *v, llvm::Intrinsic::ID id);

/// `v` without the integer extensions around it.
const llvm::Value *StripExtensions(const llvm::Value *v);

/// threadIdx.x, through integer extensions (an index repeated by no other
/// thread of the block, when the block is one-dimensional).
bool IsThreadIndex(const llvm::Value *v);

/// A read of a GPU thread's or block's index or size (`threadIdx.y`,
/// `blockDim.x`, `gridDim.z`, ...): the same all through a thread's run
/// (clocks and lane masks are not).
bool IsLaunchIndex(const llvm::Value *v);

/// Whether `v` is the same in every thread of the launch: constants and
/// globals, kernel parameters (and parameters every call passes such a
/// value), and arithmetic of those.
bool IsLaunchUniform(const llvm::Value *v);

/// i1: whether the launch has one thread dimension and one block dimension
/// (with `block_only`, whether the block has one thread dimension: what
/// matters for the block's shared memory).
llvm::Value *EmitOneDimensionalLaunch(llvm::IRBuilderBase &b,
                                      bool block_only = false);

/// Zeroes the shared-memory shadow `g` cooperatively (each thread of the
/// block a strided part), then waits at a barrier.
void EmitZeroSharedShadow(llvm::IRBuilderBase &b, llvm::Value &g);

/// The reason a GPU call cannot be differentiated (warp shuffles and votes
/// on active data, dynamic parallelism, cooperative groups' grid sync), or
/// empty.
std::string UnsupportedGpuCall(const llvm::CallBase &call);

/// A diagnostic for the first call in `f` the core cannot differentiate on
/// a GPU: a warp shuffle or reduction moving floating-point data (clang
/// splits a double into two integer shuffles, so the data is followed back
/// through the bit operations), dynamic parallelism, or, in reverse mode, a
/// grid-wide sync; or for the first use of dynamic shared memory holding
/// floats (`extern __shared__`: no room for its shadow).
absl::Status CheckGpuCalls(llvm::Function &f, bool reverse);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_GPUKERNELS_H
