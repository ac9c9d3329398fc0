//===- frontend/Parser.cpp - Autodiff attribute syntax --------------------===//
//
// `autodiff_reverse(d_f, Duplicated, Active)`,
// `autodiff_forward(d_f, 2, Dual, Dual)` and the command-line form
// `SOURCE=ATTR` / `SIGNATURE=ATTR`.
//
//===----------------------------------------------------------------------===//

#include "frontend/Parser.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

#include <algorithm>

namespace autodiff {

namespace {

/// Debian's Abseil has its own string_view type; these bridge to it.
absl::string_view Sv(std::string_view s) { return {s.data(), s.size()}; }
std::string_view Std(absl::string_view s) { return {s.data(), s.size()}; }

/// `s` without leading and trailing whitespace.
std::string_view Trim(std::string_view s) {
  return Std(absl::StripAsciiWhitespace(Sv(s)));
}

absl::Status Invalid(std::string_view message) {
  return absl::InvalidArgumentError(Sv(message));
}

bool IsSpace(char c) {
  return absl::ascii_isspace(static_cast<unsigned char>(c));
}

bool IsWordChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// A derivative name: an identifier, also allowing `.` and `$` as LLVM
/// symbol names do.
bool IsFunctionName(std::string_view s) {
  if (s.empty() || absl::ascii_isdigit(static_cast<unsigned char>(s[0])))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return IsWordChar(c) || c == '.' || c == '$';
  });
}

/// Parses the optional width argument. Only called for arguments that look
/// numeric (start with a digit or a sign).
absl::StatusOr<uint32_t> ParseWidth(std::string_view arg) {
  uint32_t width = 0;
  bool digits_only = std::all_of(arg.begin(), arg.end(), [](char c) {
    return absl::ascii_isdigit(static_cast<unsigned char>(c));
  });
  if (!digits_only || !absl::SimpleAtoi(Sv(arg), &width) || width == 0)
    return Invalid(absl::StrCat("invalid width `", Sv(arg),
                                "`: expected a positive integer"));
  return width;
}

bool LooksNumeric(std::string_view arg) {
  return !arg.empty() &&
         (absl::ascii_isdigit(static_cast<unsigned char>(arg[0])) ||
          arg[0] == '-' || arg[0] == '+');
}

} // namespace

absl::StatusOr<ParsedAttribute> ParseAutodiffAttribute(std::string_view text) {
  std::string_view s = Trim(text);

  // The mode.
  size_t mode_end = 0;
  while (mode_end < s.size() && IsWordChar(s[mode_end]))
    ++mode_end;
  std::string_view mode_name = s.substr(0, mode_end);
  ParsedAttribute attr;
  if (mode_name == "autodiff_forward")
    attr.mode = DiffMode::Forward;
  else if (mode_name == "autodiff_reverse")
    attr.mode = DiffMode::Reverse;
  else if (s.empty())
    return Invalid("expected autodiff_forward or autodiff_reverse, found "
                   "nothing");
  else
    return Invalid(
        absl::StrCat("expected autodiff_forward or autodiff_reverse, found `",
                     Sv(mode_name.empty() ? s : mode_name), "`"));

  // The parenthesized argument list.
  size_t open = mode_end;
  while (open < s.size() && IsSpace(s[open]))
    ++open;
  if (open >= s.size() || s[open] != '(')
    return Invalid(absl::StrCat("expected `(` after `", Sv(mode_name), "`"));
  size_t close = std::string_view::npos;
  for (size_t i = open + 1; i < s.size(); ++i) {
    if (s[i] == '(')
      return Invalid(absl::StrCat("unexpected `(` in the arguments of `",
                                  Sv(mode_name), "`"));
    if (s[i] == ')') {
      close = i;
      break;
    }
  }
  if (close == std::string_view::npos)
    return Invalid("unbalanced parentheses: missing `)`");
  std::string_view trailing = Trim(s.substr(close + 1));
  if (trailing.find(')') != std::string_view::npos)
    return Invalid("unbalanced parentheses: unexpected `)`");
  if (!trailing.empty())
    return Invalid(absl::StrCat("unexpected `", Sv(trailing),
                                "` after the closing parenthesis"));

  // The arguments.
  std::vector<std::string_view> args;
  std::string_view list = s.substr(open + 1, close - open - 1);
  for (size_t start = 0;;) {
    size_t comma = list.find(',', start);
    args.push_back(Trim(list.substr(start, comma - start)));
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  if (args.size() > 1 && args.back().empty())
    args.pop_back(); // A trailing comma, as Rust allows.
  if (args[0].empty())
    return Invalid(absl::StrCat(
        "missing target: expected the name of the derivative function after `",
        Sv(mode_name), "(`"));
  if (!IsFunctionName(args[0]))
    return Invalid(absl::StrCat("invalid target `", Sv(args[0]),
                                "`: expected a function name"));
  attr.target = std::string(args[0]);

  size_t next = 1;
  if (next < args.size() && LooksNumeric(args[next])) {
    auto width = ParseWidth(args[next]);
    if (!width.ok())
      return width.status();
    attr.width = *width;
    ++next;
  }
  for (; next < args.size(); ++next) {
    std::string_view arg = args[next];
    if (arg.empty())
      return Invalid(absl::StrCat("argument #", next + 1, " is empty"));
    if (arg == ToString(DiffActivityKind::FakeActivitySize))
      return Invalid("FakeActivitySize is internal and can not be written in "
                     "an attribute");
    std::optional<DiffActivityKind> kind = ActivityFromString(arg);
    if (!kind)
      return Invalid(
          absl::StrCat("did not recognize Activity: `", Sv(arg), "`"));
    attr.activities.push_back(DiffActivity(*kind));
  }
  return attr;
}

absl::StatusOr<AutodiffSpec> ParseAutodiffSpec(std::string_view text) {
  // Find the first `=` outside parentheses.
  int depth = 0;
  size_t eq = std::string_view::npos;
  for (size_t i = 0; i < text.size() && eq == std::string_view::npos; ++i) {
    char c = text[i];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if (c == '=' && depth == 0)
      eq = i;
  }
  if (eq == std::string_view::npos)
    return Invalid(absl::StrCat("expected SOURCE=autodiff_forward(...) or "
                                "SOURCE=autodiff_reverse(...), found `",
                                Sv(Trim(text)), "`"));

  AutodiffSpec spec;
  std::string_view left = Trim(text.substr(0, eq));
  if (left.empty())
    return Invalid("missing the source function name before `=`");
  if (left.find('(') != std::string_view::npos) {
    auto sig = ParseSourceSignature(left);
    if (!sig.ok())
      return sig.status();
    spec.source = sig->name;
    spec.signature = *std::move(sig);
  } else {
    if (std::any_of(left.begin(), left.end(),
                    [](char c) { return IsSpace(c) || c == ')'; }))
      return Invalid(
          absl::StrCat("invalid source function name `", Sv(left), "`"));
    spec.source = std::string(left);
  }

  auto attr = ParseAutodiffAttribute(text.substr(eq + 1));
  if (!attr.ok())
    return attr.status();
  spec.attr = *std::move(attr);
  return spec;
}

} // namespace autodiff
