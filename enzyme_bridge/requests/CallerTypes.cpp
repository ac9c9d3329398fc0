//===- enzyme_bridge/requests/CallerTypes.cpp - Types a caller knows ------===//
#include "enzyme_bridge/requests/CallerTypes.h"

#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"

#include <string>

namespace autodiff {
namespace {

/// Whether the caller's fact `b` at `off` tells the callee something: a
/// float where the callee knows none or another one (two floats the
/// callee moves as one double), or conflicting uses (a float of the
/// caller's joined with the callee's own integer writes) where the callee
/// sees an integer only (`unsigned u; memcpy(&u, f, 4); u += 1 << 23;` on
/// the caller's float) or a float only (a `{float; int}` record the callee
/// moves as one double).
bool Tells(int64_t off, const BaseType &b, const MemoryTypes &callee) {
  BaseType own = callee.Lookup(off);
  return off >= -1 &&
         ((b.kind == BaseType::Float &&
           (own.kind != BaseType::Float || own.fp != b.fp)) ||
          (b.kind == BaseType::Anything && off >= 0 &&
           (own.kind == BaseType::Integer || own.kind == BaseType::Float)));
}

/// `{[-1]:Pointer, [-1,0]:Float@double, ...}` for a pointer to what the
/// caller knows of `pointee` that tells the callee something (an integer
/// or pointer use in the caller says less of what the callee does with
/// the bytes).
std::string PointerTypeString(const MemoryTypes &pointee,
                              const MemoryTypes &callee) {
  std::string s = "{[-1]:Pointer";
  auto every = pointee.at.find(-1);
  for (const auto &[off, b] : pointee.at) {
    // Not what lies before the pointer: a recursion on `x + 1` would ask
    // for a new derivative at each depth.
    if (off < -1 || (b.kind != BaseType::Float && !Tells(off, b, callee)))
      continue;
    // Nor what "every offset" says already (a double array the caller
    // also writes at a constant index): the same recursion would see that
    // index move at each depth.
    if (off >= 0 && every != pointee.at.end() && every->second == b)
      continue;
    s += ", [-1," + std::to_string(off) + "]:" + b.ToString();
  }
  return s + "}";
}

/// The values that are the same pointer as `v`: `v`, and where `v` is read
/// from a stack slot that holds one value all along (the variable of an
/// unoptimized caller, `double *x = malloc(...)`), every read of that slot
/// and the value stored.
llvm::SmallVector<const llvm::Value *, 4> SamePointer(const llvm::Value *v) {
  llvm::SmallVector<const llvm::Value *, 4> out{v};
  auto *load = llvm::dyn_cast<llvm::LoadInst>(v);
  auto *slot = load ? llvm::dyn_cast<llvm::AllocaInst>(
                          load->getPointerOperand()->stripPointerCasts())
                    : nullptr;
  if (!slot)
    return out;
  const llvm::Value *stored = nullptr;
  llvm::SmallVector<const llvm::Value *, 4> reads;
  for (const llvm::User *u : slot->users()) {
    if (auto *l = llvm::dyn_cast<llvm::LoadInst>(u)) {
      if (l != load && l->getType() == load->getType())
        reads.push_back(l);
      continue;
    }
    auto *s = llvm::dyn_cast<llvm::StoreInst>(u);
    if (!s || s->getPointerOperand() != slot ||
        (stored && s->getValueOperand() != stored))
      return out; // escapes, or holds more than one value
    stored = s->getValueOperand();
  }
  if (!stored)
    return out;
  out.push_back(stored);
  out.append(reads.begin(), reads.end());
  return out;
}

} // namespace

std::string CallerPointerType(const TypeInfo &caller,
                              llvm::ArrayRef<const llvm::Value *> passed,
                              const TypeInfo &callee,
                              const llvm::Argument &param) {
  if (!param.getType()->isPointerTy() || param.hasAttribute("enzyme_type"))
    return "";
  // The shadow has the layout of the primal memory: what the caller does
  // with either describes both.
  MemoryTypes known;
  for (const llvm::Value *p : passed)
    if (p)
      for (const llvm::Value *same : SamePointer(p))
        for (const auto &[off, b] : caller.TypesAt(same).at)
          known.Add(off, b);
  MemoryTypes own = callee.TypesAt(&param);
  if (llvm::none_of(known.at,
                    [&](auto &e) { return Tells(e.first, e.second, own); }))
    return "";
  return PointerTypeString(known, own);
}

void AddCallerArgumentTypes(llvm::MutableArrayRef<RequestCall> calls) {
  TypeInfoCache types;
  for (RequestCall &rc : calls) {
    DiffRequest &r = rc.request;
    if (r.mode != Mode::Forward && r.mode != Mode::Reverse)
      continue;
    const llvm::Function &f = *r.fn;
    const llvm::Function *caller = rc.call->getFunction();
    for (unsigned i = 0; i < f.arg_size() && i < r.args.size(); ++i) {
      bool dup = r.args[i] == ArgActivity::Dup ||
                 r.args[i] == ArgActivity::DupNoNeed;
      if (!dup || i >= rc.primals.size())
        continue;
      llvm::SmallVector<const llvm::Value *, 4> passed{rc.primals[i]};
      if (i < rc.shadows.size())
        for (const llvm::WeakTrackingVH &shadow : rc.shadows[i])
          passed.push_back(shadow);
      std::string t = CallerPointerType(types.Of(*caller), passed,
                                        types.Of(f), *f.getArg(i));
      if (t.empty())
        continue;
      r.arg_types.resize(f.arg_size());
      r.arg_types[i] = std::move(t);
    }
  }
}

} // namespace autodiff
