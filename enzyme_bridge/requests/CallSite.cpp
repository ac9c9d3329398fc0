//===- enzyme_bridge/CallSite.cpp - Parsing __enzyme_* calls --------------===//
//
// Operands after the function are read left to right: a marker (in any of
// its three forms) sets the activity of the next parameter; a parameter
// without marker gets the convention's default (integers const, floats dup
// in forward mode and out in reverse mode, pointers dup). Option markers
// (`enzyme_width N`, `enzyme_primal_return`, ...) may appear before the
// first parameter.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/requests/CallSite.h"

#include "enzyme_bridge/Diagnostics.h"
#include "support/StatusMacros.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace autodiff {

static std::string TypeText(Type &t) {
  std::string s;
  raw_string_ostream os(s);
  t.print(os);
  return s;
}

std::optional<Mode> RequestModeOf(const CallBase &call) {
  const Value *callee = call.getCalledOperand()->stripPointerCasts();
  const auto *f = dyn_cast<Function>(callee);
  if (!f)
    return std::nullopt;
  return RequestModeOfName(f->getName());
}

std::optional<Mode> RequestModeOfName(StringRef name) {
  if (name.contains("__enzyme_fwddiff"))
    return Mode::Forward;
  if (name.contains("__enzyme_autodiff"))
    return Mode::Reverse;
  if (name.contains("__enzyme_augmentfwd") ||
      name.contains("__enzyme_augmentsize"))
    return Mode::Augmented;
  if (name.contains("__enzyme_reverse"))
    return Mode::SplitReverse;
  return std::nullopt;
}

bool IsTapeSizeQuery(const CallBase &call) {
  const auto *f =
      dyn_cast<Function>(call.getCalledOperand()->stripPointerCasts());
  return f && f->getName().contains("__enzyme_augmentsize");
}

/// The entry point's name, for messages.
static const char *EntryName(Mode mode, bool size_query) {
  switch (mode) {
  case Mode::Forward:
    return "__enzyme_fwddiff";
  case Mode::Reverse:
    return "__enzyme_autodiff";
  case Mode::Augmented:
    return size_query ? "__enzyme_augmentsize" : "__enzyme_augmentfwd";
  case Mode::SplitReverse:
    return "__enzyme_reverse";
  }
  return "?";
}

/// Strips LLVM's ".N" uniquing suffix from a global's name.
static StringRef StripUniquingSuffix(StringRef name) {
  size_t dot = name.rfind('.');
  if (dot != StringRef::npos && dot + 1 < name.size() &&
      name.drop_front(dot + 1).find_first_not_of("0123456789") ==
          StringRef::npos)
    return name.take_front(dot);
  return name;
}

std::optional<std::string> MarkerName(const Value *v) {
  if (!v)
    return std::nullopt;
  if (const auto *mav = dyn_cast<MetadataAsValue>(v)) {
    if (const auto *s = dyn_cast<MDString>(mav->getMetadata()))
      if (s->getString().starts_with("enzyme_"))
        return s->getString().str();
    return std::nullopt;
  }
  const Value *stripped = v->stripPointerCasts();
  if (const auto *load = dyn_cast<LoadInst>(stripped))
    stripped = load->getPointerOperand()->stripPointerCasts();
  if (const auto *gv = dyn_cast<GlobalVariable>(stripped)) {
    StringRef name = StripUniquingSuffix(gv->getName());
    if (name.starts_with("enzyme_"))
      return name.str();
  }
  return std::nullopt;
}

namespace {

/// Reads operands of one request call.
class Reader {
public:
  explicit Reader(CallBase &call) : call_(call) {
    begin_ = 0;
    // An sret result pointer comes first (clang for large struct returns).
    if (call.arg_size() > 0 && call.paramHasAttr(0, Attribute::StructRet))
      begin_ = 1;
    pos_ = begin_ + 1; // Skip the function.
  }

