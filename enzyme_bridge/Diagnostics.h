//===- enzyme_bridge/Diagnostics.h - Messages naming IR places -*- C++ -*-===//
//
// Every diagnostic of the core names the function, the instruction (as
// printed IR) and, when debug info has it, the source location.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_DIAGNOSTICS_H
#define AUTODIFF_ENZYME_BRIDGE_DIAGNOSTICS_H

#include "absl/status/status.h"

#include <string>

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace autodiff {

/// Function attribute on generated derivatives naming their primal.
inline constexpr const char *kPrimalAttr = "autodiff-primal";

/// "in function `f`, instruction `%y = call double @g(double %x)` at
/// file.c:3:7" (location only with debug info).
std::string DescribePlace(const llvm::Instruction &inst);

/// The IR of a value as one line, shortened to a readable length.
std::string ValueToString(const llvm::Value &v);

/// `code` error "<place>: <message>".
absl::Status ErrorAt(absl::StatusCode code, const llvm::Instruction &inst,
                     const std::string &message);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_DIAGNOSTICS_H
