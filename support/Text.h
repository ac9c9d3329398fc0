//===- support/Text.h - Multi-line diagnostic text -------------*- C++ -*-===//
//
// Diagnostics are one line per problem; lines that start with a space
// continue the problem above them (autodiff-opt prints them as they are,
// the plugin keeps them in the same diagnostic). Helpers to build such
// continuation lines from text produced elsewhere, e.g. the IR verifier.
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_SUPPORT_TEXT_H
#define AUTODIFF_SUPPORT_TEXT_H

#include <string>
#include <string_view>

namespace autodiff {

/// `text` as continuation lines: every non-empty line indented by two
/// spaces, joined by '\n', each preceded by '\n' (so the result can be
/// appended to a problem's first line). Empty lines are dropped.
inline std::string AsContinuationLines(std::string_view text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (line.find_first_not_of(" \t") != std::string_view::npos) {
      out += "\n  ";
      out += line;
    }
    start = end + 1;
  }
  return out;
}

} // namespace autodiff

#endif // AUTODIFF_SUPPORT_TEXT_H
