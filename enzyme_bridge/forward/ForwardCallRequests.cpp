//===- enzyme_bridge/forward/ForwardCallRequests.cpp - Callee requests ----===//
//
// What a forward-mode call tells its callee's derivative: which arguments
// carry tangents (also integers holding a float's bits, and the integer
// parameters a callee makes its float result of), what this function
// knows of the memory a pointer argument reaches (requests/CallerTypes.h:
// the memory's type, a local holding float bits, a local declared as
// floats), and the pointers into the middle of an active float that a
// callee may write through (a diagnostic).
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/FloatBytes.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/analysis/ReturnedBits.h"
#include "enzyme_bridge/forward/ForwardEmitter.h"
#include "enzyme_bridge/requests/CallerTypes.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace autodiff {
/// Integers holding the bits of a float (the C ABI passes `struct {int,
/// float}` as one i64) carry their tangent's bits into a call; so do
/// integers read from memory used both as floats and as integers (a
/// caller's double array read as uint64_t here), when `loose` (a callee
/// of the module, whose body says what it does with them).
bool ForwardEmitter::PassesFloatBits(Value *a, bool loose) {
  return a->getType()->isIntOrIntVectorTy() && HasT(a) &&
         IsFloatBits(a, 0, /*direct=*/false, loose);
}

/// A pointer into the middle of an active float (the `uint32_t *` to a
/// double's high word) passed to a function that may write through it:
/// what it writes changes part of the float, apart from its tangent (an
/// increment of the exponent word gave a zero tangent, a constant word
/// garbage).
absl::Status ForwardEmitter::CheckPointersIntoFloats(CallBase &call,
                                                     const DiffRequest &r) {
  for (unsigned i = 0; i < r.args.size(); ++i) {
    Value *a = call.getArgOperand(i);
    if (r.args[i] != ArgActivity::Dup || !a->getType()->isPointerTy())
      continue;
    std::string inside = PointerIntoFloat(
        a,
        [&]() -> const TypeInfo & {
          if (!types_)
            types_.emplace(TypeInfo::Compute(out_));
          return *types_;
        },
        out_.getDataLayout());
    if (inside.empty() || !MayWriteThrough(call, i))
      continue;
    return ErrorAt(absl::StatusCode::kUnimplemented, call,
                   "argument " + std::to_string(i + 1) +
                       " points inside the " + inside + ", and `" +
                       r.fn->getName().str() +
                       "` may write through it: a float changed in part "
                       "has no derivative (pass the float, or change it as "
                       "a floating-point value)");
  }
  return absl::OkStatus();
}

/// PassesFloatBits for a callee of the module; and a callee that makes
/// its float result of its integer parameters (`asd(u)`, `join(hi, lo)`)
/// is given their tangents' bits whatever this function knows of them
/// (words of a double kept in a `uint32_t` array): the check at the call
/// (VisitModuleCall) says whether they make whole floats.
bool ForwardEmitter::PassesBitsInto(Value *a, Function *callee) {
  if (PassesFloatBits(a, /*loose=*/true))
    return true;
  if (!a->getType()->isIntOrIntVectorTy() || !HasT(a))
    return false;
  auto [it, fresh] = joins_bits_.try_emplace(callee, false);
  if (fresh)
    it->second = BitsTurnedIntoResult(*callee) != nullptr;
  return it->second;
}

DiffRequest ForwardEmitter::CalleeRequest(CallBase &call, Function &callee) {
  DiffRequest r;
  r.fn = &callee;
  r.mode = Mode::Forward;
  r.width = width_;
  for (unsigned i = 0; i < callee.arg_size(); ++i) {
    Value *a = call.getArgOperand(i);
    bool bits = PassesBitsInto(a, &callee);
    r.args.push_back(HasT(a) && (CarriesDerivative(a->getType()) || bits)
                         ? ArgActivity::Dup
                         : ArgActivity::Const);
  }
  AddArgumentTypes(call, r);
  Type *rt = callee.getReturnType();
  r.return_primal = !rt->isVoidTy() && !call.use_empty();
  // An integer (or a struct of integers) returned may be a float's bits.
  bool bitsBack = !rt->isVoidTy() && !CarriesDerivative(rt) &&
                  Active(&call) &&
                  ReturnsFloatBits(callee, 0,
                                   int64_t(callee.getDataLayout()
                                               .getTypeStoreSize(rt)
                                               .getKnownMinValue())) &&
                  FloatBitsReachFloat(call);
  r.return_tangent = (CarriesDerivative(rt) || bitsBack) && !call.use_empty();
  return r;
}

