//===- frontend/Signature.cpp - Source-level signatures -------------------===//
//
// The source type model and a small recursive-descent parser for the
// Rust-like signature syntax `name(a: &[f64], b: f64) -> f64`.
//
//===----------------------------------------------------------------------===//

#include "frontend/Signature.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

#include <algorithm>

namespace autodiff {

//===----------------------------------------------------------------------===//
// SourceType
//===----------------------------------------------------------------------===//

SourceType SourceType::Float(uint32_t bits) {
  SourceType t;
  t.kind = Kind::Float;
  t.bits = bits;
  return t;
}

SourceType SourceType::Int(uint32_t bits, bool is_signed) {
  SourceType t;
  t.kind = Kind::Int;
  t.bits = bits;
  t.is_signed = is_signed;
  return t;
}

bool SourceType::IsPointerLike() const {
  switch (kind) {
  case Kind::Ref:
  case Kind::MutRef:
  case Kind::ConstPtr:
  case Kind::MutPtr:
  case Kind::Slice:
  case Kind::MutSlice:
    return true;
  default:
    return false;
  }
}

unsigned SourceType::LlvmParamCount() const {
  switch (kind) {
  case Kind::Unit:
    return 0;
  case Kind::Slice:
  case Kind::MutSlice:
  case Kind::Pair:
    return 2;
  default:
    return 1;
  }
}

uint32_t SourceType::SizeInBytes() const {
  switch (kind) {
  case Kind::Unit:
  case Kind::Opaque:
    return 0;
  case Kind::Float:
  case Kind::Int:
    return bits / 8;
  case Kind::Bool:
    return 1;
  case Kind::Ref:
  case Kind::MutRef:
  case Kind::ConstPtr:
  case Kind::MutPtr:
    return 8;
  case Kind::Slice:
  case Kind::MutSlice:
    return 16;
  case Kind::Pair: {
    if (elems.size() != 2)
      return 0;
    uint32_t a = elems[0].SizeInBytes(), b = elems[1].SizeInBytes();
    if (a == 0 || b == 0)
      return 0;
    // Scalars are aligned to their size (capped at 16), as on x86-64.
    uint32_t align_b = std::min<uint32_t>(b, 16);
    uint32_t align = std::max<uint32_t>(std::min<uint32_t>(a, 16), align_b);
    uint32_t offset_b = (a + align_b - 1) / align_b * align_b;
    return (offset_b + b + align - 1) / align * align;
  }
  }
  return 0;
}

std::string SourceType::ToString() const {
  auto elem = [&](size_t i) {
    return i < elems.size() ? elems[i].ToString() : std::string("?");
  };
  switch (kind) {
  case Kind::Unit:
    return "()";
  case Kind::Float:
    return absl::StrCat("f", bits);
  case Kind::Int:
    if (is_pointer_sized)
      return is_signed ? "isize" : "usize";
    return absl::StrCat(is_signed ? "i" : "u", bits);
  case Kind::Bool:
    return "bool";
  case Kind::Ref:
    if (array_len)
      return absl::StrCat("&[", elem(0), "; ", array_len, "]");
    return absl::StrCat("&", elem(0));
  case Kind::MutRef:
    if (array_len)
      return absl::StrCat("&mut [", elem(0), "; ", array_len, "]");
    return absl::StrCat("&mut ", elem(0));
  case Kind::ConstPtr:
    return absl::StrCat("*const ", elem(0));
  case Kind::MutPtr:
    return absl::StrCat("*mut ", elem(0));
  case Kind::Slice:
    return absl::StrCat("&[", elem(0), "]");
  case Kind::MutSlice:
    return absl::StrCat("&mut [", elem(0), "]");
  case Kind::Pair:
    return absl::StrCat("(", elem(0), ", ", elem(1), ")");
  case Kind::Opaque:
    return name.empty() ? "opaque" : name;
  }
  return "?";
}

bool SourceType::operator==(const SourceType &o) const {
  return kind == o.kind && bits == o.bits && is_signed == o.is_signed &&
         elems == o.elems && is_pointer_sized == o.is_pointer_sized &&
         array_len == o.array_len && name == o.name;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

/// Debian's Abseil has its own string_view type; these bridge to it.
absl::string_view Sv(std::string_view s) { return {s.data(), s.size()}; }
std::string_view Std(absl::string_view s) { return {s.data(), s.size()}; }

/// `s` without leading and trailing whitespace.
std::string_view Trim(std::string_view s) {
  return Std(absl::StripAsciiWhitespace(Sv(s)));
}

bool IsIdentStart(char c) {
  return absl::ascii_isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool IsIdentChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
}

bool IsIdentifier(std::string_view s) {
  if (s.empty() || !IsIdentStart(s[0]))
    return false;
  return std::all_of(s.begin(), s.end(), IsIdentChar);
}

/// Reads types from a string; errors are reasons without the quoted input,
/// which the public entry points add.
class TypeCursor {
public:
  explicit TypeCursor(std::string_view text) : text_(text) {}

  bool AtEnd() {
    SkipSpace();
    return pos_ >= text_.size();
  }
  std::string_view Rest() const { return text_.substr(pos_); }

  absl::StatusOr<SourceType> ParseType() {
    // Types nest by recursion: bound it so hostile input cannot exhaust
    // the stack.
    if (depth_ >= kMaxDepth)
      return Error(absl::StrCat("type nested deeper than ", kMaxDepth,
                                " levels"));
    ++depth_;
    absl::StatusOr<SourceType> t = ParseTypeUnbounded();
    --depth_;
    return t;
  }

private:
  static constexpr int kMaxDepth = 64;
  int depth_ = 0;

  absl::StatusOr<SourceType> ParseTypeUnbounded() {
    SkipSpace();
    if (pos_ >= text_.size())
      return Error("expected a type");
    char c = text_[pos_];
    if (c == '&')
      return ParseReference();
    if (c == '*')
      return ParseRawPointer();
    if (c == '(')
      return ParseTuple();
    if (IsIdentStart(c))
      return ParseNamed();
    return Error(absl::StrCat("unexpected `", Sv(Rest()), "`"));
  }

private:
  static absl::Status Error(std::string_view reason) {
    return absl::InvalidArgumentError(Sv(reason));
  }

  void SkipSpace() {
    while (pos_ < text_.size() &&
           absl::ascii_isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }

  bool Consume(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  /// Consumes the keyword `kw` if it is the next whole word.
  bool ConsumeKeyword(std::string_view kw) {
    SkipSpace();
    std::string_view rest = Rest();
    if (rest.substr(0, kw.size()) != kw)
      return false;
    if (rest.size() > kw.size() && IsIdentChar(rest[kw.size()]))
      return false;
    pos_ += kw.size();
    return true;
  }

  std::string_view ReadIdent() {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() && IsIdentChar(text_[pos_]))
      ++pos_;
    return text_.substr(start, pos_ - start);
  }

  static SourceType Wrap(SourceType::Kind kind, SourceType inner) {
    SourceType t;
    t.kind = kind;
    t.elems.push_back(std::move(inner));
    return t;
  }

  absl::StatusOr<SourceType> ParseReference() {
    ++pos_; // '&'
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '\'') { // A lifetime: `&'a T`.
      ++pos_;
      if (ReadIdent().empty())
        return Error("expected a lifetime name after `'`");
    }
    bool is_mut = ConsumeKeyword("mut");
    if (Consume('[')) {
      auto elem = ParseType();
      if (!elem.ok())
        return elem.status();
      if (Consume(';')) // An array, `&[f64; 4]`: one pointer.
        return ParseArrayLength(is_mut, *std::move(elem));
      if (!Consume(']'))
        return Error("expected `]` to close the slice type");
      return Wrap(is_mut ? SourceType::Kind::MutSlice : SourceType::Kind::Slice,
                  *std::move(elem));
    }
    auto pointee = ParsePointee();
    if (!pointee.ok())
      return pointee.status();
    return Wrap(is_mut ? SourceType::Kind::MutRef : SourceType::Kind::Ref,
                *std::move(pointee));
  }

  absl::StatusOr<SourceType> ParseArrayLength(bool is_mut, SourceType elem) {
    SkipSpace();
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
      ++pos_;
    std::string_view digits = text_.substr(start, pos_ - start);
    uint64_t n = 0;
    if (digits.empty() || digits.size() > 18 ||
        !absl::SimpleAtoi(absl::string_view(digits.data(), digits.size()),
                          &n) ||
        n == 0)
      return Error("expected a positive array length after `;`");
    if (!Consume(']'))
      return Error("expected `]` to close the array type");
    SourceType t =
        Wrap(is_mut ? SourceType::Kind::MutRef : SourceType::Kind::Ref,
             std::move(elem));
    t.array_len = n;
    return t;
  }

  /// What a reference or raw pointer points to: any type, or a user type
  /// by name (`&Params`), opaque behind the pointer. User types are
  /// CamelCase, as Rust writes structs and enums; no built-in type is.
  absl::StatusOr<SourceType> ParsePointee() {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] < 'A' || text_[pos_] > 'Z')
      return ParseType();
    SourceType t;
    t.kind = SourceType::Kind::Opaque;
    t.name = std::string(ReadIdent());
    return t;
  }

