//===- fuzz/FuzzAttribute.cpp - Fuzz the attribute parser and validation ===//
//
// Any byte string. The whole input is parsed as an attribute
// (`autodiff_reverse(...)`), as a command-line spec (`NAME(SIG)=ATTR`) and as
// a signature; an input with a newline is also taken as a signature line and
// an attribute line, validated together and planned for lowering. Errors
// are fine; crashes, sanitizer reports and these properties are findings:
//  - what parses prints back (ToString) to text that parses to the same;
//  - a valid item plans a lowering, or the plan's error names a reason.
//
//===----------------------------------------------------------------------===//
#include "frontend/Abi.h"
#include "frontend/Parser.h"
#include "frontend/Signature.h"
#include "frontend/Validate.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void Finding(const std::string &what, std::string_view input) {
  std::fprintf(stderr, "fuzz_attribute: %s\ninput: %.*s\n", what.c_str(),
               static_cast<int>(input.size()), input.data());
  std::abort();
}

/// A signature that parses prints back to text parsing to an equal one.
void CheckSignatureRoundTrip(const autodiff::SourceSignature &sig,
                             std::string_view input) {
  std::string text = sig.name + "(";
  for (size_t i = 0; i < sig.params.size(); ++i)
    text += (i ? ", " : "") + sig.params[i].type.ToString();
  text += ")";
  if (sig.ret.kind != autodiff::SourceType::Kind::Unit)
    text += " -> " + sig.ret.ToString();
  auto again = autodiff::ParseSourceSignature(text);
  if (!again.ok())
    Finding("printed signature `" + text + "` does not parse: " +
                std::string(again.status().message()),
            input);
  if (again->params.size() != sig.params.size() || again->ret != sig.ret)
    Finding("printed signature `" + text + "` parses differently", input);
  for (size_t i = 0; i < sig.params.size(); ++i)
    if (again->params[i].type != sig.params[i].type)
      Finding("printed signature `" + text + "` parses differently", input);
}

void CheckErrorHasMessage(const absl::Status &st, const char *what,
                          std::string_view input) {
  if (!st.ok() && st.message().empty())
    Finding(std::string(what) + " failed without a message", input);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view input(reinterpret_cast<const char *>(data), size);
  auto attr = autodiff::ParseAutodiffAttribute(input);
  CheckErrorHasMessage(attr.status(), "ParseAutodiffAttribute", input);
  CheckErrorHasMessage(autodiff::ParseAutodiffSpec(input).status(),
                       "ParseAutodiffSpec", input);
  auto whole = autodiff::ParseSourceSignature(input);
  CheckErrorHasMessage(whole.status(), "ParseSourceSignature", input);
  if (whole.ok())
    CheckSignatureRoundTrip(*whole, input);

  size_t newline = input.find('\n');
  if (newline == std::string_view::npos)
    return 0;
  auto sig = autodiff::ParseSourceSignature(input.substr(0, newline));
  auto item_attr = autodiff::ParseAutodiffAttribute(input.substr(newline + 1));
  if (!sig.ok() || !item_attr.ok())
    return 0;
  auto item = autodiff::MakeAutoDiffItem(*sig, *item_attr);
  CheckErrorHasMessage(item.status(), "MakeAutoDiffItem", input);
  if (!item.ok())
    return 0;
  if (absl::Status st = autodiff::ValidateAutoDiffItem(*sig, *item); !st.ok())
    Finding("MakeAutoDiffItem's item fails ValidateAutoDiffItem: " +
                std::string(st.message()),
            input);
  auto plan = autodiff::PlanLowering(*sig, *item);
  CheckErrorHasMessage(plan.status(), "PlanLowering", input);
  (void)autodiff::ToString(*item);
  return 0;
}
