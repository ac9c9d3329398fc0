//===- codegen/Lowering.cpp - AutoDiffItem -> __enzyme_* call -------------===//
//
// Design. Lowering depends only on the module and the request: the frontend
// validates the request against a source-level signature and plans the
// derivative at the LLVM level (frontend/Abi.h); this file only checks that
// the plan fits the LLVM function it names and turns it into IR:
//
//   1. find the source, build or take its signature, validate and plan;
//   2. check the signature against the LLVM parameters (a slice must be a
//      pointer then an integer, a float must have the right width, ...);
//   3. create the target, or adopt an existing declaration / placeholder
//      definition (a function with a real body only when the request says
//      so, see Placeholder.h): its parameters must be exactly the planned
//      ones (after an optional `sret` pointer), and its return is either
//      the planned leaves, an `sret` pointer they are stored to, or a
//      same-sized type they are coerced to through memory (C returns
//      `struct {float, float}` as `<2 x float>`);
//   4. emit the body: run-time shadow length checks (our addition; rustc
//      only has a FIXME for them), then one call to
//      `__enzyme_{autodiff,fwddiff}_<target>(...)` with marker globals, as
//      current rustc does, and return its result.
//
// Unlike rustc, nothing here aborts on bad input: every mismatch is an
// absl::Status naming the source and the target (and, for an annotation,
// its file and line). Steps 1-3 check everything before the module changes,
// and a body that fails to build is removed again, so a failed request
// leaves valid IR behind.
//
//===----------------------------------------------------------------------===//
#include "codegen/Lowering.h"

