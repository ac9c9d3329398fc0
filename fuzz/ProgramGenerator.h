//===- fuzz/ProgramGenerator.h - Random differentiable modules -*- C++ -*-===//
//
// fuzz_request's structure-aware generator: from the fuzzer's bytes, a
// module (LLVM IR text) with a function of arrays and a scalar built from
// straight-line arithmetic, math intrinsics, calls to generated helpers
// (some `noinline`), a stack array, loops with a runtime trip count (an
// early exit, a branch on data, in-place updates), and a caller that asks
// for its derivatives with random activities: reverse mode (combined, and
// split for a void function), forward mode, forward with enzyme_width 2.
// Every module it makes parses and verifies.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_FUZZ_PROGRAMGENERATOR_H
#define AUTODIFF_FUZZ_PROGRAMGENERATOR_H

#include <fuzzer/FuzzedDataProvider.h>

#include <string>

namespace autodiff::fuzz {

std::string GenerateProgram(FuzzedDataProvider &in);

} // namespace autodiff::fuzz

#endif // AUTODIFF_FUZZ_PROGRAMGENERATOR_H