  absl::StatusOr<SourceType> ParseRawPointer() {
    ++pos_; // '*'
    SourceType::Kind kind;
    if (ConsumeKeyword("const"))
      kind = SourceType::Kind::ConstPtr;
    else if (ConsumeKeyword("mut"))
      kind = SourceType::Kind::MutPtr;
    else
      return Error("expected `const` or `mut` after `*`");
    auto pointee = ParsePointee();
    if (!pointee.ok())
      return pointee.status();
    return Wrap(kind, *std::move(pointee));
  }

  absl::StatusOr<SourceType> ParseTuple() {
    ++pos_; // '('
    if (Consume(')'))
      return SourceType::Unit();
    std::vector<SourceType> elems;
    do {
      if (Consume(')')) // A trailing comma: `(f64, f64,)`.
        break;
      auto elem = ParseType();
      if (!elem.ok())
        return elem.status();
      elems.push_back(*std::move(elem));
      if (Consume(')'))
        break;
      if (!Consume(','))
        return Error("expected `,` or `)` in a tuple type");
    } while (true);
    if (elems.size() != 2)
      return Error(absl::StrCat("only pairs are supported, found a tuple of ",
                                elems.size()));
    for (const SourceType &e : elems) {
      bool scalar = e.kind == SourceType::Kind::Float ||
                    e.kind == SourceType::Kind::Int ||
                    e.kind == SourceType::Kind::Bool;
      if (!scalar)
        return Error(absl::StrCat("a pair must hold two scalars, found `",
                                  e.ToString(), "`"));
    }
    SourceType t;
    t.kind = SourceType::Kind::Pair;
    t.elems = std::move(elems);
    return t;
  }

