//===- enzyme_bridge/requests/Registrations.h - C-level registration globals -*- C++ -*-===//
//
// C cannot attach metadata to a global, so a C program gives an active
// global its shadow with a registration global, in the style of the
// convention's other registrations:
//
//   double g, dg;
//   void *__enzyme_shadow_global_g[2] = {&g, &dg};
//
// The bridge translates each one into `!enzyme_shadow !{ptr @dg}` on `@g`
// before differentiating, so both forms are honoured by the same code. The
// C form is an array of two `void *`, one registration per global with a
// name of its own (the suffix is free; the global's name is the natural
// choice), as `__enzyme_register_derivative_NAME` is.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_REGISTRATIONS_H
#define AUTODIFF_ENZYME_BRIDGE_REGISTRATIONS_H

#include "absl/status/status.h"

namespace llvm {
class Module;
} // namespace llvm

namespace autodiff {

/// Prefix of the globals that register a shadow for a global.
inline constexpr const char *kShadowGlobalPrefix = "__enzyme_shadow_global";

/// Adds `!enzyme_shadow` to every global registered with a
/// `__enzyme_shadow_global*` global (kept in the module, like the other
/// registrations), then turns the constant expressions that use a global
/// with a shadow (either form) into instructions, whose shadows the
/// derivative computes like those of any address. InvalidArgument, one line per problem, for a
/// registration that is not `{&global, &shadow}` with two distinct,
/// writable globals of the same size, or that contradicts a shadow the
/// global already has.
absl::Status ApplyShadowRegistrations(llvm::Module &m);

/// Checks the other registration globals of the convention, which the core
/// reads where it needs them: `__enzyme_register_derivative*` must be
/// `{fn, derivative}`, `__enzyme_inactivefn*` must list functions and
/// `__enzyme_inactive_global*` global variables, and no function may have
/// two different derivatives (or gradient rules) registered.
/// InvalidArgument, one line per problem, naming the registration.
absl::Status CheckRuleRegistrations(llvm::Module &m);

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_REGISTRATIONS_H
