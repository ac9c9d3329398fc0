//===- enzyme_bridge/RuntimeAbort.h - Stop a program from IR ---*- C++ -*-===//
//
// Generated code that finds a condition it cannot recover from (a tape it
// cannot allocate, active data stored into memory passed as constant)
// prints a message and stops the program.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_RUNTIMEABORT_H
#define AUTODIFF_ENZYME_BRIDGE_RUNTIMEABORT_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class IRBuilderBase;
} // namespace llvm

namespace autodiff {

/// Emits, at `b`, code that prints `msg` and stops, then `unreachable`:
/// write(2, ...) and abort() on a CPU; vprintf and a trap in GPU device
/// code (which has neither).
void EmitRuntimeAbort(llvm::IRBuilderBase &b, llvm::StringRef msg);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_RUNTIMEABORT_H