#include "codegen/Placeholder.h"
#include "codegen/RuntimeChecks.h"
#include "frontend/Abi.h"
#include "frontend/Validate.h"
#include "support/StatusMacros.h"
#include "support/Text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace autodiff {
namespace {

std::string TypeName(const llvm::Type *ty) {
  std::string s;
  llvm::raw_string_ostream os(s);
  ty->print(os);
  return s;
}

/// Prefix of every diagnostic about one request.
std::string Where(const std::string &source, const std::string &target) {
  return absl::StrCat("in autodiff of `", source, "` into `", target, "`: ");
}

SourceType PointerToOpaque() {
  SourceType t;
  t.kind = SourceType::Kind::MutPtr;
  SourceType pointee;
  pointee.kind = SourceType::Kind::Opaque;
  t.elems.push_back(pointee);
  return t;
}

/// One LLVM value's source-level view when no signature is given.
SourceType SourceTypeFromLlvm(llvm::Type *ty, bool zero_ext) {
  if (ty->isDoubleTy() || ty->isFloatTy() || ty->isHalfTy() || ty->isFP128Ty())
    return SourceType::Float(ty->getPrimitiveSizeInBits().getFixedValue());
  if (ty->isIntegerTy(1)) {
    SourceType t;
    t.kind = SourceType::Kind::Bool;
    return t;
  }
  if (ty->isIntegerTy())
    return SourceType::Int(ty->getIntegerBitWidth(), !zero_ext);
  if (ty->isPointerTy())
    return PointerToOpaque();
  SourceType t;
  t.kind = ty->isVoidTy() ? SourceType::Kind::Unit : SourceType::Kind::Opaque;
  return t;
}

/// Whether LLVM value type `ty` can carry a scalar of source type `t`.
bool ScalarFits(const SourceType &t, llvm::Type *ty) {
  using K = SourceType::Kind;
  switch (t.kind) {
  case K::Float:
    return ty->isFloatingPointTy() &&
           (t.bits == 0 || ty->getPrimitiveSizeInBits() == t.bits);
  case K::Int:
    return ty->isIntegerTy() &&
           (t.bits == 0 || ty->getIntegerBitWidth() == t.bits);
  case K::Bool:
    return ty->isIntegerTy(1) || ty->isIntegerTy(8);
  case K::Ref:
  case K::MutRef:
  case K::ConstPtr:
  case K::MutPtr:
    return ty->isPointerTy();
  case K::Opaque:
    return !ty->isVoidTy();
  default:
    return false;
  }
}

/// The LLVM types `t` expects, for messages ("ptr, i64").
std::string ExpectedTypes(const SourceType &t) {
  using K = SourceType::Kind;
  auto one = [](const SourceType &s) -> std::string {
    switch (s.kind) {
    case K::Float:
      return s.bits == 32   ? "float"
             : s.bits == 64 ? "double"
                            : absl::StrCat("f", s.bits);
    case K::Int:
      return absl::StrCat("i", s.bits);
    case K::Bool:
      return "i1";
    case K::Opaque:
      return "any type";
    default:
      return "ptr";
    }
  };
  if (t.IsSlice())
    return "ptr, an integer";
  if (t.kind == K::Pair && t.elems.size() == 2)
    return absl::StrCat(one(t.elems[0]), ", ", one(t.elems[1]));
  return one(t);
}

/// Checks that `sig` describes the LLVM function `f`.
absl::Status CheckSignatureFits(const llvm::Function &f,
                                const SourceSignature &sig,
                                const std::string &where) {
  unsigned needed = 0;
  for (const SourceParam &p : sig.params)
    needed += p.type.LlvmParamCount();
  std::string fn = f.getName().str();
  if (needed != f.arg_size())
    return absl::InvalidArgumentError(absl::StrCat(
        where, "the signature has ", sig.params.size(), " parameters taking ",
        needed, " LLVM parameters, but LLVM function `", fn, "` has ",
        f.arg_size()));
  unsigned pos = 0;
  for (size_t i = 0; i < sig.params.size(); ++i) {
    const SourceType &t = sig.params[i].type;
    unsigned n = t.LlvmParamCount();
    bool ok = true;
    if (t.IsSlice()) {
      ok = f.getArg(pos)->getType()->isPointerTy() &&
           f.getArg(pos + 1)->getType()->isIntegerTy();
    } else if (t.kind == SourceType::Kind::Pair) {
      ok = t.elems.size() == 2 &&
           ScalarFits(t.elems[0], f.getArg(pos)->getType()) &&
           ScalarFits(t.elems[1], f.getArg(pos + 1)->getType());
    } else if (n == 1) {
      ok = ScalarFits(t, f.getArg(pos)->getType());
    }
    if (!ok) {
      std::vector<std::string> found;
      for (unsigned k = 0; k < n; ++k)
        found.push_back(TypeName(f.getArg(pos + k)->getType()));
      std::string name = sig.params[i].name.empty()
                             ? absl::StrCat("#", i)
                             : absl::StrCat("`", sig.params[i].name, "`");
      return absl::InvalidArgumentError(absl::StrCat(
          where, "parameter ", name, " of type `", t.ToString(),
          "` needs LLVM type(s) ", ExpectedTypes(t), ", but LLVM function `",
          fn, "` has ", absl::StrJoin(found, ", "), " at parameter ", pos));
    }
    pos += n;
  }
  llvm::Type *ret = f.getReturnType();
  const SourceType &rt = sig.ret;
  bool ret_ok;
  if (rt.kind == SourceType::Kind::Unit) {
    ret_ok = ret->isVoidTy();
  } else if (rt.IsSlice() || rt.kind == SourceType::Kind::Pair) {
    auto *st = llvm::dyn_cast<llvm::StructType>(ret);
    ret_ok = st && st->getNumElements() == 2;
    if (ret_ok && rt.kind == SourceType::Kind::Pair)
      ret_ok = rt.elems.size() == 2 &&
               ScalarFits(rt.elems[0], st->getElementType(0)) &&
               ScalarFits(rt.elems[1], st->getElementType(1));
  } else {
    ret_ok = ScalarFits(rt, ret);
  }
  if (!ret_ok)
    return absl::InvalidArgumentError(absl::StrCat(
        where, "the signature returns `", rt.ToString(),
        "`, but LLVM function `", fn, "` returns ", TypeName(ret)));
  return absl::OkStatus();
}

/// How the lowered target hands back the enzyme call's result.
enum class ReturnKind { Direct, Void, Sret, Coerce };

/// The LLVM view of the planned target.
struct TargetShape {
  std::vector<llvm::Type *> params;
  llvm::Type *result = nullptr; ///< void, one leaf, or a struct of leaves.
};

absl::StatusOr<TargetShape> ShapeOf(const llvm::Function &src,
                                    const LoweringPlan &plan,
                                    const std::string &where) {
  llvm::LLVMContext &ctx = src.getContext();
  TargetShape shape;
  auto arg_type = [&](unsigned i) -> absl::StatusOr<llvm::Type *> {
    if (i >= src.arg_size())
      return absl::InternalError(
          absl::StrCat(where, "the plan refers to LLVM parameter ", i, " of `",
                       src.getName().str(), "`, which has ", src.arg_size()));
    return src.getArg(i)->getType();
  };
  for (const TargetParam &p : plan.target_params) {
    if (p.role == TargetParam::Role::Seed) {
      if (src.getReturnType()->isVoidTy())
        return absl::InternalError(
            absl::StrCat(where, "seed `", p.name, "` for a void return"));
      shape.params.push_back(src.getReturnType());
      continue;
    }
    AD_ASSIGN_OR_RETURN(llvm::Type * t, arg_type(p.source_param));
    shape.params.push_back(t);
  }
  std::vector<llvm::Type *> leaves;
  for (const ReturnLeaf &leaf : plan.ret_leaves) {
    if (leaf.kind == ReturnLeaf::Kind::Gradient) {
      AD_ASSIGN_OR_RETURN(llvm::Type * t, arg_type(leaf.source_param));
      leaves.push_back(t);
    } else {
      if (src.getReturnType()->isVoidTy())
        return absl::InternalError(absl::StrCat(
            where, "the plan returns the primal or its tangent, but `",
            src.getName().str(), "` returns void"));
      leaves.push_back(src.getReturnType());
    }
  }
  if (leaves.empty())
    shape.result = llvm::Type::getVoidTy(ctx);
  else if (leaves.size() == 1)
    shape.result = leaves[0];
  else
    shape.result = llvm::StructType::get(ctx, leaves);
  return shape;
}

/// Attributes that described the old (placeholder) body and may be false
/// for the new one.
void ResetBodyAttributes(llvm::Function &f) {
  using A = llvm::Attribute;
  for (A::AttrKind k : {A::NoInline, A::OptimizeNone, A::Memory, A::NoReturn,
                        A::WillReturn, A::NoSync, A::NoFree, A::NoRecurse,
                        A::NoUnwind, A::Speculatable, A::Naked, A::Cold})
    f.removeFnAttr(k);
  for (A::AttrKind k : {A::NoFPClass, A::Range, A::NoAlias, A::NonNull,
                        A::Dereferenceable, A::DereferenceableOrNull})
    f.removeRetAttr(k);
  for (unsigned i = 0; i < f.arg_size(); ++i)
    for (A::AttrKind k : {A::ReadNone, A::ReadOnly, A::WriteOnly, A::Captures,
                          A::Returned, A::Initializes, A::NoFree})
      f.removeParamAttr(i, k);
}

/// Copies the code generation attributes of `from` so that the target can be
/// compiled and inlined like the source.
void CopyCodegenAttributes(const llvm::Function &from, llvm::Function &to) {
  for (const char *kind :
       {"target-cpu", "target-features", "tune-cpu", "frame-pointer"})
    if (from.hasFnAttribute(kind))
      to.addFnAttr(from.getFnAttribute(kind));
  if (from.hasFnAttribute(llvm::Attribute::UWTable))
    to.addFnAttr(from.getFnAttribute(llvm::Attribute::UWTable));
}

/// The debug location for the new body: the placeholder's last one if it is
/// usable, else the start of the target's subprogram, else none.
llvm::DebugLoc PickDebugLoc(llvm::Function &f) {
  llvm::DISubprogram *sp = f.getSubprogram();
  if (!sp)
    return {};
  if (!sp->isDefinition()) {
    f.setSubprogram(nullptr);
    return {};
  }
  std::vector<llvm::BasicBlock *> blocks;
  for (llvm::BasicBlock &bb : f)
    blocks.push_back(&bb);
  for (auto bb = blocks.rbegin(); bb != blocks.rend(); ++bb)
    for (auto inst = (*bb)->rbegin(); inst != (*bb)->rend(); ++inst)
      if (const llvm::DebugLoc &dl = inst->getDebugLoc())
        if (!dl->getInlinedAt() && dl->getScope()->getSubprogram() == sp)
          return llvm::DILocation::get(f.getContext(), dl->getLine(),
                                       dl->getColumn(), sp);
  return llvm::DILocation::get(f.getContext(), sp->getLine(), 0, sp);
}

void EraseBody(llvm::Function &f) {
  for (llvm::BasicBlock &bb : f)
    bb.dropAllReferences();
  while (!f.empty())
    f.begin()->eraseFromParent();
}

struct PreparedTarget {
  llvm::Function *fn = nullptr;
  ReturnKind ret = ReturnKind::Direct;
  unsigned first_param = 0; ///< 1 when an sret pointer comes first.
  llvm::Type *sret_type = nullptr;
  llvm::DebugLoc dbg;
};

/// The type a C compiler returns `t` as (x86-64 System V), for results of at
/// most 16 bytes: each eightbyte holding floating-point values only becomes
/// one register value, so two floats share one `<2 x float>`. Null when `t`
/// needs no change.
/// Appends the scalar leaves of `t` at byte `offset` to `out`; false if one
/// is not float or double.
bool FloatLeaves(llvm::Type *t, uint64_t offset, const llvm::DataLayout &dl,
                 std::vector<std::pair<uint64_t, llvm::Type *>> &out) {
  if (auto *st = llvm::dyn_cast<llvm::StructType>(t)) {
    const llvm::StructLayout *sl = dl.getStructLayout(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i)
      if (!FloatLeaves(st->getElementType(i),
                       offset + sl->getElementOffset(i), dl, out))
        return false;
    return true;
  }
  if (auto *at = llvm::dyn_cast<llvm::ArrayType>(t)) {
    uint64_t size = dl.getTypeAllocSize(at->getElementType());
    for (uint64_t i = 0; i < at->getNumElements(); ++i)
      if (!FloatLeaves(at->getElementType(), offset + i * size, dl, out))
        return false;
    return true;
  }
  if (!t->isFloatTy() && !t->isDoubleTy())
    return false;
  out.push_back({offset, t});
  return true;
}

llvm::Type *CAbiSmallReturnType(llvm::Type *t, const llvm::DataLayout &dl) {
  if (!t->isAggregateType() || dl.getTypeAllocSize(t) > 16)
    return nullptr;
  std::vector<std::pair<uint64_t, llvm::Type *>> leaves;
  if (!FloatLeaves(t, 0, dl, leaves))
    return nullptr;
  std::vector<llvm::Type *> groups[2];
  for (const auto &[offset, type] : leaves)
    groups[offset / 8].push_back(type);
  std::vector<llvm::Type *> regs;
  bool changed = false;
  for (const std::vector<llvm::Type *> &g : groups) {
    if (g.empty())
      continue;
    if (g.size() == 1) {
      regs.push_back(g[0]);
    } else {
      regs.push_back(llvm::FixedVectorType::get(g[0], g.size()));
      changed = true;
    }
  }
  if (!changed)
    return nullptr;
  return regs.size() == 1 ? regs[0]
                          : llvm::StructType::get(t->getContext(), regs);
}

PreparedTarget CreateTarget(llvm::Module &m, const llvm::Function &src,
                            const LoweringPlan &plan, const TargetShape &shape,
                            const std::string &name) {
  // Results of more than two eightbytes go through an sret pointer, and two
  // floats in one eightbyte share a register, as the C ABI returns them, so
  // that C and Rust hosts can call the target.
  const llvm::DataLayout &dl = m.getDataLayout();
  bool sret = !shape.result->isVoidTy() &&
              dl.getTypeAllocSize(shape.result) > 16;
  std::vector<llvm::Type *> params = shape.params;
  if (sret)
    params.insert(params.begin(), llvm::PointerType::get(m.getContext(), 0));
  llvm::Type *coerced = sret ? nullptr : CAbiSmallReturnType(shape.result, dl);
  auto *fty = llvm::FunctionType::get(
      sret ? llvm::Type::getVoidTy(m.getContext())
           : coerced ? coerced : shape.result,
      params, false);
  PreparedTarget t;
  t.fn =
      llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, name, m);
  if (sret) {
    t.first_param = 1;
    t.sret_type = shape.result;
    t.fn->addParamAttr(
        0, llvm::Attribute::getWithStructRetType(m.getContext(), shape.result));
    t.fn->getArg(0)->setName("ret");
  }
  for (size_t i = 0; i < plan.target_params.size(); ++i)
    t.fn->getArg(i + t.first_param)->setName(plan.target_params[i].name);
  CopyCodegenAttributes(src, *t.fn);
  t.ret = sret                      ? ReturnKind::Sret
          : coerced                 ? ReturnKind::Coerce
          : shape.result->isVoidTy() ? ReturnKind::Void
                                     : ReturnKind::Direct;
  return t;
}

