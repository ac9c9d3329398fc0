//===- enzyme_bridge/KnownFunctions.cpp - Functions the core knows --------===//
#include "enzyme_bridge/KnownFunctions.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace autodiff {

Function *CalledFunction(const CallBase &call) {
  return dyn_cast<Function>(call.getCalledOperand()->stripPointerCasts());
}

/// Names whose calls never carry derivatives.
static bool IsInactiveName(StringRef name) {
  static const StringSet<> names = {
      "printf", "fprintf", "sprintf", "snprintf", "puts", "fputs", "putchar",
      "fputc", "putc", "fflush", "fwrite", "fopen", "fclose", "fread",
      "perror", "write", "time", "clock", "gettimeofday", "clock_gettime",
      "abort", "exit", "_exit", "__assert_fail", "__assert_rtn",
      "__stack_chk_fail", "rand", "srand", "random", "getenv", "strlen",
      "strcmp", "strncmp", "atoi", "atol", "strtol", "usleep", "sleep",
      "__cxa_begin_catch", "__cxa_end_catch", "__cxa_throw",
      "__cxa_allocate_exception", "_Unwind_Resume", "__gxx_personality_v0",
      "rust_eh_personality", "__rust_alloc_error_handler",
      "NRT_decref", "NRT_incref", "numba_gil_ensure", "numba_gil_release",
      "PyErr_SetString", "PyErr_Clear", "PyGILState_Ensure",
      "PyGILState_Release", "vprintf", "vfprintf", "dprintf", "memcmp",
      "bcmp", "strchr", "strrchr", "strstr", "strcpy", "strncpy", "strcat",
      "strdup", "strtod", "__isnan", "__isnanf", "__isinf", "__isinff",
      "__finite", "__finitef", "__fpclassify", "__fpclassifyf", "__signbit",
      "__signbitf", "fesetround", "fegetround", "feclearexcept",
      "fetestexcept", "__errno_location", "getpid", "sysconf",
      "pthread_self", "omp_get_thread_num", "omp_get_num_threads"};
  if (names.contains(name))
    return true;
  // The CPython API and Numba's exception and GIL helpers: error paths of
  // Numba wrappers. (Not every numba_* function: numba_xxdot and other
  // math helpers carry derivatives.)
  if (name.starts_with("Py") || name.starts_with("_Py") ||
      name == "numba_unpickle" || name == "numba_do_raise" ||
      name == "numba_fatal_error" || name.starts_with("numba_gil_") ||
      name == "numba_runtime_build_excinfo_struct" ||
      name == "NRT_MemInfo_call_dtor")
    return true;
  // rustc's panic and formatting entry points (mangled or not).
  if (name.contains("panic") || name.contains("core3fmt") ||
      name.contains("slice_index_fail") || name.contains("slice_end_index") ||
      name.contains("slice_start_index") ||
      name.contains("__rust_no_alloc_shim"))
    return true;
  return false;
}

/// Functions listed in `void *__enzyme_inactivefn[] = {fn, ...}` globals.
static bool IsListedInactive(const Function &f) {
  const Module *m = f.getParent();
  if (!m)
    return false;
  for (const GlobalVariable &gv : m->globals()) {
    if (!gv.getName().starts_with("__enzyme_inactivefn") ||
        !gv.hasInitializer())
      continue;
    const Constant *init = gv.getInitializer();
    if (init->stripPointerCasts() == &f)
      return true;
    for (const Use &op : init->operands())
      if (cast<Constant>(op.get())->stripPointerCasts() == &f)
        return true;
  }
  return false;
}

Function *RegisteredForwardRule(const Function &f) {
  const Module *m = f.getParent();
  if (!m)
    return nullptr;
  for (const GlobalVariable &gv : m->globals()) {
    if (!gv.getName().starts_with("__enzyme_register_derivative") ||
        !gv.hasInitializer())
      continue;
    const auto *init = dyn_cast<ConstantArray>(gv.getInitializer());
    if (!init || init->getNumOperands() < 2)
      continue;
    if (init->getOperand(0)->stripPointerCasts() != &f)
      continue;
    return dyn_cast<Function>(init->getOperand(1)->stripPointerCasts());
  }
  return nullptr;
}

bool IsInactiveCall(const CallBase &call) {
  if (call.hasFnAttr("enzyme_inactive"))
    return true;
  const Function *f = CalledFunction(call);
  if (!f)
    return false;
  if (f->hasFnAttribute("enzyme_inactive"))
    return true;
  switch (f->getIntrinsicID()) {
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::dbg_assign:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end:
  case Intrinsic::prefetch:
  case Intrinsic::trap:
  case Intrinsic::debugtrap:
  case Intrinsic::ubsantrap:
  case Intrinsic::donothing:
  case Intrinsic::var_annotation:
  case Intrinsic::ptr_annotation:
  case Intrinsic::annotation:
  case Intrinsic::sideeffect:
  case Intrinsic::pseudoprobe:
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability:
  case Intrinsic::objectsize:
  case Intrinsic::is_fpclass:
  case Intrinsic::is_constant:
  case Intrinsic::threadlocal_address:
    return true;
  default:
    break;
  }
  if (IsInactiveName(f->getName()))
    return true;
  return IsListedInactive(*f);
}

AllocKind ClassifyAllocation(const CallBase &call) {
  const Function *f = CalledFunction(call);
  if (!f)
    return AllocKind::None;
  StringRef n = f->getName();
  if (n == "malloc" || n == "_Znwm" || n == "_Znam" || n == "__rust_alloc" ||
      n == "_ZnwmSt11align_val_t" || n == "aligned_alloc" ||
      n == "NRT_Allocate")
    return n == "aligned_alloc" ? AllocKind::None : AllocKind::Malloc;
  if (n == "calloc" || n == "__rust_alloc_zeroed")
    return AllocKind::Calloc;
  if (n == "realloc")
    return AllocKind::Realloc;
  if (n == "free" || n == "_ZdlPv" || n == "_ZdaPv" || n == "_ZdlPvm" ||
      n == "__rust_dealloc" || n == "NRT_Free")
    return AllocKind::Free;
  return AllocKind::None;
}

} // namespace autodiff
