//===- enzyme_bridge/DerivativeCache.cpp - One derivative per request -----===//
#include "enzyme_bridge/requests/DerivativeCache.h"

#include "enzyme_bridge/ClonePrimal.h"
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/RuntimeAbort.h"
#include "llvm/IR/IRBuilder.h"
#include "enzyme_bridge/forward/ForwardMode.h"
#include "enzyme_bridge/reverse/ReverseMode.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace autodiff {

FunctionType *ForwardDerivativeType(const DiffRequest &r) {
  FunctionType *fty = r.fn->getFunctionType();
  SmallVector<Type *, 8> params;
  for (unsigned i = 0; i < fty->getNumParams(); ++i) {
    params.push_back(fty->getParamType(i));
    if (r.IsActive(i))
      for (unsigned k = 0; k < r.width; ++k)
        params.push_back(fty->getParamType(i));
  }
  SmallVector<Type *, 5> leaves;
  Type *ret = fty->getReturnType();
  if (r.return_primal)
    leaves.push_back(ret);
  if (r.return_tangent)
    for (unsigned k = 0; k < r.width; ++k)
      leaves.push_back(ret);
  Type *rt = leaves.empty()       ? Type::getVoidTy(fty->getContext())
             : leaves.size() == 1 ? leaves[0]
                                  : StructType::get(fty->getContext(), leaves);
  return FunctionType::get(rt, params, /*isVarArg=*/false);
}

void CopyAbiParamAttrs(CallBase &call, const Function &callee) {
  call.setCallingConv(callee.getCallingConv());
  static const Attribute::AttrKind kinds[] = {
      Attribute::ByVal,     Attribute::StructRet,   Attribute::ZExt,
      Attribute::SExt,      Attribute::InReg,       Attribute::ByRef,
      Attribute::InAlloca,  Attribute::Preallocated, Attribute::Alignment};
  for (unsigned i = 0; i < callee.arg_size() && i < call.arg_size(); ++i)
    for (Attribute::AttrKind k : kinds)
      if (callee.hasParamAttribute(i, k))
        call.addParamAttr(i, callee.getParamAttribute(i, k));
}

absl::StatusOr<Function *> DerivativeCache::Get(const DiffRequest &r) {
  auto it = map_.find(r);
  if (it != map_.end())
    return it->second;
  if (r.mode != Mode::Forward) {
    absl::Status ok = CheckReverseRequest(r);
    if (!ok.ok())
      return ok;
  }
  if (r.fn->isVarArg())
    return absl::UnimplementedError("cannot differentiate variadic function `" +
                                    r.fn->getName().str() + "`");
  constexpr unsigned kMaxVariants = 64;
  if (++variants_[{r.fn, static_cast<int>(r.mode)}] > kMaxVariants)
    return absl::UnimplementedError(
        "more than " + std::to_string(kMaxVariants) +
        " different derivatives of `" + r.fn->getName().str() +
        "` were requested (its calls differ in activities or argument "
        "types at each depth of a recursion); this is a limitation of the "
        "differentiation core");
  FunctionType *type = nullptr;
  switch (r.mode) {
  case Mode::Forward:
    type = ForwardDerivativeType(r);
    break;
  case Mode::Reverse:
    type = ReverseDerivativeType(r);
    break;
  case Mode::Augmented:
    type = AugmentedType(r);
    break;
  case Mode::SplitReverse:
    type = SplitReverseType(r);
    break;
  }
  Function *f = Function::Create(type, GlobalValue::InternalLinkage,
                                 r.DerivativeName(), &m_);
  // Callers are created before the body is cloned: fix the convention now.
  // (Its attributes, `autodiff-primal` included, come with the body:
  // attribute lists made here would stay in the context unused.)
  f->setCallingConv(r.fn->getCallingConv());
  map_.insert({r, f});
  pending_.push_back(r);
  return f;
}