  absl::StatusOr<SourceType> ParseNamed() {
    std::string_view name = ReadIdent();
    if (name == "f32")
      return SourceType::Float(32);
    if (name == "f64")
      return SourceType::Float(64);
    if (name == "bool") {
      SourceType t;
      t.kind = SourceType::Kind::Bool;
      return t;
    }
    if (name == "isize" || name == "usize") {
      SourceType t = SourceType::Int(64, name[0] == 'i');
      t.is_pointer_sized = true;
      return t;
    }
    if (name == "opaque" || name == "c_void") {
      SourceType t;
      t.kind = SourceType::Kind::Opaque;
      return t;
    }
    if (name.size() >= 2 && (name[0] == 'i' || name[0] == 'u')) {
      std::string_view digits = name.substr(1);
      for (uint32_t bits : {8u, 16u, 32u, 64u, 128u})
        if (digits == absl::StrCat(bits))
          return SourceType::Int(bits, name[0] == 'i');
    }
    return Error(absl::StrCat("unknown type `", Sv(name), "`"));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

absl::Status TypeError(std::string_view text, const absl::Status &why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "could not parse type `", Sv(Trim(text)), "`: ", why.message()));
}

absl::Status SignatureError(std::string_view text, std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "could not parse signature `", Sv(Trim(text)), "`: ", Sv(why)));
}

