//===- enzyme_bridge/KnownFunctions.cpp - Functions the core knows --------===//
#include "enzyme_bridge/analysis/KnownFunctions.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Instructions.h"

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
      "numba_gil_ensure", "numba_gil_release", "numba_attempt_nocopy_reshape",
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
  // C++ stream output (libstdc++'s Itanium names): std::ostream's members
  // (`std::cout << x` is `_ZNSo9_M_insertIdEERSoT_`), the free functions
  // taking a basic_ostream (`operator<<` of a string, std::endl,
  // __ostream_insert) and the locale helpers std::endl calls. Printing an
  // active value does not change it.
  if (name.starts_with("_ZNSo") || name.contains("basic_ostream") ||
      name.starts_with("_ZNKSt5ctypeIcE") || name == "_ZSt16__throw_bad_castv")
    return true;
  // Rust's RawVec deallocation when its body is not in the module (rustc
  // at opt-level 0): the primal buffer is freed; its shadow leaks.
  if (name.contains("RawVecInner") && name.contains("10deallocate"))
    return true;
  // rustc's panic and formatting entry points, by their paths
  // (core::panicking::*, std::panicking::*, core::fmt::*, in the legacy
  // `_ZN4core9panicking...` and v0 `..._4core9panicking...` manglings):
  // not any name with "panic" in it, which would make a user's
  // `square_no_panic` silently inactive.
  if (name.contains("9panicking") || name == "rust_panic" ||
      name == "__rust_start_panic" || name == "rust_begin_unwind" ||
      name.contains("core3fmt") ||
      name.contains("slice_index_fail") || name.contains("slice_end_index") ||
      name.contains("slice_start_index") ||
      name.contains("__rust_no_alloc_shim"))
    return true;
  return false;
}

/// Whether `c` is listed in a global whose name starts with `prefix`
/// (`void *__enzyme_inactivefn[] = {fn, ...}`, or a single pointer).
static bool IsListedIn(const Module *m, StringRef prefix, const Constant &c) {
  if (!m)
    return false;
  for (const GlobalVariable &gv : m->globals()) {
    if (!gv.getName().starts_with(prefix) || !gv.hasInitializer())
      continue;
    const Constant *init = gv.getInitializer();
    if (init->stripPointerCasts() == &c)
      return true;
    for (const Use &op : init->operands())
      if (cast<Constant>(op.get())->stripPointerCasts() == &c)
        return true;
  }
  return false;
}

/// Functions listed in `__enzyme_inactivefn` globals.
static bool IsListedInactive(const Function &f) {
  return IsListedIn(f.getParent(), "__enzyme_inactivefn", f);
}