absl::Status DerivativeCache::Drain() {
  // A failed body does not stop the others: each problem is reported once.
  std::vector<absl::Status> problems;
  while (!pending_.empty()) {
    DiffRequest r = pending_.front();
    pending_.pop_front();
    Function *f = map_.lookup(r);
    absl::Status s = EmitBody(r, *f);
    if (!s.ok() && StubSpeculative(r, s))
      continue;
    if (!s.ok() && none_of(problems, [&](const absl::Status &p) {
          return p.message() == s.message();
        }))
      problems.push_back(s);
  }
  if (!problems.empty())
    // A failed body may be left half-built: keep the module valid for the
    // host, which may run passes before it stops, by leaving every
    // derivative of this cache a declaration.
    for (auto &entry : map_) {
      entry.second->deleteBody();
      entry.second->setLinkage(GlobalValue::ExternalLinkage);
    }
  return JoinProblems(problems);
}

absl::Status DerivativeCache::EmitBody(const DiffRequest &r, Function &f) {
  if (r.mode == Mode::Forward)
    return EmitForwardDerivative(r, f, *this);
  if (r.mode == Mode::Reverse)
    return EmitReverseDerivative(r, f, *this);
  // The two halves of a split derivative are made together, when the
  // first of them is drained.
  if (!f.isDeclaration())
    return absl::OkStatus();
  DiffRequest aug = r, rev = r;
  aug.mode = Mode::Augmented;
  rev.mode = Mode::SplitReverse;
  absl::StatusOr<Function *> a = Get(aug);
  if (!a.ok())
    return a.status();
  absl::StatusOr<Function *> b = Get(rev);
  if (!b.ok())
    return b.status();
  if (!(*a)->isDeclaration() || !(*b)->isDeclaration())
    return absl::OkStatus();
  return EmitSplitDerivative(r, **a, **b, *this);
}

std::string CandidateStopMessage(const std::string &caller,
                                 const std::string &callee,
                                 const std::string &reason) {
  return "autodiff: the derivative of `" + caller + "` called `" + callee +
         "` through a function pointer, but `" + callee +
         "` could not be differentiated: " + reason + "\n";
}

void DerivativeCache::NoteCaller(Function &f, Function &caller_derivative,
                                 bool speculative, const std::string &caller) {
  callers_[&f].push_back({&caller_derivative, speculative, caller});
}

bool DerivativeCache::Needed(Function *f,
                             SmallPtrSetImpl<Function *> &seen) const {
  if (roots_.count(f))
    return true;
  auto it = callers_.find(f);
  if (it == callers_.end())
    return true; // Called from code that did not say: keep it.
  if (!seen.insert(f).second)
    return false;
  for (const CallerEdge &e : it->second)
    if (!e.speculative && Needed(e.caller, seen))
      return true;
  return false;
}

bool DerivativeCache::StubSpeculative(const DiffRequest &r,
                                      const absl::Status &s) {
  // The functions the failed body made: a split derivative's two halves.
  SmallVector<Function *, 2> made;
  if (r.mode == Mode::Augmented || r.mode == Mode::SplitReverse) {
    for (Mode m : {Mode::Augmented, Mode::SplitReverse}) {
      DiffRequest half = r;
      half.mode = m;
      if (Function *f = map_.lookup(half))
        made.push_back(f);
    }
  } else if (Function *f = map_.lookup(r)) {
    made.push_back(f);
  }
  if (made.empty())
    return false;
  // A split derivative's halves are made together: a half nobody has
  // called yet (its caller failed before reaching its reverse sweep)
  // follows the other.
  std::string caller;
  bool recorded = false;
  for (Function *f : made) {
    if (!roots_.count(f) && !callers_.count(f))
      continue;
    recorded = true;
    SmallPtrSet<Function *, 8> seen;
    if (Needed(f, seen))
      return false;
    for (const CallerEdge &e : callers_.lookup(f))
      if (e.speculative && caller.empty())
        caller = e.name;
  }
  if (!recorded)
    return false;
  for (Function *f : made) {
    EraseBody(*f);
    IRBuilder<> b(BasicBlock::Create(f->getContext(), "entry", f));
    EmitRuntimeAbort(b, CandidateStopMessage(caller, r.fn->getName().str(),
                                             FirstLine(s)));
  }
  return true;
}

void DerivativeCache::Print(raw_ostream &os) const {
  for (const auto &entry : map_)
    os << entry.first.ToString() << " -> " << entry.second->getName() << "\n";
}

} // namespace autodiff
