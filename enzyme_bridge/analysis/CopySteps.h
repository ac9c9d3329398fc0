//===- enzyme_bridge/analysis/CopySteps.h - Word copies out of step -*- C++ -*-===//
//
// Code copies floats as integers: a helper that moves words or bytes from
// one buffer to another (`d[i] = s[i]` over `uint32_t *`), which the
// forward derivative mirrors on the shadows. That keeps each float's
// tangent while every byte lands at the same place in its float as it
// came from. A copy from byte 4 of a double array into the start of
// another, or one that reverses the bytes (`d[i] = s[7 - i]`), makes
// floats of parts of floats: the moved tangent bytes are no tangent.
//
// For each integer store of a value loaded as it is, where the memory on
// both sides holds floats of one size at known places (in this function's
// own analysis or in what its caller said of its parameters): whether the
// distance between the two bytes' places in their floats is a multiple of
// the float's size on every iteration (scalar evolution).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_ANALYSIS_COPYSTEPS_H
#define AUTODIFF_ENZYME_BRIDGE_ANALYSIS_COPYSTEPS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace autodiff {

class TypeInfo;

/// The stores of `f` that copy a loaded integer out of step with the
/// floats on the two sides, each with what is wrong ("byte 0 of a double
/// lands at byte 4 of one"). `types` (`f`'s analysis) is asked for only
/// when `f` has such a copy.
llvm::DenseMap<const llvm::Instruction *, std::string>
CopiesOutOfStep(llvm::Function &f,
                llvm::function_ref<const TypeInfo &()> types);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_ANALYSIS_COPYSTEPS_H
