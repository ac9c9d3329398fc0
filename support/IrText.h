//===- support/IrText.h - Checks on textual IR before LLVM parses it -*- C++ -*-===//
//
// LLVM 22's text parser reports a numbered value too large for 32 bits
// (`%9223372036854775807`) and then goes on parsing with the truncated
// number; `%4294967295` is the empty key of its table of numbered values,
// and the lookup reads freed or unmapped memory (a segfault in
// LLParser::checkValidVariableType, found by fuzz_ir). Every place that
// parses IR text a user gives us (autodiff-opt, the C API, the fuzzers)
// asks this check first and reports the same error LLVM would.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_SUPPORT_IRTEXT_H
#define AUTODIFF_SUPPORT_IRTEXT_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace autodiff {

/// Where a problem in IR text is: 1-based line and column.
struct IrTextPosition {
  unsigned line = 1;
  unsigned column = 1;
};

/// The first numbered value, global, attribute group or summary entry
/// (`%N`, `@N`, `#N`, `^N`) whose number does not fit in 32 bits, outside
/// comments and string literals; nothing for bitcode or when there is none.
inline std::optional<IrTextPosition>
FindOversizedNumberedId(std::string_view text) {
  if (text.size() >= 4 &&
      (text.substr(0, 4) == std::string_view("BC\xC0\xDE", 4) ||
       text.substr(0, 4) == std::string_view("\xDE\xC0\x17\x0B", 4)))
    return std::nullopt;
  IrTextPosition pos;
  size_t line_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++pos.line;
      line_start = i + 1;
    } else if (c == ';') {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '"') {
      // LLVM's strings escape a quote as \22: the next quote ends it.
      while (i + 1 < text.size() && text[i + 1] != '"') {
        if (text[++i] == '\n') {
          ++pos.line;
          line_start = i + 1;
        }
      }
      ++i;
    } else if ((c == '%' || c == '@' || c == '#' || c == '^') &&
               i + 1 < text.size() && text[i + 1] >= '0' &&
               text[i + 1] <= '9') {
      uint64_t value = 0;
      size_t j = i + 1;
      bool too_large = false;
      for (; j < text.size() && text[j] >= '0' && text[j] <= '9'; ++j) {
        if (!too_large)
          value = value * 10 + uint64_t(text[j] - '0');
        too_large |= value > UINT32_MAX;
      }
      if (too_large) {
        pos.column = unsigned(i - line_start + 1);
        return pos;
      }
      i = j - 1;
    }
  }
  return std::nullopt;
}

} // namespace autodiff

#endif // AUTODIFF_SUPPORT_IRTEXT_H
