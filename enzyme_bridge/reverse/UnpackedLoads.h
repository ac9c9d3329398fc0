//===- enzyme_bridge/reverse/UnpackedLoads.h - Fields loaded as one word -*- C++ -*-===//
//
// The x86-64 ABI passes `struct {double; float; int}` by value as a double
// and one i64 holding the float and the int; once the callee is inlined,
// the caller loads that i64 from the record and the callee's code takes it
// apart (`trunc` to i32 and `bitcast` to float, `lshr` by 32 and `trunc`
// for the int). Reverse mode refuses integer arithmetic on an active
// float's bits; here each field is loaded by itself instead, so the float
// is a load of float bits (FloatBitCopies.h then gives it its type).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_UNPACKEDLOADS_H
#define AUTODIFF_ENZYME_BRIDGE_UNPACKEDLOADS_H

namespace llvm {
class Function;
} // namespace llvm

namespace autodiff {

/// Replaces each simple integer load of `f` whose every use reads one
/// byte-aligned field out of it (`trunc`, `lshr` by a multiple of 8
/// followed by `trunc`s, or `and` with a mask keeping one field in
/// place), and one of whose fields is reinterpreted as a float, by a load
/// per field. Little-endian targets only. Returns the
/// number of loads split.
unsigned SplitUnpackedLoads(llvm::Function &f);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_UNPACKEDLOADS_H
