//===- enzyme_bridge/reverse/WarpAggregation.h - Fewer atomics on a GPU -*- C++ -*-===//
//
// In a GPU reverse sweep, the adjoint of a value many threads read (a
// shared-memory tile element, a weight every thread uses) is added by all
// of them to one shadow location: with one atomic add per thread those
// additions serialize. When every lane of a warp is active and adds to the
// same address, the warp first sums its 32 adjoints with shuffles and one
// lane makes the atomic add; otherwise each lane adds its own.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_WARPAGGREGATION_H
#define AUTODIFF_ENZYME_BRIDGE_WARPAGGREGATION_H

namespace llvm {
class Function;
class Module;
class PointerType;
class Type;
} // namespace llvm

namespace autodiff {

/// `void (ptr p, T v)`: `*p += v` atomically, warp-aggregated as above, for
/// T float or double and `p` of type `ptr_type` (any address space), in an
/// NVPTX module; created once per module and type. Null for other types.
llvm::Function *WarpAggregatedAdd(llvm::Module &m, llvm::Type *t,
                                  llvm::PointerType *ptr_type);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_WARPAGGREGATION_H
