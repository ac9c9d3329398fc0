//===- enzyme_bridge/rules/Digamma.h - The derivative of lgamma -*- C++ -*-===//
//
// libm has lgamma and tgamma but not their derivative, digamma: both
// modes call one emitted helper.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_RULES_DIGAMMA_H
#define AUTODIFF_ENZYME_BRIDGE_RULES_DIGAMMA_H

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace autodiff {

/// `double __autodiff_digamma(double)`, emitted into `m` once (linkonce,
/// hidden): psi(x), the derivative of lgamma.
llvm::Function *DigammaFunction(llvm::Module &m);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_RULES_DIGAMMA_H
