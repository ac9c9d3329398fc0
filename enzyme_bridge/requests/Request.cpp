//===- enzyme_bridge/Request.cpp - Differentiation requests ---------------===//
#include "enzyme_bridge/requests/Request.h"

#include "llvm/IR/Function.h"

namespace autodiff {

static const char *ArgName(ArgActivity a) {
  switch (a) {
  case ArgActivity::Const:
    return "const";
  case ArgActivity::Dup:
    return "dup";
  case ArgActivity::DupNoNeed:
    return "dupnoneed";
  case ArgActivity::Out:
    return "out";
  }
  return "?";
}

std::string DiffRequest::ToString() const {
  static const char *const kPrefix[] = {"fwd(", "rev(", "aug(", "revsplit("};
  std::string s = kPrefix[static_cast<int>(mode)];
  s += fn ? fn->getName().str() : "<null>";
  s += ")[";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i)
      s += ",";
    s += ArgName(args[i]);
  }
  s += "]w" + std::to_string(width);
  if (return_primal)
    s += "+primal";
  if (return_tangent)
    s += mode == Mode::Forward ? "+tangent" : "+dret";
  if (tape_in_buffer)
    s += "+buffer";
  for (size_t i = 0; i < arg_types.size(); ++i)
    if (!arg_types[i].empty())
      s += " arg" + std::to_string(i) + ":" + arg_types[i];
  return s;
}

std::string DiffRequest::DerivativeName() const {
  static const char *const kPrefix[] = {"fwddiffe", "diffe", "augmented",
                                        "reversee"};
  std::string s = kPrefix[static_cast<int>(mode)];
  if (width > 1)
    s += std::to_string(width);
  if (tape_in_buffer)
    s += "_inbuffer";
  s += "_";
  s += fn ? fn->getName().str() : "null";
  return s;
}

llvm::hash_code hash_value(const DiffRequest &r) {
  llvm::hash_code args = llvm::hash_combine_range(r.args.begin(), r.args.end());
  llvm::hash_code types =
      llvm::hash_combine_range(r.arg_types.begin(), r.arg_types.end());
  return llvm::hash_combine(r.fn, static_cast<int>(r.mode), args, r.width,
                            r.return_primal, r.return_tangent, types,
                            r.tape_in_buffer);
}

} // namespace autodiff
