//===- frontend/Signature.h - Source-level signatures ----------*- C++ -*-===//
//
// The host's view of a function's parameters, so activities (one per
// source-level parameter) can be matched to LLVM parameters. A Rust-like
// syntax is accepted: `sum_sq(x: &[f64], n: usize) -> f64`.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_FRONTEND_SIGNATURE_H
#define AUTODIFF_FRONTEND_SIGNATURE_H

#include "absl/status/statusor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace autodiff {

/// A source-level type. Only what decides the ABI shape and the legality of
/// activities is modelled.
struct SourceType {
  enum class Kind {
    Unit,     ///< `()`, or no return type.
    Float,    ///< f32 / f64 (`bits`).
    Int,      ///< i8..i128, u8..u128, isize, usize (`bits`, `is_signed`).
    Bool,     ///< bool.
    Ref,      ///< `&T` (`pointee`).
    MutRef,   ///< `&mut T`.
    ConstPtr, ///< `*const T`.
    MutPtr,   ///< `*mut T`.
    Slice,    ///< `&[T]`: a data pointer and a length at the LLVM level.
    MutSlice, ///< `&mut [T]`.
    Pair,     ///< `(A, B)` of two scalars: two LLVM values (`elems`).
    Opaque,   ///< Anything else passed as one LLVM value (e.g. a struct
              ///< by pointer); derived from LLVM types when no signature.
  };
  Kind kind = Kind::Unit;
  uint32_t bits = 0;
  bool is_signed = false;
  /// Pointee (Ref/MutRef/ConstPtr/MutPtr) or element (Slice/MutSlice);
  /// the two elements for Pair.
  std::vector<SourceType> elems;
  /// Int only: written `isize` / `usize` (`bits` is 64). Keeps diagnostics
  /// in the user's spelling.
  bool is_pointer_sized = false;
  /// Ref/MutRef only: `&[T; N]` when nonzero (one pointer, like `&T`).
  uint64_t array_len = 0;
  /// Opaque only: the name of a user type behind a pointer (`&Params`).
  std::string name;

  static SourceType Unit() { return {}; }
  static SourceType Float(uint32_t bits);
  static SourceType Int(uint32_t bits, bool is_signed);

  bool IsFloat() const { return kind == Kind::Float; }
  /// Ref, MutRef, ConstPtr, MutPtr, Slice, MutSlice.
  bool IsPointerLike() const;
  bool IsSlice() const { return kind == Kind::Slice || kind == Kind::MutSlice; }
  /// Number of LLVM parameters this occupies (Unit 0, Slice/Pair 2, else 1).
  unsigned LlvmParamCount() const;
  /// Size in bytes of a scalar (0 if unknown), used for slice element size.
  uint32_t SizeInBytes() const;
  /// Spelling as written: "&[f64]", "*mut f32", "(f64, f64)", "usize".
  std::string ToString() const;

  /// Structural equality (kind, bits, signedness and element types).
  bool operator==(const SourceType &o) const;
  bool operator!=(const SourceType &o) const { return !(*this == o); }
};

struct SourceParam {
  std::string name; ///< May be empty (e.g. derived from LLVM).
  SourceType type;
};

struct SourceSignature {
  std::string name;
  std::vector<SourceParam> params;
  SourceType ret; ///< Unit when nothing is returned.
};

/// Parses a type such as `&mut [f32]`, `*const f64`, `(f64, f64)`, `usize`.
absl::StatusOr<SourceType> ParseSourceType(std::string_view text);
/// Parses `name(a: T, b: U) -> R` (the `-> R` part is optional; parameter
/// names are optional: `f(&[f64], f64)`). Errors are InvalidArgument and
/// quote the offending text.
absl::StatusOr<SourceSignature> ParseSourceSignature(std::string_view text);

} // namespace autodiff

#endif // AUTODIFF_FRONTEND_SIGNATURE_H
