//===- codegen/Placeholder.h - Is a target's body a stand-in? --*- C++ -*-===//
//
// Lowering writes the body of an item's target function. It may create the
// target, fill a declaration, or replace a *placeholder*: a body that exists
// only to be replaced, as rustc's #[autodiff] macro and C hosts write them.
// A function with a real body is never replaced unless the host asks for it
// (LoweringRequest::replace_defined_target), so that a typo in a target
// name cannot destroy user code.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_CODEGEN_PLACEHOLDER_H
#define AUTODIFF_CODEGEN_PLACEHOLDER_H

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Whether the definition `target` is a placeholder: a body whose only
/// observable results are constants, so that replacing it loses nothing.
/// That is, every instruction is one of
///  - `ret` of nothing, of a zero value (`0.0`, `zeroinitializer`, `null`),
///    of `undef` or of `poison`; `unreachable`; branches and switches;
///  - a store into the function's own stack (an `alloca`), or of a zero or
///    undefined constant into its `sret` result (also by `memset`);
///  - a call of: inline assembly (Rust's `black_box` above -O0,
///    `asm!("NOP")`); a function whose name contains `black_box` (Rust's
///    `core::hint::black_box` at -O0); a function that does not return
///    (`llvm.trap`, `abort`, a Rust panic: `todo!()`, `unimplemented!()`);
///    `source`, the item's source function (rustc's placeholders call it to
///    keep it alive); an intrinsic that writes no memory, or writes only the
///    function's own stack (`llvm.lifetime.*`, `llvm.memcpy` into an
///    `alloca`);
///  - any other instruction that writes no memory (arithmetic, compares,
///    loads, casts, GEPs, phis, selects).
/// `source` may be null.
bool IsPlaceholderBody(const llvm::Function &target,
                       const llvm::Function *source);

} // namespace autodiff

#endif // AUTODIFF_CODEGEN_PLACEHOLDER_H