/// Checks that the existing function `f` can take the planned derivative;
/// changes nothing.
absl::StatusOr<PreparedTarget> CheckExistingTarget(llvm::Function &f,
                                                   const TargetShape &shape,
                                                   const LoweringPlan &plan,
                                                   const std::string &where) {
  std::string name = f.getName().str();
  if (f.isIntrinsic() || f.isVarArg())
    return absl::InvalidArgumentError(
        absl::StrCat(where, "target `", name, "` is ",
                     f.isIntrinsic() ? "an intrinsic" : "variadic"));
  const llvm::DataLayout &dl = f.getParent()->getDataLayout();
  PreparedTarget t;
  t.fn = &f;
  if (f.arg_size() > 0 && f.hasParamAttribute(0, llvm::Attribute::StructRet)) {
    t.first_param = 1;
    t.sret_type = f.getParamStructRetType(0);
  }
  unsigned have = f.arg_size() - t.first_param;
  if (have != shape.params.size())
    return absl::InvalidArgumentError(
        absl::StrCat(where, "target `", name, "` has ", have, " parameters",
                     t.first_param ? " after its sret pointer" : "",
                     ", but the derivative ", "takes ", shape.params.size()));
  for (unsigned i = 0; i < have; ++i) {
    llvm::Type *ty = f.getArg(i + t.first_param)->getType();
    if (ty != shape.params[i])
      return absl::InvalidArgumentError(absl::StrCat(
          where, "target `", name, "`: parameter ", i, " (`",
          plan.target_params[i].name, "`) has type ", TypeName(ty),
          ", but the derivative needs ", TypeName(shape.params[i])));
  }
  llvm::Type *ret = f.getReturnType();
  std::string want = TypeName(shape.result);
  if (t.sret_type) {
    if (!ret->isVoidTy() || shape.result->isVoidTy() ||
        !t.sret_type->isSized() ||
        dl.getTypeAllocSize(t.sret_type) != dl.getTypeAllocSize(shape.result))
      return absl::InvalidArgumentError(absl::StrCat(
          where, "target `", name, "` returns through sret(",
          TypeName(t.sret_type), ") and ", TypeName(ret),
          ", but the derivative returns ", want, " (it must fit the sret ",
          "type exactly and the target must return void)"));
    t.ret = ReturnKind::Sret;
  } else if (ret == shape.result) {
    t.ret = ret->isVoidTy() ? ReturnKind::Void : ReturnKind::Direct;
  } else if (!ret->isVoidTy() && !shape.result->isVoidTy() && ret->isSized() &&
             dl.getTypeAllocSize(ret) == dl.getTypeAllocSize(shape.result)) {
    t.ret = ReturnKind::Coerce;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat(where, "target `", name, "` returns ", TypeName(ret),
                     ", but the derivative returns ", want));
  }
  return t;
}