  absl::Status Error(const std::string &msg) const {
    return ErrorAt(absl::StatusCode::kInvalidArgument, call_, msg);
  }

  bool AtEnd() const { return pos_ >= call_.arg_size(); }
  Value *Peek() const { return call_.getArgOperand(pos_); }
  Value *Next() { return call_.getArgOperand(pos_++); }
  unsigned Pos() const { return pos_; }
  unsigned Begin() const { return begin_; }

private:
  CallBase &call_;
  unsigned begin_;
  unsigned pos_;
};

enum class MarkerKind {
  Const,
  Dup,
  DupNoNeed,
  Out,
  Width,
  PrimalReturn,
  ConstReturn,
  NoReturn,
  Seed,
  Allocated,
  Tape,
  Unknown,
};

MarkerKind ClassifyMarker(StringRef name) {
  return StringSwitch<MarkerKind>(name)
      .Case("enzyme_const", MarkerKind::Const)
      .Case("enzyme_dup", MarkerKind::Dup)
      .Case("enzyme_dupnoneed", MarkerKind::DupNoNeed)
      .Case("enzyme_out", MarkerKind::Out)
      .Case("enzyme_width", MarkerKind::Width)
      .Case("enzyme_primal_return", MarkerKind::PrimalReturn)
      .Case("enzyme_const_return", MarkerKind::ConstReturn)
      .Case("enzyme_noret", MarkerKind::NoReturn)
      .Case("enzyme_seed", MarkerKind::Seed)
      .Case("enzyme_allocated", MarkerKind::Allocated)
      .Case("enzyme_tape", MarkerKind::Tape)
      .Default(MarkerKind::Unknown);
}

bool IsFloatLike(Type *t) { return t->getScalarType()->isFloatingPointTy(); }

/// Metadata as written in IR, for messages (`!"s"`, `i32 7`, `!{...}`).
std::string MetadataToString(const Metadata *md, unsigned depth = 0) {
  if (!md)
    return "null";
  if (const auto *str = dyn_cast<MDString>(md))
    return "!\"" + str->getString().str() + "\"";
  if (const auto *vam = dyn_cast<ValueAsMetadata>(md))
    return ValueToString(*vam->getValue(), 80);
  if (const auto *tuple = dyn_cast<MDTuple>(md)) {
    if (depth > 2)
      return "!{...}";
    std::string s = "!{";
    for (unsigned i = 0; i < tuple->getNumOperands(); ++i)
      s += (i ? ", " : "") + MetadataToString(tuple->getOperand(i), depth + 1);
    return s + "}";
  }
  return "a metadata node";
}

/// Why a metadata operand that is no marker is malformed, e.g. for
/// `metadata !{i32 7}` or `metadata !"dup"`. Metadata is never a value
/// (no parameter has the metadata type), so it can only mean a marker.
std::string MalformedMarker(const MetadataAsValue &mav, unsigned operand) {
  std::string s = "malformed marker at operand " + std::to_string(operand) +
                  " (the function is operand 0): found `metadata " +
                  MetadataToString(mav.getMetadata()) + "`, but a marker in metadata form is a "
                  "string naming it, such as `metadata !\"enzyme_dup\"`";
  const Metadata *md = mav.getMetadata();
  if (const auto *str = dyn_cast<MDString>(md))
    return s + "; `" + str->getString().str() +
           "` is not a marker name (markers start with `enzyme_`: "
           "enzyme_const, enzyme_dup, enzyme_dupnoneed, enzyme_out, "
           "enzyme_width, enzyme_primal_return, enzyme_const_return, "
           "enzyme_noret)";
  if (const auto *tuple = dyn_cast<MDTuple>(md))
    if (tuple->getNumOperands() == 1)
      if (const auto *str = dyn_cast_or_null<MDString>(tuple->getOperand(0)))
        return s + " (write `metadata !\"" + str->getString().str() +
               "\"`, without the braces)";
  return s;
}

/// The activity of parameter `param` of `fn`: the marker's, or the
/// convention's default (integers const, floats dup in forward mode and
/// out in reverse mode, the rest dup); enzyme_out only where it fits.
absl::StatusOr<ArgActivity> ResolveActivity(const Reader &r,
                                            std::optional<ArgActivity> act,
                                            Mode mode, const Function &fn,
                                            unsigned param) {
  Type *pty = fn.getFunctionType()->getParamType(param);
  if (!act) {
    if (pty->isIntOrIntVectorTy())
      act = ArgActivity::Const;
    else if (IsFloatLike(pty))
      act = mode == Mode::Forward ? ArgActivity::Dup : ArgActivity::Out;
    else
      act = ArgActivity::Dup;
  }
  if (*act == ArgActivity::Out && mode == Mode::Forward)
    return r.Error("enzyme_out is not valid in forward mode (parameter " +
                   std::to_string(param) + " of `" + fn.getName().str() +
                   "`); use enzyme_dup with a tangent");
  if (*act == ArgActivity::Out && !IsFloatLike(pty) && !pty->isStructTy() &&
      !pty->isArrayTy())
    return r.Error("enzyme_out on parameter " + std::to_string(param) +
                   " of `" + fn.getName().str() + "`, which has type `" +
                   TypeText(*pty) +
                   "`; only floating-point values can be active");
  return *act;
}

/// What the derivative returns, from the markers and the return type.
void SetReturnFlags(RequestCall &rc, bool constReturn, bool noReturn) {
  DiffRequest &req = rc.request;
  Type *retTy = req.fn->getReturnType();
  bool differentiableRet = !retTy->isVoidTy() && !retTy->isIntOrIntVectorTy();
  // Forward: the tangent of the result is returned. Reverse: the result is
  // an active output, seeded with 1.0 (or `enzyme_seed`). `enzyme_noret`
  // only drops the primal result, as in Enzyme; the derivative part stays.
  req.return_tangent = differentiableRet && !constReturn &&
                       !(req.mode != Mode::Forward && retTy->isPointerTy());
  if (noReturn)
    req.return_primal = false;
  if (rc.implicit_sret)
    rc.implicit_sret_primal = req.return_primal;
  // A split derivative's augmented half returns the primal result always:
  // both halves' requests are the same without the flag.
  if (retTy->isVoidTy() || req.mode == Mode::Augmented ||
      req.mode == Mode::SplitReverse)
    req.return_primal = false;
}

/// The operands of a split request after its parameters: the reverse
/// half's differential return (when the return is active) and its tape
/// (unless `enzyme_tape` gave a buffer).
absl::Status ReadSplitTail(Reader &r, RequestCall &rc) {
  if (rc.request.mode == Mode::SplitReverse) {
    if (rc.request.return_tangent) {
      unsigned left = rc.call->arg_size() - r.Pos();
      if (r.AtEnd() || (left == 1 && !rc.tape_buffer))
        return r.Error("__enzyme_reverse of `" +
                       rc.request.fn->getName().str() +
                       "` is missing the differential return (after the "
                       "arguments, before the tape)");
      rc.seeds.push_back(r.Next());
    }
    if (!rc.tape_buffer) {
      if (r.AtEnd())
        return r.Error("__enzyme_reverse of `" +
                       rc.request.fn->getName().str() +
                       "` is missing the tape (the last operand: the value "
                       "__enzyme_augmentfwd returned)");
      rc.tape_operand = r.Pos();
      r.Next();
    }
  }
  if (!r.AtEnd())
    return r.Error("too many arguments: `" + rc.request.fn->getName().str() +
                   "` takes " +
                   std::to_string(rc.request.fn->arg_size()) +
                   " parameters; extra operand `" + ValueToString(*r.Peek()) +
                   "`");
  return absl::OkStatus();
}

/// `__enzyme_augmentsize(f, markers...)`: the activities only.
absl::Status ReadSizeQuery(Reader &r, RequestCall &rc) {
  unsigned activities = 0;
  bool constReturn = false, noReturn = false;
  DiffRequest &req = rc.request;
  // The request of the `__enzyme_augmentfwd` whose tape goes into the
  // buffer this sizes: the same activities and return.
  req.tape_in_buffer = true;
  while (!r.AtEnd()) {
    Value *v = r.Next();
    std::optional<std::string> marker = MarkerName(v);
    MarkerKind kind =
        marker ? ClassifyMarker(*marker) : MarkerKind::Unknown;
    if (kind == MarkerKind::Unknown)
      return r.Error("__enzyme_augmentsize takes the function and its "
                     "activity markers only (enzyme_dup, enzyme_const, ...); "
                     "found `" + ValueToString(*v) + "`");
    constReturn |= kind == MarkerKind::ConstReturn;
    noReturn |= kind == MarkerKind::NoReturn;
    bool activity = kind == MarkerKind::Const || kind == MarkerKind::Dup ||
                    kind == MarkerKind::DupNoNeed || kind == MarkerKind::Out;
    if (!activity)
      continue;
    ++activities;
    req.args.push_back(kind == MarkerKind::Const ? ArgActivity::Const
                       : kind == MarkerKind::Dup ? ArgActivity::Dup
                       : kind == MarkerKind::DupNoNeed
                           ? ArgActivity::DupNoNeed
                           : ArgActivity::Out);
  }
  SetReturnFlags(rc, constReturn, noReturn);
  unsigned nparams = rc.request.fn->arg_size();
  if (activities != nparams)
    return r.Error("__enzyme_augmentsize of `" +
                   rc.request.fn->getName().str() + "` gives " +
                   std::to_string(activities) + " activit" +
                   (activities == 1 ? "y" : "ies") + " for " +
                   std::to_string(nparams) + " parameter" +
                   (nparams == 1 ? "" : "s") +
                   " (one marker per parameter, as __enzyme_augmentfwd "
                   "takes them)");
  return absl::OkStatus();
}

/// What the option markers before the arguments set.
struct MarkerOptions {
  unsigned width = 1;
  bool width_given = false;
  bool const_return = false, no_return = false;
};

/// Reads the operands of an option marker (`enzyme_width N`,
/// `enzyme_seed v`, `enzyme_allocated n`, ...): true when `kind` is one,
/// false for an activity marker (whose value the caller reads).
absl::StatusOr<bool> ReadOptionMarker(Reader &r, MarkerKind kind,
                                      const std::string &marker, bool split,
                                      bool seenParam, RequestCall &rc,
                                      MarkerOptions &o) {
  switch (kind) {
  case MarkerKind::Unknown:
    return r.Error("unknown marker `" + marker + "` (operand " +
                   std::to_string(r.Pos() - 1) + ")");
  case MarkerKind::Width: {
    if (r.AtEnd())
      return r.Error("enzyme_width must be followed by a constant width");
    // Compared as the constant's own bit width: an i128 of 2^64 + 2 is
    // no width 2.
    auto *ci = dyn_cast<ConstantInt>(r.Next());
    if (!ci || ci->isZero() || ci->getValue().ugt(64))
      return r.Error(
          "enzyme_width must be followed by a constant between 1 and 64");
    if (seenParam)
      return r.Error("enzyme_width must come before the arguments");
    if (o.width_given)
      return r.Error("enzyme_width is given twice");
    if (!rc.seeds.empty() && !ci->isOne())
      return r.Error("enzyme_width must come before enzyme_seed, which then "
                     "takes one seed per lane");
    o.width = static_cast<unsigned>(ci->getZExtValue());
    o.width_given = true;
    return true;
  }
  case MarkerKind::PrimalReturn:
    rc.request.return_primal = true;
    return true;
  case MarkerKind::ConstReturn:
    o.const_return = true;
    return true;
  case MarkerKind::NoReturn:
    o.no_return = true;
    return true;
  case MarkerKind::Seed:
    if (rc.request.mode != Mode::Reverse)
      return r.Error("enzyme_seed (the seed of the differential return) is "
                     "only valid with __enzyme_autodiff; " +
                     std::string(rc.request.mode == Mode::Forward
                                     ? "forward mode seeds the inputs' "
                                       "tangents"
                                     : "__enzyme_reverse takes the "
                                       "differential return after the "
                                       "arguments"));
    if (!rc.seeds.empty())
      return r.Error("enzyme_seed is given twice");
    // Under enzyme_width N, one seed per lane, lane 0's first.
    for (unsigned lane = 0; lane < o.width; ++lane) {
      if (r.AtEnd())
        return r.Error(o.width == 1
                           ? std::string("enzyme_seed must be followed by "
                                         "the seed value")
                           : "enzyme_seed under enzyme_width " +
                                 std::to_string(o.width) +
                                 " must be followed by " +
                                 std::to_string(o.width) +
                                 " seed values, one per lane");
      rc.seeds.push_back(r.Next());
    }
    return true;
  case MarkerKind::Allocated:
  case MarkerKind::Tape:
    if (!split)
      return r.Error("`" + marker +
                     "` is only valid with __enzyme_augmentfwd / "
                     "__enzyme_reverse");
    if (seenParam)
      return r.Error("`" + marker + "` must come before the arguments");
    if (r.AtEnd())
      return r.Error("`" + marker + "` must be followed by " +
                     (kind == MarkerKind::Tape
                          ? "the tape buffer"
                          : "the buffer's size in bytes"));
    (kind == MarkerKind::Tape ? rc.tape_buffer
                                                 : rc.tape_size) =
        r.Next();
    return true;
  case MarkerKind::Const:
  case MarkerKind::Dup:
  case MarkerKind::DupNoNeed:
  case MarkerKind::Out:
    return false;
  }
  return false;
}

} // namespace

