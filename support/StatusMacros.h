//===- support/StatusMacros.h - absl::Status helpers -----------*- C++ -*-===//
//
// Debian's Abseil 20220623 ships Status and StatusOr but no propagation
// macros. These two are all the project uses.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_SUPPORT_STATUSMACROS_H
#define AUTODIFF_SUPPORT_STATUSMACROS_H

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define AD_CONCAT_INNER_(a, b) a##b
#define AD_CONCAT_(a, b) AD_CONCAT_INNER_(a, b)

/// Evaluates an expression yielding absl::Status; returns it if not OK.
#define AD_RETURN_IF_ERROR(expr)                                               \
  do {                                                                         \
    ::absl::Status ad_status_ = (expr);                                        \
    if (!ad_status_.ok())                                                      \
      return ad_status_;                                                       \
  } while (false)

/// `AD_ASSIGN_OR_RETURN(auto x, MakeX());` unwraps a StatusOr or returns.
#define AD_ASSIGN_OR_RETURN(lhs, expr)                                         \
  AD_ASSIGN_OR_RETURN_IMPL_(AD_CONCAT_(ad_statusor_, __LINE__), lhs, expr)
#define AD_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr)                              \
  auto tmp = (expr);                                                           \
  if (!tmp.ok())                                                               \
    return tmp.status();                                                       \
  lhs = std::move(tmp).value()

#endif // AUTODIFF_SUPPORT_STATUSMACROS_H