/// Readies a checked existing target for its new body.
void AdoptTarget(PreparedTarget &t, const LoweringPlan &plan) {
  llvm::Function &f = *t.fn;
  for (unsigned i = t.first_param; i < f.arg_size(); ++i)
    if (!f.getArg(i)->hasName())
      f.getArg(i)->setName(plan.target_params[i - t.first_param].name);
  t.dbg = PickDebugLoc(f);
  if (!f.isDeclaration())
    EraseBody(f);
  if (f.hasExternalWeakLinkage())
    f.setLinkage(llvm::GlobalValue::ExternalLinkage);
  ResetBodyAttributes(f);
}

/// `@enzyme_dup = external global ptr`, or whatever global of that name the
/// module already has (C declares `extern int enzyme_dup;`).
llvm::Constant *MarkerGlobal(llvm::Module &m, const std::string &name) {
  if (llvm::GlobalValue *gv = m.getNamedValue(name))
    return gv;
  return new llvm::GlobalVariable(
      m, llvm::PointerType::getUnqual(m.getContext()),
      /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage, nullptr, name);
}

absl::StatusOr<llvm::Function *>
EnzymeDeclaration(llvm::Module &m, DiffMode mode, llvm::Type *result,
                  const std::string &target, const std::string &where) {
  std::string name = absl::StrCat(
      mode == DiffMode::Forward ? "__enzyme_fwddiff_" : "__enzyme_autodiff_",
      target);
  auto *fty = llvm::FunctionType::get(result, {}, /*isVarArg=*/true);
  if (llvm::GlobalValue *gv = m.getNamedValue(name)) {
    auto *f = llvm::dyn_cast<llvm::Function>(gv);
    if (!f || f->getFunctionType() != fty || !f->isDeclaration())
      return absl::InvalidArgumentError(
          absl::StrCat(where, "`", name, "` already exists with another type"));
    return f;
  }
  llvm::Function *f =
      llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, name, m);
  f->addFnAttr(llvm::Attribute::NoInline);
  return f;
}