/// Splits `text` at commas outside parentheses and brackets.
std::vector<std::string_view> SplitTopLevel(std::string_view text) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    else if (c == ',' && depth == 0) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

/// Parses one parameter: `x: T`, `mut x: T`, `_: T` or just `T`.
absl::StatusOr<SourceParam> ParseParam(std::string_view text) {
  SourceParam param;
  std::string_view type_text = text;
  size_t colon = text.find(':');
  if (colon != std::string_view::npos) {
    std::string_view name = Trim(text.substr(0, colon));
    if (name.substr(0, 4) == "mut " || name.substr(0, 4) == "mut\t")
      name = Trim(name.substr(4));
    if (!IsIdentifier(name))
      return absl::InvalidArgumentError(
          absl::StrCat("invalid parameter name `", Sv(name), "`"));
    param.name = std::string(name);
    type_text = text.substr(colon + 1);
  }
  auto type = ParseSourceType(type_text);
  if (!type.ok())
    return type.status();
  param.type = *std::move(type);
  return param;
}

} // namespace

absl::StatusOr<SourceType> ParseSourceType(std::string_view text) {
  TypeCursor cursor(text);
  auto type = cursor.ParseType();
  if (!type.ok())
    return TypeError(text, type.status());
  if (!cursor.AtEnd())
    return TypeError(text, absl::InvalidArgumentError(absl::StrCat(
                               "unexpected `", Sv(cursor.Rest()), "`")));
  return type;
}

absl::StatusOr<SourceSignature> ParseSourceSignature(std::string_view text) {
  std::string_view trimmed = Trim(text);
  size_t open = trimmed.find('(');
  if (open == std::string_view::npos)
    return SignatureError(text, "expected `(` after the function name");
  SourceSignature sig;
  std::string_view name = Trim(trimmed.substr(0, open));
  if (name.empty())
    return SignatureError(text, "missing the function name");
  if (std::any_of(name.begin(), name.end(), [](char c) {
        return absl::ascii_isspace(static_cast<unsigned char>(c)) || c == ')' ||
               c == ',' || c == '=';
      }))
    return SignatureError(
        text, absl::StrCat("invalid function name `", Sv(name), "`"));
  sig.name = std::string(name);

  // Find the parenthesis closing the parameter list.
  int depth = 0;
  size_t close = std::string_view::npos;
  for (size_t i = open; i < trimmed.size(); ++i) {
    if (trimmed[i] == '(') {
      ++depth;
    } else if (trimmed[i] == ')') {
      if (--depth == 0) {
        close = i;
        break;
      }
    }
  }
  if (close == std::string_view::npos)
    return SignatureError(text, "missing `)` after the parameters");

  std::string_view params = trimmed.substr(open + 1, close - open - 1);
  if (!Trim(params).empty()) {
    std::vector<std::string_view> parts = SplitTopLevel(params);
    for (size_t i = 0; i < parts.size(); ++i) {
      std::string_view part = Trim(parts[i]);
      if (part.empty()) {
        if (i + 1 == parts.size() && i > 0)
          break; // A trailing comma.
        return SignatureError(text,
                              absl::StrCat("parameter #", i + 1, " is empty"));
      }
      auto param = ParseParam(part);
      if (!param.ok())
        return SignatureError(text, Std(param.status().message()));
      sig.params.push_back(*std::move(param));
    }
  }

  std::string_view rest = Trim(trimmed.substr(close + 1));
  if (rest.empty())
    return sig;
  if (rest.substr(0, 2) != "->")
    return SignatureError(
        text, absl::StrCat("unexpected `", Sv(rest), "` after the parameters"));
  auto ret = ParseSourceType(rest.substr(2));
  if (!ret.ok())
    return SignatureError(
        text, absl::StrCat("return type: ", ret.status().message()));
  sig.ret = *std::move(ret);
  return sig;
}

} // namespace autodiff
