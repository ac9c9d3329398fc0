//===- enzyme_bridge/Diagnostics.h - Messages naming IR places -*- C++ -*-===//
//
// Every diagnostic of the core is one problem of the form
//
//   in function `f`, call to `g` at file.c:3:7: MESSAGE
//     instruction: %y = call double @g(double %x)
//
// (the location only with debug info). A status may hold several problems,
// one after the other: a problem starts on a line of its own, and its
// continuation lines are indented. Where each problem happened also rides
// along as a status payload (kLocationPayload), one record per problem, so
// that a host (the clang plugin) can report it at the source location.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_DIAGNOSTICS_H
#define AUTODIFF_ENZYME_BRIDGE_DIAGNOSTICS_H

#include "absl/status/status.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Instruction;
class Value;
} // namespace llvm

namespace autodiff {

/// Function attribute on generated derivatives naming their primal.
inline constexpr const char *kPrimalAttr = "autodiff-primal";

/// Type URL of the status payload listing where each problem happened.
inline constexpr const char *kLocationPayload = "autodiff/location";

/// Where one problem happened.
struct ProblemLocation {
  /// The user's function (the primal, inside a generated derivative);
  /// empty when unknown.
  std::string function;
  /// From the debug location; line 0 when there is none.
  std::string directory;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;

  bool HasSource() const { return line != 0 && !file.empty(); }
};

/// What `inst` does, for a message: "call to `g`", "invoke of `g`",
/// "indirect call through `%fp`", "inline assembly", "`fdiv`",
/// "`atomicrmw fadd`", "`fcmp olt`".
std::string DescribeOperation(const llvm::Instruction &inst);

/// "in function `f`, call to `g` at file.c:3:7" (location only with debug
/// info); inside a generated derivative, "in function `f` (while generating
/// `fwddiffe_f`), ...".
std::string DescribePlace(const llvm::Instruction &inst);

/// Where `inst` is, as a ProblemLocation.
ProblemLocation LocationOf(const llvm::Instruction &inst);

/// The IR of a value as one line, shortened to about `max_chars`.
std::string ValueToString(const llvm::Value &v, size_t max_chars = 200);

/// How to give the destination `dest` of a store shadow memory: for a
/// global, its C registration and its IR metadata; otherwise enzyme_dup too.
std::string NoShadowAdvice(const llvm::Value &dest);

/// `code` error holding one problem: "<place>: <message>", then the
/// instruction on an indented line; its location goes to the payload.
absl::Status ErrorAt(absl::StatusCode code, const llvm::Instruction &inst,
                     const std::string &message);

/// The instruction the most recent ErrorAt on this thread named (null if
/// it is gone or none was named since ClearLastProblemInstruction). Reverse
/// mode uses it to tell which candidate of a call through a function
/// pointer a failure came from.
llvm::Instruction *LastProblemInstruction();
void ClearLastProblemInstruction();

/// One status holding every problem of `problems` (each not OK), in order,
/// with their location records; the code is the first one's.
absl::Status JoinProblems(llvm::ArrayRef<absl::Status> problems);

/// The first line of `s`'s message (its first problem without the
/// instruction line).
std::string FirstLine(const absl::Status &s);

/// The problems of a message: each starts on an unindented line and takes
/// the indented lines that follow it.
std::vector<std::string> SplitProblems(absl::string_view message);

/// The location record of each problem of `s`, if `s` has one per problem
/// (the payload is missing, or does not match the message: nullopt).
std::optional<std::vector<ProblemLocation>>
ProblemLocations(const absl::Status &s);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_DIAGNOSTICS_H