/// The operands of the `__enzyme_*` call after the function itself.
absl::StatusOr<std::vector<llvm::Value *>>
CallOperands(llvm::IRBuilder<> &b, const LoweringPlan &plan,
             const std::vector<llvm::Value *> &params,
             const std::string &where) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  std::vector<llvm::Value *> ops;
  auto param = [&](unsigned i) -> absl::StatusOr<llvm::Value *> {
    if (i >= params.size())
      return absl::InternalError(
          absl::StrCat(where, "the plan refers to target parameter ", i));
    return params[i];
  };
  for (const CallArg &arg : plan.call_args) {
    switch (arg.kind) {
    case CallArg::Kind::Marker:
      ops.push_back(MarkerGlobal(m, arg.marker));
      break;
    case CallArg::Kind::Param:
    case CallArg::Kind::SeedValue: {
      AD_ASSIGN_OR_RETURN(llvm::Value * v, param(arg.param));
      ops.push_back(v);
      break;
    }
    case CallArg::Kind::StridedShadow: {
      AD_ASSIGN_OR_RETURN(llvm::Value * base, param(arg.param));
      if (!base->getType()->isPointerTy())
        return absl::InternalError(absl::StrCat(
            where, "strided shadow from non-pointer parameter ", arg.param));
      if (arg.lane == 0) {
        ops.push_back(base);
        break;
      }
      llvm::Value *offset =
          b.getInt64(uint64_t(arg.lane) * uint64_t(arg.stride_bytes));
      if (arg.length_param) {
        AD_ASSIGN_OR_RETURN(llvm::Value * len, param(*arg.length_param));
        if (!len->getType()->isIntegerTy())
          return absl::InternalError(
              absl::StrCat(where, "stride length from non-integer parameter ",
                           *arg.length_param));
        // In bounds: the length check made sure all lanes fit the shadow.
        offset =
            b.CreateMul(b.CreateZExtOrTrunc(len, b.getInt64Ty()), offset,
                        base->getName() + ".offset" + llvm::Twine(arg.lane),
                        /*HasNUW=*/true);
      }
      ops.push_back(b.CreateInBoundsGEP(b.getInt8Ty(), base, offset,
                                        base->getName() + ".lane" +
                                            llvm::Twine(arg.lane)));
      break;
    }
    case CallArg::Kind::WidthValue:
      ops.push_back(b.getInt64(arg.value));
      break;
    }
  }
  return ops;
}