absl::StatusOr<RequestCall> ParseRequestCall(CallBase &call) {
  RequestCall rc;
  rc.call = &call;
  std::optional<Mode> mode = RequestModeOf(call);
  Reader r(call);
  if (!mode)
    return r.Error("not a differentiation request");
  rc.request.mode = *mode;
  rc.size_query = IsTapeSizeQuery(call);
  const char *entry = EntryName(*mode, rc.size_query);

  if (call.arg_size() <= r.Begin())
    return r.Error(std::string("call to ") + entry +
                   " has no function to differentiate");
  Value *fnOperand = call.getArgOperand(r.Begin())->stripPointerCasts();
  if (auto *alias = dyn_cast<GlobalAlias>(fnOperand))
    fnOperand = alias->getAliasee()->stripPointerCasts();
  auto *fn = dyn_cast<Function>(fnOperand);
  if (!fn)
    return r.Error(std::string("the first argument of ") + entry +
                   " must be a function, found `" +
                   ValueToString(*call.getArgOperand(r.Begin())) + "`");
  if (fn->isDeclaration())
    return r.Error("cannot differentiate `" + fn->getName().str() +
                   "`: it is only declared in this module (no body)");
  rc.request.fn = fn;
  if (rc.size_query) {
    AD_RETURN_IF_ERROR(ReadSizeQuery(r, rc));
    return rc;
  }
  if (r.Begin() == 1) {
    rc.sret = call.getArgOperand(0);
    rc.result_type = call.getParamStructRetType(0);
  } else {
    rc.result_type = call.getType();
  }

  bool seenParam = false;
  MarkerOptions options;
  FunctionType *fty = fn->getFunctionType();
  unsigned nparams = fty->getNumParams();
  rc.primals.resize(nparams);
  rc.shadows.resize(nparams);
  rc.request.args.resize(nparams, ArgActivity::Const);

  for (unsigned i = r.Begin() + 1; i < call.arg_size(); ++i)
    if (auto *mav = dyn_cast<MetadataAsValue>(call.getArgOperand(i)))
      if (!MarkerName(mav))
        return r.Error(MalformedMarker(*mav, i));
  unsigned param = 0;
  // `V3 r = __enzyme_fwddiff(f, ...)` where f itself returns V3 through sret:
  // f's sret parameter is not among the operands (a call that passes the
  // buffer explicitly returns void); it becomes a dup parameter whose
  // shadow is the call's own result.
  if (rc.sret && nparams > 0 && fn->hasParamAttribute(0, Attribute::StructRet)) {
    rc.implicit_sret = true;
    rc.request.args[0] = ArgActivity::Dup;
    param = 1;
  }
  bool split = *mode == Mode::Augmented || *mode == Mode::SplitReverse;
  while (!r.AtEnd() && !(split && param == nparams)) {
    Value *v = r.Next();
    std::optional<std::string> marker = MarkerName(v);
    std::optional<ArgActivity> act;
    if (marker) {
      MarkerKind kind = ClassifyMarker(*marker);
      absl::StatusOr<bool> option =
          ReadOptionMarker(r, kind, *marker, split, seenParam, rc, options);
      if (!option.ok())
        return option.status();
      if (*option)
        continue;
      act = kind == MarkerKind::Const       ? ArgActivity::Const
            : kind == MarkerKind::Dup       ? ArgActivity::Dup
            : kind == MarkerKind::DupNoNeed ? ArgActivity::DupNoNeed
                                            : ArgActivity::Out;
      if (r.AtEnd())
        return r.Error("marker `" + *marker + "` is not followed by a value");
      v = r.Next();
    }
    seenParam = true;
    if (param >= nparams)
      return r.Error("too many arguments: `" + fn->getName().str() +
                     "` takes " + std::to_string(nparams) +
                     " parameters; extra operand `" + ValueToString(*v) +
                     "`");
    absl::StatusOr<ArgActivity> resolved =
        ResolveActivity(r, act, *mode, *fn, param);
    if (!resolved.ok())
      return resolved.status();
    act = *resolved;
    rc.request.args[param] = *act;
    rc.primals[param] = v;
    if (*act == ArgActivity::Dup || *act == ArgActivity::DupNoNeed) {
      for (unsigned k = 0; k < options.width; ++k) {
        if (r.AtEnd() || MarkerName(r.Peek()))
          return r.Error("missing shadow " + std::to_string(k + 1) + " of " +
                         std::to_string(options.width) + " for parameter " +
                         std::to_string(param) + " of `" +
                         fn->getName().str() + "`");
        rc.shadows[param].push_back(r.Next());
      }
    }
    ++param;
  }
  if (param < nparams)
    return r.Error("too few arguments: `" + fn->getName().str() + "` takes " +
                   std::to_string(nparams) + " parameters, the call passes " +
                   std::to_string(param));
  rc.request.width = options.width;
  if (rc.implicit_sret && options.width != 1)
    return r.Error("a function returning through sret (`" +
                   fn->getName().str() +
                   "`) with an implicit result buffer supports width 1 only; "
                   "pass the result buffer and its shadows explicitly");
  SetReturnFlags(rc, options.const_return, options.no_return);
  if (split) {
    if (rc.tape_buffer && !rc.tape_size)
      return r.Error("enzyme_tape needs enzyme_allocated, SIZE before it "
                     "(the buffer's size, from __enzyme_augmentsize)");
    if (options.width != 1)
      return r.Error("enzyme_width with split reverse mode is not yet "
                     "supported");
    rc.request.tape_in_buffer = rc.tape_buffer != nullptr;
    AD_RETURN_IF_ERROR(ReadSplitTail(r, rc));
  }
  return rc;
}

} // namespace autodiff
