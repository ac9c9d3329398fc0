//===- enzyme_bridge/rules/BlasIR.h - Building blocks of BLAS rules -*- C++ -*-===//
//
// Internal to the built-in BLAS rules (BlasRules.cpp: dot products;
// BlasGemv.cpp, BlasGemm.cpp: Numba's matrix-vector and matrix-matrix
// helpers): the IR they are made of.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_RULES_BLASIR_H
#define AUTODIFF_ENZYME_BRIDGE_RULES_BLASIR_H

#include "enzyme_bridge/analysis/KnownFunctions.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <functional>

namespace autodiff::blas {

/// The arguments of a rule function: per primal parameter, its value and
/// (for a pointer) its shadow or tangent.
struct RuleArgs {
  llvm::SmallVector<llvm::Value *, 10> value, shadow;
};
RuleArgs SplitArgs(llvm::Function &rule, const llvm::Function &f);

/// A new internal rule function `prefix + f's name` taking f's parameters,
/// each pointer followed by its shadow, then `extra`; null when the module
/// already has it (`have` is set to it then).
llvm::Function *NewRule(llvm::Function &f, const char *prefix, llvm::Type *rt,
                        llvm::ArrayRef<llvm::Type *> extra,
                        llvm::Function *&have);

/// A new internal forward rule `__autodiff_blas_forward_` + f's name, in
/// the registered-derivative convention: each of f's parameters followed
/// by its tangent (floats and pointers; integers have none), returning
/// `rt`; null when the module already has it (`have` is set to it then).
/// `args` gets the rule's values and tangents (null for integers).
llvm::Function *NewForwardRule(llvm::Function &f, llvm::Type *rt,
                               RuleArgs &args, llvm::Function *&have);

/// Sum over the m x n matrices of x[i + j ldx] * y[i + j ldy] (column-major
/// with leading dimensions ldx, ldy).
llvm::Value *MatrixDot(llvm::IRBuilder<> &b, llvm::Type *elt, llvm::Value *x,
                       llvm::Value *ldx, llvm::Value *y, llvm::Value *ldy,
                       llvm::Value *m, llvm::Value *n);

/// Element i of a strided BLAS vector: from the end when inc < 0.
llvm::Value *Element(llvm::IRBuilder<> &b, llvm::Type *elt, llvm::Value *base,
                     llvm::Value *i, llvm::Value *inc, llvm::Value *n);

/// for (i = 0; i < n; ++i) body(i); leaves `b` after the loop.
void EmitLoop(llvm::IRBuilder<> &b, llvm::Value *n,
              const std::function<void(llvm::IRBuilder<> &, llvm::Value *)>
                  &body);

/// Runs `per_type` once for a `fixed` element type, else for Numba's kinds
/// 'd' and 's' in a switch on `kind`; other kinds stop the program with a
/// message naming `helper`.
void ForElementType(
    llvm::IRBuilder<> &b, llvm::Type *fixed, llvm::Value *kind,
    const char *helper,
    const std::function<void(llvm::IRBuilder<> &, llvm::Type *)> &per_type);

/// *p, or 0 when p is null (a tangent forward mode did not give).
llvm::Value *LoadOrZero(llvm::IRBuilder<> &b, llvm::Type *elt, llvm::Value *p);
/// A stack slot holding `v`, for BLAS's scalar pointers (BlasGemm.cpp).
llvm::Value *Slot(llvm::IRBuilder<> &b, llvm::Type *elt, llvm::Value *v);
/// The larger of i64 `v` and 1 (BLAS wants leading dimensions >= 1).
llvm::Value *AtLeastOne(llvm::IRBuilder<> &b, llvm::Value *v);
/// `v`, or zero where `beta` is zero: BLAS does not read C (or y) when
/// beta is zero (it may hold anything, NaN included: Numba passes
/// np.empty), so neither do the derivative's terms of the old C.
llvm::Value *UnlessBetaZero(llvm::IRBuilder<> &b, llvm::Value *beta,
                            llvm::Value *v);
/// Copies the column-major rows x cols matrix at `from` (leading dimension
/// ld) densely to `to`.
void CopyDense(llvm::IRBuilder<> &b, llvm::Type *elt, llvm::Value *from,
               llvm::Value *ld, llvm::Value *rows, llvm::Value *cols,
               llvm::Value *to);

/// Numba's matrix-vector helper `numba_xxgemv` (BlasGemv.cpp).
bool IsNumbaGemv(const llvm::Function &f);
ReverseRule GemvReverseRule(llvm::Function &f);
llvm::Function *GemvForwardRule(llvm::Function &f);

/// axpy, scal and nrm2, cblas and Fortran forms, double and float, and
/// Numba's nrm2 helper (BlasLevel1.cpp).
bool IsCblasLevel1(const llvm::Function &f);
/// Numba's `numba_xxnrm2` (the element type chosen by its kind).
bool IsNumbaLevel1(const llvm::Function &f);
/// Whether the level-1 function writes through parameter `arg`.
bool Level1WritesParam(const llvm::Function &f, unsigned arg);
ReverseRule Level1ReverseRule(llvm::Function &f);
llvm::Function *Level1ForwardRule(llvm::Function &f);

/// cblas_dgemv / cblas_sgemv (BlasCblasGemv.cpp).
bool IsCblasGemv(const llvm::Function &f);
ReverseRule CblasGemvReverseRule(llvm::Function &f);
llvm::Function *CblasGemvForwardRule(llvm::Function &f);

/// cblas_dgemm / cblas_sgemm (BlasCblasGemm.cpp).
bool IsCblasGemm(const llvm::Function &f);
ReverseRule CblasGemmReverseRule(llvm::Function &f);
llvm::Function *CblasGemmForwardRule(llvm::Function &f);

/// Numba's matrix-matrix helper `numba_xxgemm` and Fortran's `dgemm_` /
/// `sgemm_` (BlasGemm.cpp).
bool IsNumbaGemm(const llvm::Function &f);
ReverseRule GemmReverseRule(llvm::Function &f);
llvm::Function *GemmForwardRule(llvm::Function &f);

} // namespace autodiff::blas

#endif // AUTODIFF_ENZYME_BRIDGE_RULES_BLASIR_H