/// Gives `target` its body: the length checks, the `__enzyme_*` call and
/// the return of its result.
absl::Status EmitBody(llvm::Module &m, llvm::Function &src,
                      llvm::Function *enzyme, const LoweringPlan &plan,
                      const TargetShape &shape, const PreparedTarget &target,
                      const std::string &name, const std::string &where) {
  llvm::Function &fn = *target.fn;
  std::vector<llvm::Value *> params;
  for (unsigned i = target.first_param; i < fn.arg_size(); ++i)
    params.push_back(fn.getArg(i));

  llvm::BasicBlock *entry =
      llvm::BasicBlock::Create(m.getContext(), "entry", &fn);
  llvm::IRBuilder<> b(entry);
  b.SetCurrentDebugLocation(target.dbg);
  AD_RETURN_IF_ERROR(
      EmitLengthChecks(b, plan.length_checks, params, name, where));

  std::vector<llvm::Value *> ops{&src};
  AD_ASSIGN_OR_RETURN(std::vector<llvm::Value *> rest,
                      CallOperands(b, plan, params, where));
  ops.insert(ops.end(), rest.begin(), rest.end());
  llvm::CallInst *call = b.CreateCall(enzyme, ops);
  switch (target.ret) {
  case ReturnKind::Void:
    b.CreateRetVoid();
    break;
  case ReturnKind::Direct:
    b.CreateRet(call);
    break;
  case ReturnKind::Sret:
    b.CreateStore(call, fn.getArg(0));
    b.CreateRetVoid();
    break;
  case ReturnKind::Coerce: {
    // Same size, different type (C's `<2 x float>` for two floats).
    const llvm::DataLayout &dl = m.getDataLayout();
    llvm::Type *ret = fn.getReturnType();
    llvm::Align align =
        std::max(dl.getPrefTypeAlign(ret), dl.getPrefTypeAlign(shape.result));
    llvm::IRBuilder<> ab(entry, entry->begin());
    llvm::AllocaInst *slot = ab.CreateAlloca(shape.result, nullptr, "coerce");
    slot->setAlignment(align);
    b.CreateAlignedStore(call, slot, align);
    b.CreateRet(b.CreateAlignedLoad(ret, slot, align));
    break;
  }
  }
  return absl::OkStatus();
}

