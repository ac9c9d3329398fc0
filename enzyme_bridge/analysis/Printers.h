//===- enzyme_bridge/analysis/Printers.h - Analysis printer passes ------*- C++ -*-===//
//
// Registers the core's printers with a PassBuilder so lit tests can show
// what each analysis concluded:
//   print<autodiff-activity>  ActivityInfo of every function
//   print<autodiff-types>     TypeInfo of every function
//   print<autodiff-requests>  each request call parsed, and the derivative
//                             cache after differentiating the module
//   print<autodiff-tape>      what each reverse-mode derivative caches
//                             for its reverse sweep, and why
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_PRINTERS_H
#define AUTODIFF_ENZYME_BRIDGE_PRINTERS_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace autodiff {

void RegisterAnalysisPrinters(llvm::PassBuilder &pb);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_PRINTERS_H