bool InInactiveGlobal(const Value *ptr) {
  SmallVector<const Value *, 4> objs;
  getUnderlyingObjects(ptr, objs);
  return !objs.empty() && all_of(objs, [](const Value *o) {
    const auto *g = dyn_cast<GlobalVariable>(o);
    return g && IsListedIn(g->getParent(), "__enzyme_inactive_global", *g);
  });
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

/// The function `!name` metadata on `f` names (`!{ptr @g}`).
static Function *MetadataFunction(const Function &f, StringRef name) {
  const MDNode *md = f.getMetadata(name);
  if (!md || md->getNumOperands() == 0)
    return nullptr;
  if (const auto *c = dyn_cast_or_null<ConstantAsMetadata>(md->getOperand(0)))
    return dyn_cast<Function>(c->getValue()->stripPointerCasts());
  return nullptr;
}

std::optional<ReverseRule> RegisteredReverseRule(const Function &f) {
  if (f.getMetadata("enzyme_augment") || f.getMetadata("enzyme_gradient")) {
    ReverseRule r;
    r.source = "metadata (!enzyme_augment, !enzyme_gradient)";
    r.augment = MetadataFunction(f, "enzyme_augment");
    r.reverse = MetadataFunction(f, "enzyme_gradient");
    return r;
  }
  const Module *m = f.getParent();
  if (!m)
    return std::nullopt;
  for (const GlobalVariable &gv : m->globals()) {
    if (!gv.getName().starts_with("__enzyme_register_gradient") ||
        !gv.hasInitializer())
      continue;
    const auto *init = dyn_cast<ConstantArray>(gv.getInitializer());
    if (!init || init->getNumOperands() == 0 ||
        init->getOperand(0)->stripPointerCasts() != &f)
      continue;
    ReverseRule r;
    r.source = "`" + gv.getName().str() + "`";
    if (init->getNumOperands() == 3) {
      r.augment = dyn_cast<Function>(init->getOperand(1)->stripPointerCasts());
      r.reverse = dyn_cast<Function>(init->getOperand(2)->stripPointerCasts());
    }
    return r;
  }
  return std::nullopt;
}

namespace {

/// Backward walk from a returned value to allocation calls.
class FreshWalker {
public:
  bool Function(const llvm::Function &f, unsigned depth) {
    if (depth > 4 || f.isDeclaration() || !active_.insert(&f).second)
      return false;
    for (const BasicBlock &bb : f)
      if (const auto *ret = dyn_cast<ReturnInst>(bb.getTerminator()))
        if (ret->getReturnValue() && Value(ret->getReturnValue(), depth))
          return true;
    return false;
  }

private:
  bool Value(const llvm::Value *v, unsigned depth) {
    if (!seen_.insert(v).second)
      return false;
    if (const auto *call = dyn_cast<CallBase>(v)) {
      AllocKind k = ClassifyAllocation(*call);
      if (k == AllocKind::Malloc || k == AllocKind::AlignedAlloc ||
          k == AllocKind::Calloc ||
          k == AllocKind::Realloc || k == AllocKind::RustRealloc ||
          k == AllocKind::NumbaMemInfo)
        return true;
      const llvm::Function *callee = CalledFunction(*call);
      return callee && Function(*callee, depth + 1);
    }
    if (const auto *iv = dyn_cast<InsertValueInst>(v))
      return Value(iv->getInsertedValueOperand(), depth) ||
             Value(iv->getAggregateOperand(), depth);
    if (const auto *ev = dyn_cast<ExtractValueInst>(v))
      return Value(ev->getAggregateOperand(), depth);
    if (const auto *phi = dyn_cast<PHINode>(v)) {
      for (const llvm::Value *in : phi->incoming_values())
        if (Value(in, depth))
          return true;
      return false;
    }
    if (const auto *sel = dyn_cast<SelectInst>(v))
      return Value(sel->getTrueValue(), depth) ||
             Value(sel->getFalseValue(), depth);
    if (const auto *gep = dyn_cast<GetElementPtrInst>(v))
      return Value(gep->getPointerOperand(), depth);
    if (const auto *cast = dyn_cast<CastInst>(v))
      return Value(cast->getOperand(0), depth);
    if (const auto *load = dyn_cast<LoadInst>(v)) {
      // Through a stack slot (unoptimized code): what was stored there.
      const auto *slot = dyn_cast<AllocaInst>(
          getUnderlyingObject(load->getPointerOperand()));
      if (!slot)
        return false;
      for (const User *u : slot->users())
        for (const User *uu : u->users()) {
          if (const auto *st = dyn_cast<StoreInst>(uu))
            if (Value(st->getValueOperand(), depth))
              return true;
        }
      for (const User *u : slot->users())
        if (const auto *st = dyn_cast<StoreInst>(u))
          if (st->getPointerOperand() == slot &&
              Value(st->getValueOperand(), depth))
            return true;
      return false;
    }
    return false;
  }

  SmallPtrSet<const llvm::Function *, 8> active_;
  SmallPtrSet<const llvm::Value *, 32> seen_;
};

} // namespace

bool ReturnsFreshMemory(const Function &f) {
  return FreshWalker().Function(f, 0);
}

bool IsInactiveCall(const CallBase &call) {
  if (call.hasFnAttr("enzyme_inactive"))
    return true;
  // An empty inline-assembly statement without results (a compiler
  // barrier) computes nothing. One with results passes values through
  // (`asm("" : "=x"(r) : "0"(x))` launders x into r): not inactive.
  if (const auto *asmv = dyn_cast<InlineAsm>(call.getCalledOperand()))
    return asmv->getAsmString().empty() && call.getType()->isVoidTy();
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
  // Destructors and what() of the standard library's own classes, compiled
  // into libstdc++ (std::exception and its subclasses, say): they touch no
  // float of a user's object. (A function-pointer dispatch meets them as
  // candidates of a virtual destructor call whose object has active data.)
  StringRef n = f->getName();
  if (f->isDeclaration() &&
      (n.starts_with("_ZNSt") || n.starts_with("_ZNKSt")) &&
      (n.ends_with("D0Ev") || n.ends_with("D1Ev") || n.ends_with("D2Ev") ||
       n.ends_with("4whatEv")))
    return true;
  return IsListedInactive(*f);
}

AllocKind ClassifyAllocation(const CallBase &call) {
  const Function *f = CalledFunction(call);
  if (!f)
    return AllocKind::None;
  StringRef n = f->getName();
  // rustc 1.95 names the allocator shims `_RNv..._7___rustc12___rust_alloc`.
  if (n.ends_with("__rust_alloc"))
    return AllocKind::Malloc;
  if (n.ends_with("__rust_alloc_zeroed"))
    return AllocKind::Calloc;
  if (n.ends_with("__rust_dealloc"))
    return AllocKind::Free;
  if (n.ends_with("__rust_realloc"))
    return AllocKind::RustRealloc;
  // NRT_MemInfo_new_varsize(_dtor)(size, ...): the buffer of a reduction
  // along an axis (np.sum(A, axis=1)); its data field is laid out alike.
  if (n.starts_with("NRT_MemInfo_alloc") ||
      n.starts_with("NRT_MemInfo_new_varsize"))
    return AllocKind::NumbaMemInfo;
  if (n == "NRT_incref" || n == "NRT_decref")
    return AllocKind::RefCount;
  if (n == "aligned_alloc" || n == "memalign")
    return AllocKind::AlignedAlloc;
  // operator new and new[] in all their forms (aligned, nothrow).
  if (n == "malloc" || n.starts_with("_Znwm") || n.starts_with("_Znam") ||
      n == "NRT_Allocate")
    return AllocKind::Malloc;
  // operator delete and delete[] in all their forms (sized, aligned).
  if (n.starts_with("_ZdlPv") || n.starts_with("_ZdaPv"))
    return AllocKind::Free;
  if (n == "calloc")
    return AllocKind::Calloc;
  if (n == "realloc")
    return AllocKind::Realloc;
  if (n == "free" || n == "NRT_Free")
    return AllocKind::Free;
  return AllocKind::None;
}

bool CannotUnwind(const llvm::Function &f) {
  llvm::SmallPtrSet<const llvm::Function *, 16> seen = {&f};
  llvm::SmallVector<const llvm::Function *, 16> work = {&f};
  while (!work.empty()) {
    const llvm::Function *g = work.pop_back_val();
    if (g->doesNotThrow())
      continue;
    if (g->isDeclaration())
      return false;
    for (const llvm::BasicBlock &bb : *g)
      for (const llvm::Instruction &i : bb) {
        if (llvm::isa<llvm::ResumeInst>(i) ||
            llvm::isa<llvm::CleanupReturnInst>(i))
          return false;
        // An invoke's exception goes to its landing pad, which either
        // handles it or reaches a `resume` (seen above).
        const auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
        if (!call || call->doesNotThrow())
          continue;
        const llvm::Function *callee = CalledFunction(*call);
        if (!callee)
          return false;
        if (seen.insert(callee).second)
          work.push_back(callee);
      }
  }
  return true;
}

} // namespace autodiff