/// What this function knows of the memory a call passes with a tangent
/// goes into the callee's request (requests/CallerTypes.h): a callee that
/// reads a float* parameter as unsigned (memcpy into an integer) cannot
/// type it alone, and would take the float's bits for an integer's.
void ForwardEmitter::AddArgumentTypes(CallBase &call, DiffRequest &r) {
  for (unsigned k = 0; k < r.args.size() && k < r.fn->arg_size(); ++k) {
    Value *a = call.getArgOperand(k);
    if (r.args[k] != ArgActivity::Dup || !a->getType()->isPointerTy())
      continue;
    if (!types_)
      types_.emplace(TypeInfo::Compute(out_));
    SmallVector<const Value *, 4> passed = {a};
    for (unsigned lane = 0; lane < width_; ++lane)
      passed.push_back(TOrZero(a, lane));
    std::string t = CallerPointerType(*types_, passed,
                                      callee_types_.Of(*r.fn), *r.fn->getArg(k));
    // A local this function keeps a float's bits in as an integer (the
    // `uint64_t` a helper returned them in, at -O0), which its accesses
    // alone type as an integer: the callee must not take it for one.
    if (HoldsFloatBits(a) && !r.fn->getArg(k)->hasAttribute("enzyme_type"))
      t = "{[-1]:Pointer, [-1,-1]:Anything}";
    // A local declared as doubles whose bytes the callee also moves as
    // chars is "anything" to the analysis; its declaration says where its
    // floats are (a helper reversing the bytes of its caller's double).
    else if (t.find("Anything") != std::string::npos)
      if (std::string declared = DeclaredFloats(a); !declared.empty())
        t = declared;
    if (t.empty())
      continue;
    r.arg_types.resize(r.fn->arg_size());
    r.arg_types[k] = std::move(t);
  }
}

/// For a pointer to an element of a local declared as floats (`double
/// y`, `double a[3]`): those floats, relative to the pointer, as a
/// request's type string; empty otherwise.
std::string ForwardEmitter::DeclaredFloats(Value *ptr) {
  const DataLayout &dl = out_.getDataLayout();
  Place p = LocatePlace(ptr, dl);
  auto *local = dyn_cast_or_null<AllocaInst>(p.obj);
  if (!local || p.off < 0 || !local->isStaticAlloca())
    return "";
  Type *t = local->getAllocatedType();
  uint64_t count = 1;
  if (auto *at = dyn_cast<ArrayType>(t)) {
    count = at->getNumElements();
    t = at->getElementType();
  }
  if (!t->isFloatingPointTy() || count == 0 || count > 64)
    return "";
  int64_t w = int64_t(dl.getTypeAllocSize(t));
  if (p.off % w != 0)
    return "";
  std::string name;
  raw_string_ostream os(name);
  t->print(os);
  std::string out = "{[-1]:Pointer";
  for (int64_t at = 0; p.off + at < int64_t(count) * w; at += w)
    out += ", [-1," + std::to_string(at) + "]:Float@" + name;
  return out + "}";
}

/// Whether `ptr` points into a local of this function that an integer
/// with a tangent (a float's bits) was stored into.
bool ForwardEmitter::HoldsFloatBits(Value *ptr) {
  auto *local = dyn_cast<AllocaInst>(getUnderlyingObject(ptr));
  if (!local)
    return false;
  SmallVector<Value *, 8> work;
  work.push_back(local);
  SmallPtrSet<Value *, 16> seen;
  while (!work.empty()) {
    Value *v = work.pop_back_val();
    if (!seen.insert(v).second || seen.size() > 64)
      continue;
    for (User *u : v->users()) {
      if (isa<GetElementPtrInst>(u) || isa<BitCastInst>(u))
        work.push_back(u);
      else if (auto *st = dyn_cast<StoreInst>(u);
               st && st->getPointerOperand() == v &&
               st->getValueOperand()->getType()->isIntOrIntVectorTy() &&
               HasT(st->getValueOperand()))
        return true;
    }
  }
  return false;
}

} // namespace autodiff