/// Tells the type analysis what the signature says (as rustc's
/// `"enzyme_type"` attributes do): the data of a `&[f64]`, `&mut f32`,
/// `*const f64` parameter are floats of that width, which memory copies of
/// them (`copy_from_slice` at -O0) need to be differentiated. An attribute
/// the module already has is kept.
static void AnnotateFloatPointees(llvm::Function &src,
                                  const SourceSignature &sig) {
  unsigned pos = 0;
  for (const SourceParam &p : sig.params) {
    const SourceType &t = p.type;
    if (t.IsPointerLike() && t.elems.size() == 1 && t.elems[0].IsFloat() &&
        (t.elems[0].bits == 32 || t.elems[0].bits == 64) &&
        pos < src.arg_size() && src.getArg(pos)->getType()->isPointerTy() &&
        !src.getAttributes().getParamAttr(pos, "enzyme_type").isValid()) {
      std::string type = t.elems[0].bits == 64 ? "double" : "float";
      src.addParamAttr(pos, llvm::Attribute::get(
                                src.getContext(), "enzyme_type",
                                "{[-1]:Pointer, [-1,-1]:Float@" + type + "}"));
    }
    pos += t.LlvmParamCount();
  }
}

/// LowerAutoDiff without the request's origin in its diagnostics.
absl::Status Lower(llvm::Module &m, const LoweringRequest &req) {
  std::string where = Where(req.source, req.attr.target);
  llvm::Function *src = m.getFunction(req.source);
  // rustc -O3 and clang merge identical functions into aliases of one.
  if (!src)
    if (llvm::GlobalAlias *alias = m.getNamedAlias(req.source))
      src = llvm::dyn_cast_or_null<llvm::Function>(alias->getAliaseeObject());
  if (!src || src->isDeclaration())
    return absl::NotFoundError(
        absl::StrCat(where, "could not find source function `", req.source, "`",
                     src ? " (the module only declares it)" : ""));
  if (src->isVarArg())
    return absl::InvalidArgumentError(
        absl::StrCat(where, "source `", req.source,
                     "` is variadic, which cannot be differentiated"));
  if (req.attr.target == req.source)
    return absl::InvalidArgumentError(
        absl::StrCat(where, "the target must differ from the source"));

  SourceSignature sig =
      req.signature ? *req.signature : SignatureFromLlvm(*src);
  if (sig.name.empty())
    sig.name = req.source;
  AD_RETURN_IF_ERROR(CheckSignatureFits(*src, sig, where));
  AD_ASSIGN_OR_RETURN(AutoDiffItem item, MakeAutoDiffItem(sig, req.attr));
  item.source = req.source;
  AD_ASSIGN_OR_RETURN(LoweringPlan plan, PlanLowering(sig, item));
  AD_ASSIGN_OR_RETURN(TargetShape shape, ShapeOf(*src, plan, where));

  // Everything that can fail on user input is checked before the module
  // changes, so a failed request leaves valid IR behind (the plugin keeps
  // running the host's pipeline after reporting an error).
  PreparedTarget target;
  llvm::GlobalValue *existing = m.getNamedValue(item.target);
  if (llvm::isa_and_nonnull<llvm::GlobalAlias>(existing) &&
      SeparateAliasedTarget(m, req))
    existing = m.getNamedValue(item.target);
  if (existing) {
    auto *f = llvm::dyn_cast<llvm::Function>(existing);
    if (!f)
      return absl::InvalidArgumentError(absl::StrCat(
          where, "target `", item.target, "` exists but is not a function"));
    if (!f->isDeclaration() && !req.replace_defined_target &&
        !IsPlaceholderBody(*f, src))
      return absl::AlreadyExistsError(absl::StrCat(
          where, "target `", item.target,
          "` already has a body that is not a placeholder, and lowering "
          "would replace it; check the target's name, or ask for the "
          "replacement explicitly (autodiff-opt --replace-targets, "
          "LoweringRequest::replace_defined_target)"));
    AD_ASSIGN_OR_RETURN(target, CheckExistingTarget(*f, shape, plan, where));
  }
  AD_ASSIGN_OR_RETURN(
      llvm::Function * enzyme,
      EnzymeDeclaration(m, plan.mode, shape.result, item.target, where));
  if (existing)
    AdoptTarget(target, plan);
  else
    target = CreateTarget(m, *src, plan, shape, item.target);
  if (req.signature)
    AnnotateFloatPointees(*src, sig);

  absl::Status emitted =
      EmitBody(m, *src, enzyme, plan, shape, target, item.target, where);
  llvm::Function &fn = *target.fn;
  if (emitted.ok()) {
    std::string broken;
    llvm::raw_string_ostream os(broken);
    if (llvm::verifyFunction(fn, &os))
      emitted = absl::InternalError(
          absl::StrCat(where, "generated function `", item.target,
                       "` is not valid IR (LLVM's verifier says):",
                       AsContinuationLines(broken)));
  }
  if (!emitted.ok()) {
    // Leave a declaration (or nothing) rather than a broken body.
    if (existing)
      EraseBody(fn);
    else
      fn.eraseFromParent();
  }
  return emitted;
}

} // namespace

