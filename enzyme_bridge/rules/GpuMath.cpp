//===- enzyme_bridge/rules/GpuMath.cpp - GPU math names onto the rule table ===//
//
// CUDA device code computes math through libdevice (`__nv_sin`,
// `__nv_expf`, `__nv_dsqrt_rn`, ...) and, once libdevice is linked and
// inlined, through `llvm.nvvm.*` intrinsics (`llvm.nvvm.fabs`,
// `llvm.nvvm.sqrt.rn.d`, `llvm.nvvm.ex2.approx.f`, ...). Neither gets rules
// of its own: each name is mapped onto the rule of the libm function or
// instruction it computes, so there is one table. Rounding-mode variants
// (`_rn`, `.rz`, ...) and flush-to-zero variants (`.ftz`) share the rule of
// the exact operation; saturating, ReLU and xorsign variants have none (a
// call to one is a diagnostic).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

namespace autodiff {

using llvm::StringRef;

bool IsGpuModule(const llvm::Module &m) {
  // NVPTX only: AMDGPU's math library (ocml) and thread indices differ.
  return m.getTargetTriple().isNVPTX();
}

namespace {

/// The rule of a libdevice operation with an explicit rounding mode
/// (`dadd_rn`, `fmaf_rz`, `frcp_rn`, `dsqrt_ru`): the exact operation's.
std::string RoundedOperationRule(StringRef op) {
  // Drop the rounding suffix: _rn, _rz, _ru, _rd.
  if (op.size() < 4 || op[op.size() - 3] != '_' || op[op.size() - 2] != 'r')
    return "";
  StringRef base = op.drop_back(3);
  StringRef rule = llvm::StringSwitch<StringRef>(base)
                       .Cases({"dadd", "fadd"}, "fadd")
                       .Cases({"dsub", "fsub"}, "fsub")
                       .Cases({"dmul", "fmul"}, "fmul")
                       .Cases({"ddiv", "fdiv"}, "fdiv")
                       .Cases({"dsqrt", "fsqrt"}, "sqrt")
                       .Cases({"drcp", "frcp"}, "__nv_rcp")
                       .Case("fma", "fma")
                       .Case("fmaf", "fma")
                       .Default("");
  return rule.str();
}

} // namespace

std::string NumbaMathName(StringRef name) {
  // libdevice's gamma functions share libm's special handling.
  if (StringRef rest = name; rest.consume_front("__nv_") &&
                             (rest == "lgamma" || rest == "lgammaf" ||
                              rest == "tgamma" || rest == "tgammaf"))
    return rest.str();
  // NumPy's npymath (`npy_log2`, `npy_exp2`, `npy_logaddexp`) and
  // Numba's helpers for `math.gamma` and friends.
  if (name.consume_front("npy_"))
    return name.str();
  StringRef rest = name;
  if (rest.consume_front("numba_")) {
    if (rest == "gamma" || rest == "gammaf")
      return "t" + rest.str();
    if (rest == "lgamma" || rest == "lgammaf" || rest == "erf" ||
        rest == "erff" || rest == "erfc" || rest == "erfcf")
      return rest.str();
  }
  return name.str();
}

std::string LibdeviceRuleName(StringRef name) {
  if (!name.consume_front("__nv_"))
    return "";
  std::string rounded = RoundedOperationRule(name);
  if (!rounded.empty())
    return rounded;
  // Fast approximations (`__nv_fast_sinf`) differentiate as the function.
  name.consume_front("fast_");
  // Names whose libm counterpart is spelled differently, or that only
  // libdevice has (their rules are in the table under `__nv_`).
  StringRef rule = llvm::StringSwitch<StringRef>(name)
                       .Cases({"rsqrt", "rsqrtf"}, "__nv_rsqrt")
                       .Cases({"rcbrt", "rcbrtf"}, "__nv_rcbrt")
                       .Cases({"sinpi", "sinpif"}, "__nv_sinpi")
                       .Cases({"cospi", "cospif"}, "__nv_cospi")
                       .Cases({"normcdf", "normcdff"}, "__nv_normcdf")
                       .Cases({"normcdfinv", "normcdfinvf"}, "__nv_normcdfinv")
                       .Cases({"erfinv", "erfinvf"}, "__nv_erfinv")
                       .Cases({"erfcinv", "erfcinvf"}, "__nv_erfcinv")
                       .Cases({"saturatef", "saturate"}, "__nv_saturate")
                       .Case("fdividef", "fdiv")
                       .Cases({"rhypot", "rhypotf"}, "__nv_rhypot")
                       .Cases({"norm3d", "norm3df"}, "__nv_norm3d")
                       .Cases({"rnorm3d", "rnorm3df"}, "__nv_rnorm3d")
                       .Cases({"norm4d", "norm4df"}, "__nv_norm4d")
                       .Cases({"rnorm4d", "rnorm4df"}, "__nv_rnorm4d")
                       .Cases({"erfcx", "erfcxf"}, "__nv_erfcx")
                       .Cases({"cyl_bessel_i0", "cyl_bessel_i0f"},
                              "__nv_cyl_bessel_i0")
                       .Cases({"cyl_bessel_i1", "cyl_bessel_i1f"},
                              "__nv_cyl_bessel_i1")
                       .Case("powi", "llvm.powi")
                       .Case("powif", "llvm.powi")
                       .Default("");
  if (!rule.empty())
    return rule.str();
  return name.str();
}

std::string NvvmRuleName(StringRef name) {
  if (!name.consume_front("llvm.nvvm."))
    return "";
  llvm::SmallVector<StringRef, 6> parts;
  name.split(parts, '.');
  // Saturated, ReLU and xorsign variants clamp or change signs: no rule.
  for (StringRef part : parts)
    if (part == "sat" || part == "relu" || part == "xorsign" || part == "abs")
      return "";
  StringRef op = parts.front();
  StringRef rule = llvm::StringSwitch<StringRef>(op)
                       .Case("fabs", "llvm.fabs")
                       .Case("sqrt", "llvm.sqrt")
                       .Case("rsqrt", "__nv_rsqrt")
                       .Case("rcp", "__nv_rcp")
                       .Case("fma", "llvm.fma")
                       .Case("fmin", "llvm.minnum")
                       .Case("fmax", "llvm.maxnum")
                       .Case("ex2", "llvm.exp2")
                       .Case("lg2", "llvm.log2")
                       .Case("sin", "llvm.sin")
                       .Case("cos", "llvm.cos")
                       .Case("add", "fadd")
                       .Case("mul", "fmul")
                       .Case("div", "fdiv")
                       .Case("saturate", "__nv_saturate")
                       .Cases({"floor", "ceil", "trunc", "round"}, "llvm.floor")
                       .Default("");
  // fmin/fmax with NaN propagation pick the same operand otherwise.
  return rule.str();
}

/// Whether the GPU target computes `name` (a Call node's function) with an
/// instruction: the others become libdevice calls (`__nv_cos`).
bool GpuHasNativeMath(StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"sqrt", "fabs", "copysign", "fmin", "fmax"}, true)
      .Cases({"floor", "ceil", "trunc", "round", "roundeven"}, true)
      .Cases({"rint", "nearbyint"}, true)
      .Default(false);
}

} // namespace autodiff