absl::StatusOr<LoweringRequest> ParseLoweringRequest(std::string_view spec) {
  absl::StatusOr<AutodiffSpec> parsed = ParseAutodiffSpec(spec);
  if (!parsed.ok())
    return absl::InvalidArgumentError(
        absl::StrCat("'", absl::string_view(spec.data(), spec.size()),
                     "': ", parsed.status().message()));
  LoweringRequest req;
  req.source = std::move(parsed->source);
  req.signature = std::move(parsed->signature);
  req.attr = std::move(parsed->attr);
  return req;
}

SourceSignature SignatureFromLlvm(const llvm::Function &f) {
  SourceSignature sig;
  sig.name = f.getName().str();
  for (const llvm::Argument &a : f.args()) {
    SourceParam p;
    p.name = a.getName().str();
    p.type = SourceTypeFromLlvm(a.getType(), a.hasZExtAttr());
    sig.params.push_back(std::move(p));
  }
  sig.ret = SourceTypeFromLlvm(
      f.getReturnType(), f.getAttributes().hasRetAttr(llvm::Attribute::ZExt));
  return sig;
}

bool SeparateAliasedTarget(llvm::Module &m, const LoweringRequest &req) {
  auto *alias =
      llvm::dyn_cast_or_null<llvm::GlobalAlias>(m.getNamedValue(req.attr.target));
  llvm::Function *src = m.getFunction(req.source);
  auto *aliasee =
      alias ? llvm::dyn_cast<llvm::Function>(alias->getAliaseeObject())
            : nullptr;
  if (!aliasee || !src || alias->getValueType() != aliasee->getValueType() ||
      !(aliasee->isDeclaration() || IsPlaceholderBody(*aliasee, src)))
    return false;
  // A copy of the placeholder under the alias's name and linkage.
  llvm::ValueToValueMapTy vmap;
  llvm::Function *copy = llvm::CloneFunction(aliasee, vmap);
  copy->setLinkage(alias->getLinkage());
  copy->setVisibility(alias->getVisibility());
  alias->replaceAllUsesWith(copy);
  std::string name = alias->getName().str();
  alias->eraseFromParent();
  copy->setName(name);
  return true;
}

absl::Status LowerAutoDiff(llvm::Module &m, const LoweringRequest &req) {
  absl::Status s = Lower(m, req);
  if (s.ok() || req.origin.empty())
    return s;
  return absl::Status(s.code(), absl::StrCat(req.origin, ": ", s.message()));
}

} // namespace autodiff
