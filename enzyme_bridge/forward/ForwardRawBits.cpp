//===- enzyme_bridge/ForwardRawBits.cpp - Floats carried as integers ------===//
//
// Optimized code and the C ABI move floating-point data as integers: a
// double copied as i64, `struct {int n; float w;}` passed as one i64,
// `_Atomic double` updated through a cmpxchg on i64, fabs written as a mask
// on the bits. Such integers carry the raw bits of their tangents:
//  - moves (loads, stores, phis, selects, bitcasts) copy the tangent bits;
//  - sign-bit operations (fabs, fneg, -fabs, copysign on the bits) apply
//    the same sign to the tangent;
//  - byte moves (truncation and zero extension to whole bytes, shifts by
//    whole bytes, masks made of 0x00 and 0xff bytes, `or` of values with
//    no common bits, funnel shifts by whole bytes, byte swaps) move the
//    tangent's bytes the same way, so floats
//    packed into and unpacked from integers keep their tangents;
//  - any other integer operation on such bits (an ulp step, a new exponent,
//    the bits read as a number) is a diagnostic when its result becomes a
//    float again; used only to decide a branch it needs no derivative.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/FloatBytes.h"
#include "enzyme_bridge/analysis/LocalCopies.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/forward/ForwardEmitter.h"
#include "enzyme_bridge/analysis/ReturnedBits.h"
#include "support/StatusMacros.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace autodiff {

absl::Status ForwardEmitter::VisitIntegerBits(Instruction &i) {
  if (auto *bo = dyn_cast<BinaryOperator>(&i); bo && VisitAddressArithmetic(*bo))
    return absl::OkStatus();
  if (auto *bo = dyn_cast<BinaryOperator>(&i)) {
    bool handled = false;
    AD_RETURN_IF_ERROR(VisitSignBitOp(*bo, handled));
    if (handled)
      return absl::OkStatus();
  }
  if (VisitByteMove(i))
    return absl::OkStatus();
  return CheckFloatBitsKept(i);
}

/// Pointer arithmetic on integers (Numba's strided views compute
/// inttoptr(ptrtoint(data) + i * stride)): an offset added to, subtracted
/// from or or-ed into an address whose shadow address is known gives the
/// shadow's address the same way.
bool ForwardEmitter::VisitAddressArithmetic(BinaryOperator &i) {
  auto op = i.getOpcode();
  if (op != Instruction::Add && op != Instruction::Sub &&
      op != Instruction::Or)
    return false;
  Value *a = i.getOperand(0), *c = i.getOperand(1);
  auto isAddress = [&](Value *v) {
    return HasT(v) && (isa<PtrToIntInst>(v) || address_ints_.count(v));
  };
  bool left = isAddress(a) && !HasT(c);
  bool right = op == Instruction::Add && isAddress(c) && !HasT(a);
  if (!left && !right)
    return false;
  address_ints_.insert(&i);
  SetLanes(&i, [&](unsigned k) {
    Value *ta = left ? T(a, k) : a;
    Value *tc = right ? T(c, k) : c;
    return b_.CreateBinOp(op, ta, tc, i.getName() + "'");
  });
  return true;
}

/// Sign-bit operations on the raw bits of a float (code that reads a double
/// through a union or an integer copy): and with ~sign is fabs, xor with the
/// sign is fneg, or with the sign is -fabs, or with another value's sign is
/// copysign, xor with another value's sign multiplies by its sign. Their
/// tangents are the same bit operations on the tangent's bits.
absl::Status ForwardEmitter::VisitSignBitOp(BinaryOperator &i, bool &handled) {
  handled = false;
  auto *ty = dyn_cast<IntegerType>(i.getType());
  if (!ty || (ty->getBitWidth() != 64 && ty->getBitWidth() != 32) ||
      !Active(&i))
    return absl::OkStatus();
  Value *a = i.getOperand(0), *c = i.getOperand(1);
  if (!HasT(a) && HasT(c))
    std::swap(a, c);
  if (!HasT(a) || HasT(c))
    return absl::OkStatus();
  APInt sign = APInt::getSignMask(ty->getBitWidth());
  const APInt *k = nullptr;
  bool isConst = match(c, m_APInt(k));
  unsigned op = i.getOpcode();
  Value *signOfA = nullptr;
  if (isConst && op == Instruction::And && *k == sign) {
    handled = true; // The sign alone: no derivative (copysign uses it).
    return absl::OkStatus();
  }
  if (isConst && op == Instruction::And && *k == ~sign) {
    signOfA = b_.CreateAnd(a, ConstantInt::get(ty, sign)); // fabs
  } else if (isConst && op == Instruction::Xor && *k == sign) {
    signOfA = ConstantInt::get(ty, sign); // fneg
  } else if (isConst && op == Instruction::Or && *k == sign) {
    Value *aSign = b_.CreateAnd(a, ConstantInt::get(ty, sign));
    signOfA = b_.CreateXor(aSign, ConstantInt::get(ty, sign)); // -fabs
  } else if (!isConst && op == Instruction::Or &&
             match(c, m_And(m_Value(), m_SpecificInt(sign)))) {
    signOfA = c; // copysign(|a|, b): the tangent takes b's sign
  } else if (!isConst && op == Instruction::Xor &&
             match(c, m_And(m_Value(), m_SpecificInt(sign)))) {
    signOfA = c; // a * sign(b)
  } else {
    return absl::OkStatus();
  }
  SetLanes(&i, [&](unsigned k) { return b_.CreateXor(T(a, k), signOfA); });
  handled = true;
  return absl::OkStatus();
}

/// Whether every byte of `k` is 0x00 or 0xff.
static bool IsByteMask(const APInt &k) {
  for (unsigned b = 0; b < k.getBitWidth(); b += 8) {
    uint64_t byte = k.extractBitsAsZExtValue(8, b);
    if (byte != 0 && byte != 0xff)
      return false;
  }
  return true;
}

/// The bytes of integer `v` known to be zero (bit b for byte b), through
/// the byte moves that pack and unpack words: a chain of `or`s of shifted
/// bytes (`p[0] | p[1] << 8 | ... | p[7] << 56`, as deep as it is long,
/// which computeKnownBits gives up on), zero extensions, byte masks.
static uint64_t KnownZeroBytes(const Value *v,
                               DenseMap<const Value *, uint64_t> &memo,
                               unsigned depth = 0) {
  auto *ty = dyn_cast<IntegerType>(v->getType());
  if (!ty || ty->getBitWidth() % 8 != 0 || ty->getBitWidth() > 64)
    return 0;
  unsigned n = ty->getBitWidth() / 8;
  uint64_t all = n == 8 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  if (const auto *k = dyn_cast<ConstantInt>(v)) {
    uint64_t z = 0;
    for (unsigned b = 0; b < n; ++b)
      if (k->getValue().extractBitsAsZExtValue(8, 8 * b) == 0)
        z |= uint64_t(1) << b;
    return z;
  }
  const auto *i = dyn_cast<Instruction>(v);
  if (!i || depth > 64)
    return 0;
  if (auto it = memo.find(v); it != memo.end())
    return it->second;
  memo[v] = 0; // (Round a cycle: nothing known.)
  uint64_t z = 0;
  const APInt *k = nullptr;
  if (const auto *ze = dyn_cast<ZExtInst>(i)) {
    unsigned from = ze->getSrcTy()->getScalarSizeInBits();
    if (from % 8 == 0) {
      z = all & ~((uint64_t(1) << (from / 8)) - 1);
      z |= KnownZeroBytes(ze->getOperand(0), memo, depth + 1);
    }
  } else if ((i->getOpcode() == Instruction::Shl ||
              i->getOpcode() == Instruction::LShr) &&
             match(i->getOperand(1), m_APInt(k)) &&
             k->getZExtValue() % 8 == 0 && k->getZExtValue() < 8 * n) {
    unsigned s = unsigned(k->getZExtValue() / 8);
    uint64_t in = KnownZeroBytes(i->getOperand(0), memo, depth + 1);
    if (i->getOpcode() == Instruction::Shl)
      z = ((in << s) | ((uint64_t(1) << s) - 1)) & all;
    else
      z = ((in >> s) | (all & ~(all >> s))) & all;
  } else if (i->getOpcode() == Instruction::Or ||
             i->getOpcode() == Instruction::Xor) {
    z = KnownZeroBytes(i->getOperand(0), memo, depth + 1) &
        KnownZeroBytes(i->getOperand(1), memo, depth + 1);
  } else if (i->getOpcode() == Instruction::And) {
    z = KnownZeroBytes(i->getOperand(0), memo, depth + 1) |
        KnownZeroBytes(i->getOperand(1), memo, depth + 1);
  }
  memo[v] = z;
  return z;
}

bool ForwardEmitter::VisitByteMove(Instruction &i) {
  Type *ty = i.getType();
  if (!ty->isIntOrIntVectorTy() || ty->getScalarSizeInBits() % 8 != 0 ||
      !Active(&i))
    return false;
  Value *a = i.getOperand(0);
  switch (i.getOpcode()) {
  case Instruction::Trunc:
  case Instruction::ZExt:
    if (!HasT(a) || a->getType()->getScalarSizeInBits() % 8 != 0)
      return false;
    SetLanes(&i, [&](unsigned k) {
      return b_.CreateCast(cast<CastInst>(i).getOpcode(), TOrZero(a, k), ty);
    });
    return true;
  case Instruction::Shl:
  case Instruction::LShr: {
    const APInt *sh = nullptr;
    if (!HasT(a) || HasT(i.getOperand(1)) ||
        !match(i.getOperand(1), m_APInt(sh)) || sh->getZExtValue() % 8 != 0)
      return false;
    SetLanes(&i, [&](unsigned k) {
      return b_.CreateBinOp(cast<BinaryOperator>(i).getOpcode(),
                            TOrZero(a, k), i.getOperand(1));
    });
    return true;
  }
  case Instruction::And: {
    Value *c = i.getOperand(1);
    if (!HasT(a))
      std::swap(a, c);
    const APInt *mask = nullptr;
    if (!HasT(a) || HasT(c) || !match(c, m_APInt(mask)) || !IsByteMask(*mask))
      return false;
    SetLanes(&i, [&](unsigned k) { return b_.CreateAnd(TOrZero(a, k), c); });
    return true;
  }
  case Instruction::Or: {
    Value *c = i.getOperand(1);
    // Packing: the two sides hold disjoint bits (an integer field beside a
    // float's bits; its tangent bits are zero). A constant merged into a
    // float's own bits (a new exponent) needs a mask first, which is no
    // byte move and is reported there.
    if (!(HasT(a) || HasT(c)))
      return false;
    // (Each byte zero on one side at least.)
    DenseMap<const Value *, uint64_t> memo;
    unsigned n = ty->getScalarSizeInBits() / 8;
    uint64_t all = n >= 8 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
    bool disjointBytes = ty->isIntegerTy() && n <= 8 &&
                         (KnownZeroBytes(a, memo) | KnownZeroBytes(c, memo)) ==
                             all;
    if (!disjointBytes &&
        !haveNoCommonBitsSet(a, c, SimplifyQuery(out_.getDataLayout())))
      return false;
    SetLanes(&i, [&](unsigned k) {
      Value *ta = TOrZero(a, k);
      Value *tc = TOrZero(c, k);
      return b_.CreateOr(ta, tc);
    });
    return true;
  }
  default:
    return false;
  }
}

/// An integer intrinsic on the bits of an active float: funnel shifts by
/// whole bytes (how -O2 packs `struct {int; float;}` into one i64) and byte
/// swaps move the tangent's bytes the same way; any other (a bit count, a
/// rotate by bits) is a diagnostic when its result becomes a float again.
absl::Status ForwardEmitter::VisitIntegerBitsIntrinsic(CallBase &call) {
  Intrinsic::ID id = call.getIntrinsicID();
  Type *ty = call.getType();
  bool bytes = ty->getScalarSizeInBits() % 8 == 0 && Active(&call);
  const APInt *sh = nullptr;
  if (bytes && (id == Intrinsic::fshl || id == Intrinsic::fshr) &&
      !HasT(call.getArgOperand(2)) &&
      match(call.getArgOperand(2), m_APInt(sh)) &&
      sh->urem(ty->getScalarSizeInBits()) % 8 == 0) {
    SetLanes(&call, [&](unsigned k) {
      return b_.CreateIntrinsic(id, {ty},
                                {TOrZero(call.getArgOperand(0), k),
                                 TOrZero(call.getArgOperand(1), k),
                                 call.getArgOperand(2)});
    });
    float_bits_.insert(&call);
    return absl::OkStatus();
  }
  if (bytes && id == Intrinsic::bswap) {
    SetLanes(&call, [&](unsigned k) {
      return b_.CreateUnaryIntrinsic(id, TOrZero(call.getArgOperand(0), k));
    });
    float_bits_.insert(&call);
    return absl::OkStatus();
  }
  if (!FloatBitsReachFloat(call))
    return absl::OkStatus(); // A count or a test of the bits: no tangent.
  return ErrorAt(absl::StatusCode::kUnimplemented, call,
                 "integer intrinsic `" + call.getCalledFunction()->getName().str() +
                     "` on the bits of an active floating-point value, used "
                     "as a floating-point value again, cannot be "
                     "differentiated (only moves of whole bytes can); do the "
                     "arithmetic on the floating-point value");
}

/// Whether `v`, an integer, holds the bits of a float: it comes from a
/// bitcast of one, or from memory the type analysis knows to hold floats,
/// through moves and (unless `direct`, which asks whether `v` is the whole
/// float) byte moves, sign-bit operations and calls.
bool ForwardEmitter::IsFloatBits(Value *v, unsigned depth, bool direct,
                                 bool loose) {
  if (depth > 8)
    return false;
  if (auto *bc = dyn_cast<BitCastInst>(v))
    return bc->getSrcTy()->isFPOrFPVectorTy();
  // Integer tangents asked for across a call (see CalleeRequest).
  if (!direct && float_bits_.count(v))
    return true;
  if (isa<Argument>(v) && !direct && HasT(v) &&
      v->getType()->isIntOrIntVectorTy())
    return true;
  // A call of the module not visited yet (a loop-carried accumulator
  // `a = step(a, x)` passed back into the call that returns it): its
  // result will carry a float's bits when the callee may return some.
  if (auto *cb = dyn_cast<CallBase>(v)) {
    Function *callee = cb->getCalledFunction();
    return !direct && callee && !callee->isDeclaration() &&
           v->getType()->isIntegerTy() &&
           ReturnsFloatBits(*callee, 0,
                            int64_t(out_.getDataLayout()
                                        .getTypeStoreSize(v->getType())
                                        .getKnownMinValue()));
  }
  if (isa<Argument>(v))
    return false;
  Value *ptr = nullptr;
  if (auto *l = dyn_cast<LoadInst>(v))
    ptr = l->getPointerOperand();
  else if (auto *rmw = dyn_cast<AtomicRMWInst>(v))
    ptr = rmw->getPointerOperand();
  else if (auto *cx = dyn_cast<AtomicCmpXchgInst>(v))
    ptr = cx->getPointerOperand();
  if (ptr) {
    if (!types_)
      types_.emplace(TypeInfo::Compute(out_));
    Type *accessed = v->getType();
    if (auto *cx = dyn_cast<AtomicCmpXchgInst>(v))
      accessed = cx->getNewValOperand()->getType();
    int64_t size = out_.getDataLayout().getTypeStoreSize(accessed);
    MemoryTypes mt = types_->TypesAt(ptr);
    // A field declared integer at the access's first byte (`p->n` after
    // `float x[4]`) covers the bytes after it: a fact about every offset
    // (the array read at a variable index) is not about them. (An integer
    // access that declares nothing, a word copied out of a float array,
    // may still read floats there.)
    auto *field = dyn_cast<LoadInst>(v);
    bool known_first = field && DeclaresInteger(*field) &&
                       mt.at.count(0) != 0;
    for (int64_t off = 0; off < size; ++off) {
      if (off > 0 && known_first && !mt.at.count(off))
        continue;
      // Memory known to hold floats; memory of conflicting types (a union
      // of a double and an integer, or a Rust enum's payload) only when
      // `loose` (deciding a diagnostic, not a derivative's signature).
      BaseType::Kind kind = mt.Lookup(off).kind;
      if (kind == BaseType::Float || (loose && kind == BaseType::Anything))
        return true;
    }
    // Bytes moved through locals (-O0 code keeps the i64 a `{float; int}`
    // is returned in in a stack slot, copies it into the struct's slot and
    // loads it back): typed integer by those copies alone, they hold what
    // was stored.
    // (Not a field the struct declares integer: `a.n` of `{float v; int
    // n}` passed in one i64 is no float's bits, though the word is. The
    // ABI's literal `{i64, float}` declares nothing: its i64 is the packed
    // word. A float stored over the field's bytes is read through it,
    // though: the word of a union of a double and two words.)
    auto *ld = dyn_cast<LoadInst>(v);
    auto *gep = ld ? dyn_cast<GEPOperator>(ld->getPointerOperand()) : nullptr;
    auto *st = gep ? dyn_cast<StructType>(gep->getSourceElementType()) : nullptr;
    bool declared = ld && DeclaresInteger(*ld) && !(st && st->isLiteral());
    if (ld)
      for (const StoredBytes &s :
           StoredValuesReaching(*ld, out_.getDataLayout())) {
        if (declared) {
          if (s.value &&
              FloatLeafIn(s.value->getType(), s.lo, s.hi, out_.getDataLayout()))
            return true;
          continue;
        }
        if (!s.value) {
          // Copied in from other memory (memcpy from a float* parameter
          // into an unsigned at -O0): what that memory holds.
          MemoryTypes from = types_->TypesAt(s.source);
          for (int64_t off = s.lo; off < s.hi && off < s.lo + 64; ++off) {
            BaseType::Kind kind = from.Lookup(off).kind;
            if (kind == BaseType::Float ||
                (loose && kind == BaseType::Anything))
              return true;
          }
          continue;
        }
        if (s.value == v)
          continue;
        if (FloatLeafIn(s.value->getType(), s.lo, s.hi, out_.getDataLayout()))
          return true;
        // (A call's result is a float's bits only for its tangent, not
        // as `direct` evidence for a diagnostic: see float_bits_.)
        auto by = returned_by_.find(s.value);
        if (by != returned_by_.end()
                ? !direct && ReturnsFloatBits(*by->second, s.lo, s.hi)
                : IsFloatBits(s.value, depth + 1, direct, loose))
          return true;
      }
    return false;
  }
  // A field of a struct a derivative call returned: the callee says
  // whether those bytes may be a float's.
  if (auto *ev = dyn_cast<ExtractValueInst>(v)) {
    auto by = returned_by_.find(ev->getAggregateOperand());
    if (by != returned_by_.end()) {
      if (direct)
        return false;
      auto field = FieldBytes(ev->getAggregateOperand()->getType(),
                              ev->getIndices(), out_.getDataLayout());
      return field && ReturnsFloatBits(*by->second, field->first,
                                       field->first + field->second);
    }
  }
  auto *i = dyn_cast<Instruction>(v);
  bool move = i && (isa<PHINode>(i) || isa<SelectInst>(i) ||
                    isa<FreezeInst>(i) || isa<ExtractValueInst>(i));
  bool bitOp = i && (isa<BinaryOperator>(i) || isa<TruncInst>(i) ||
                     isa<ZExtInst>(i));
  if (!move && !(bitOp && !direct))
    return false;
  for (Value *op : i->operands())
    if (op->getType()->isIntOrIntVectorTy() || op->getType()->isStructTy())
      if (IsFloatBits(op, depth + 1, direct, loose))
        return true;
  return false;
}

bool ForwardEmitter::ReturnsFloatBits(const Function &f, int64_t lo,
                                      int64_t hi) {
  auto key = std::make_tuple(&f, lo, hi);
  auto it = returns_float_bits_.find(key);
  if (it != returns_float_bits_.end())
    return it->second;
  bool bits = MayReturnFloatBits(f, lo, hi);
  returns_float_bits_[key] = bits;
  return bits;
}

/// Whether `i` moves whole bytes of `v` (a word of a double taken out
/// with a shift and a truncation, which a helper returns).
static bool IsByteMoveOf(const Instruction &i, const Value *v) {
  auto whole = [](const Type *t) {
    return t->isIntegerTy() && t->getScalarSizeInBits() % 8 == 0;
  };
  if (!whole(i.getType()) || !whole(v->getType()))
    return false;
  if (isa<TruncInst>(i) || isa<ZExtInst>(i))
    return true;
  const APInt *k = nullptr;
  if ((i.getOpcode() == Instruction::Shl ||
       i.getOpcode() == Instruction::LShr) &&
      i.getOperand(0) == v && match(i.getOperand(1), m_APInt(k)))
    return k->getZExtValue() % 8 == 0;
  if (i.getOpcode() == Instruction::And &&
      (match(i.getOperand(1), m_APInt(k)) ||
       match(i.getOperand(0), m_APInt(k))))
    return IsByteMask(*k);
  return false;
}

/// Whether integer `v` is computed from an integer parameter (through
/// integer steps, a few back).
static bool FromIntegerParameter(const Value *v, unsigned depth) {
  if (isa<Argument>(v))
    return v->getType()->isIntOrIntVectorTy();
  const auto *i = dyn_cast<Instruction>(v);
  if (!i || depth > 8 ||
      !(isa<BinaryOperator>(i) || isa<CastInst>(i) || isa<FreezeInst>(i) ||
        isa<SelectInst>(i)))
    return false;
  return any_of(i->operands(), [&](const Use &op) {
    return FromIntegerParameter(op.get(), depth + 1);
  });
}

/// Whether the integer result of `i` flows, through integer operations,
/// into a floating-point value again: reinterpreted as one, or stored into
/// active memory that holds floats.
bool ForwardEmitter::FloatBitsReachFloat(Instruction &i) {
  SmallVector<Instruction *, 16> work = {&i};
  SmallPtrSet<Instruction *, 16> seen;
  // Values that are `i` moved (loaded back from a slot it was stored in,
  // chosen by a phi or select), not computed from it.
  SmallPtrSet<Instruction *, 16> moved = {&i};
  while (!work.empty() && seen.size() < 256) {
    Instruction *v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (User *u : v->users()) {
      auto *ui = dyn_cast<Instruction>(u);
      if (!ui)
        continue;
      if (isa<BitCastInst>(ui) && ui->getType()->isFPOrFPVectorTy())
        return true;
      // Returned as it is: the caller, which asked for this function's
      // tangent bits, may turn it into a float (`lvl3(a) { return
      // scale(a, 2); }` passing on a {float; int} in an i64). (Not after
      // integer steps: `n++` on the int half of such a word is no
      // arithmetic on the float.)
      // (After integer steps too when the caller asked for this
      // function's tangent bits, which it reads as a float, and the bits
      // are made here, not handed in by the caller: the caller knows its
      // own word's layout, `n++` on the `int` half of a `{float; int}`
      // word is no arithmetic on the float.)
      if (isa<ReturnInst>(ui) &&
          (moved.count(v) ||
           (req_.return_tangent && !FromIntegerParameter(&i, 0))))
        return true;
      // Passed to a function of the module, which may turn it into a float.
      if (auto *call = dyn_cast<CallBase>(ui)) {
        Function *callee = call->getCalledFunction();
        // (Or through a pointer, which may be one of them.)
        if ((!callee || !callee->isDeclaration()) &&
            !isa<InlineAsm>(call->getCalledOperand()) &&
            is_contained(call->args(), v))
          return true;
        // An integer intrinsic (a byte swap) passes the bits on.
        if (isa<IntrinsicInst>(call) && call->getType()->isIntOrIntVectorTy()) {
          work.push_back(call);
          if (moved.count(v) && call->getIntrinsicID() == Intrinsic::bswap)
            moved.insert(call);
        }
        continue;
      }
      if (auto *st = dyn_cast<StoreInst>(ui)) {
        // (A store after `i` goes through an address not visited yet:
        // its object's shadow tells.)
        Value *to = st->getPointerOperand();
        if (st->getValueOperand() != v)
          continue;
        // A global anyone may read as a float: its tangent is asked for,
        // and the store without a shadow to take it is refused (as when
        // the bits are a bitcast's).
        if (auto *g = dyn_cast<GlobalVariable>(getUnderlyingObject(to));
            g && !g->isConstant())
          return true;
        if (!(HasT(to) || HasT(getUnderlyingObject(to))))
          continue;
        // A place in a local known only at run time (`v[i] = bits`):
        // whatever reads the local may read them.
        if (LocatePlace(to, out_.getDataLayout()).off < 0)
          return true;
        // The caller's memory: what it does with the bits is its own
        // (a `uint32_t w[2]` it fills with a helper and joins into a
        // double with another).
        if (isa<Argument>(getUnderlyingObject(to)))
          return true;
        if (!types_)
          types_.emplace(TypeInfo::Compute(out_));
        // Memory known to hold floats over some of the bytes stored (the
        // float of `{int; float}` is in the upper half of its i64), or of
        // unknown type (a local that -O0 code copies into a double).
        MemoryTypes mt = types_->TypesAt(st->getPointerOperand());
        int64_t size = int64_t(out_.getDataLayout()
                                   .getTypeStoreSize(v->getType())
                                   .getKnownMinValue());
        BaseType::Kind first = mt.Lookup(0).kind;
        if (first != BaseType::Integer && first != BaseType::Pointer)
          return true;
        // (Bytes after the first with facts of their own: the fact about
        // every offset is not about the interior of the scalar at 0.)
        bool known_first = DeclaresInteger(*st) && mt.at.count(0) != 0;
        for (int64_t off = 1; off < size && off < 64; ++off)
          if ((!known_first || mt.at.count(off)) &&
              (mt.Lookup(off).kind == BaseType::Float ||
               mt.Lookup(off).kind == BaseType::Anything))
            return true;
        // A local typed integer by this very copy (-O0 code keeps an ABI
        // word of a {float; int} struct in a stack slot between two
        // calls): the bits go on in what is loaded back from it, and in
        // a callee given its address.
        bool escapes = false;
        SmallVector<LoadInst *, 4> reads =
            LoadsReading(*st, out_.getDataLayout(), &escapes);
        if (escapes)
          return true;
        for (LoadInst *ld : reads) {
          if (FloatLeafIn(ld->getType(), 0, 1 << 20, out_.getDataLayout()))
            return true;
          // (A struct of integers too: -O0 code returns `{uint64_t u;
          // int k}` by loading its slot whole.)
          if (ld->getType()->isIntOrIntVectorTy() ||
              (ld->getType()->isAggregateType() &&
               !CarriesDerivative(ld->getType()))) {
            work.push_back(ld);
            if (moved.count(v))
              moved.insert(ld);
          }
        }
        continue;
      }
      bool intLike = ui->getType()->isIntOrIntVectorTy() ||
                     (ui->getType()->isAggregateType() &&
                      !CarriesDerivative(ui->getType()));
      if (intLike &&
          (isa<BinaryOperator>(ui) || isa<CastInst>(ui) || isa<PHINode>(ui) ||
           isa<SelectInst>(ui) || isa<FreezeInst>(ui) ||
           isa<ExtractValueInst>(ui) || isa<InsertValueInst>(ui)))
        work.push_back(ui);
      if (moved.count(v) && (isa<PHINode>(ui) || isa<SelectInst>(ui) ||
                             isa<FreezeInst>(ui) || IsByteMoveOf(*ui, v)))
        moved.insert(ui);
    }
  }
  return false;
}

absl::Status ForwardEmitter::CheckFloatBitsKept(Instruction &i) {
  bool bits = false;
  for (Value *op : i.operands())
    bits |= op->getType()->isIntOrIntVectorTy() && HasT(op) &&
            IsFloatBits(op, 0, /*direct=*/false, /*loose=*/true);
  if (!bits || !FloatBitsReachFloat(i))
    return absl::OkStatus();
  return ErrorAt(absl::StatusCode::kUnimplemented, i,
                 std::string("integer `") + i.getOpcodeName() +
                     "` on the bits of an active floating-point value, used "
                     "as a floating-point value again, cannot be "
                     "differentiated (only moves and sign-bit operations "
                     "can); do the arithmetic on the floating-point value");
}

/// Whether integer `v` is read, directly or through integer steps that
/// carry no tangent, from active memory (a pointer with a shadow) in words
/// of 4 bytes or more: bits that may be a float's, whose tangent those
/// steps dropped (the type analysis did not see them as a float's).
bool ForwardEmitter::FromUntrackedActiveBits(Value *v, unsigned depth) {
  if (depth > 8 || !v->getType()->isIntOrIntVectorTy())
    return false;
  if (auto *l = dyn_cast<LoadInst>(v))
    return HasT(l->getPointerOperand()) &&
           out_.getDataLayout().getTypeStoreSize(l->getType()) >= 4;
  auto *i = dyn_cast<Instruction>(v);
  if (!i || HasT(i) ||
      !(isa<BinaryOperator>(i) || isa<CastInst>(i) || isa<PHINode>(i) ||
        isa<SelectInst>(i) || isa<FreezeInst>(i)))
    return false;
  for (Value *op : i->operands())
    if (FromUntrackedActiveBits(op, depth + 1))
      return true;
  return false;
}

/// A store into active memory that holds floats of such bits computed
/// with: its tangent would silently be zero (the bits of active doubles
/// computed with through integer pointers). Reverse mode refuses the same.
absl::Status ForwardEmitter::CheckUntrackedBitsStore(StoreInst &i) {
  Value *val = i.getValueOperand();
  if (isa<Constant>(val) || isa<LoadInst>(val) || HasT(val) ||
      !FromUntrackedActiveBits(val, 0))
    return absl::OkStatus();
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  MemoryTypes mt = types_->TypesAt(i.getPointerOperand());
  if (!mt.AccessMayHoldFloat(
          out_.getDataLayout().getTypeStoreSize(val->getType())))
    return absl::OkStatus();
  return ErrorAt(absl::StatusCode::kUnimplemented, i,
                 "storing integer bits computed from active memory over "
                 "memory that holds active floating-point data (type "
                 "analysis: " +
                     mt.ToString() +
                     "): the bits may be a float's, whose tangent would be "
                     "lost; compute with the floating-point values");
}

/// A load, store or copy at a place that cuts through a float (eight
/// bytes read from byte 4 of a double array): its tangent bytes would be
/// parts of two tangents.
absl::Status ForwardEmitter::CheckFloatPlacement(Instruction &access) {
  if (auto it = copies_out_of_step_.find(&access);
      it != copies_out_of_step_.end())
    return ErrorAt(absl::StatusCode::kUnimplemented, access, it->second);
  std::string problem = MisplacedFloatProblem(access, types_, out_);
  if (problem.empty())
    return absl::OkStatus();
  return ErrorAt(absl::StatusCode::kUnimplemented, access, problem);
}

/// Integer bits without a tangent (a constant byte, a word computed from
/// nothing active) written over part of an active float (a helper setting
/// byte 7 of its caller's double): the float changes in part, its tangent
/// would keep garbage bytes. (Zeros are let through: clearing low bytes
/// is how a Dekker split is written, and zeroing every byte gives 0.)
absl::Status ForwardEmitter::CheckPartialFloatWrite(StoreInst &st) {
  Value *val = st.getValueOperand();
  if (!val->getType()->isIntegerTy() || HasT(val))
    return absl::OkStatus();
  if (auto *k = dyn_cast<Constant>(val); k && k->isNullValue())
    return absl::OkStatus();
  const DataLayout &dl = out_.getDataLayout();
  Place p = LocatePlace(st.getPointerOperand(), dl);
  if (!p.obj || p.off < 0)
    return absl::OkStatus();
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  int64_t lo = p.off;
  int64_t hi = lo + int64_t(dl.getTypeStoreSize(val->getType()));
  for (const auto &[o, t] : types_->TypesAt(p.obj).at) {
    if (o < 0 || t.kind != BaseType::Float || !t.fp)
      continue;
    int64_t w = int64_t(dl.getTypeStoreSize(t.fp).getFixedValue());
    bool overlaps = lo < o + w && o < hi;
    bool whole = lo <= o && o + w <= hi;
    if (!overlaps || whole)
      continue;
    std::string fp;
    raw_string_ostream os(fp);
    t.fp->print(os);
    return ErrorAt(absl::StatusCode::kUnimplemented, st,
                   "integer bits that carry no derivative are written over "
                   "bytes " +
                       std::to_string(lo - o) + " to " +
                       std::to_string(std::min(hi, o + w) - o - 1) +
                       " of the active " + os.str() + " at byte " +
                       std::to_string(o) +
                       ": a float changed in part has no derivative (change "
                       "it as a floating-point value)");
  }
  return absl::OkStatus();
}

/// Integer bits about to be read as a float (`as`), or stored where a
/// float may be read: each float some of its bytes come from must be
/// there whole and in order, or the moved tangent bytes are no tangent.
absl::Status ForwardEmitter::CheckWholeFloatBytes(Instruction &i, Value *bits,
                                                  Type *as,
                                                  const CallBase *site) {
  if (!types_)
    types_.emplace(TypeInfo::Compute(out_));
  std::string why = SplicedFloatBytes(
      bits, as, /*becomes=*/as && !isa<StoreInst>(i), *types_,
      out_.getDataLayout(),
      [&](const Value *v) { return primal_results_.lookup(v); }, site);
  if (why.empty())
    return absl::OkStatus();
  const char *what =
      isa<LoadInst>(i)   ? "the floating-point value read here "
      : isa<CastInst>(i) ? "the integer read as a floating-point value here "
      : isa<StoreInst>(i)
          ? "the integer stored here, where a floating-point value may be "
            "read, "
      : isa<CallBase>(i) ? "the integer passed here, which the callee may "
                           "read as a floating-point value, "
                         : "the integer returned here, which the caller "
                           "may read as a floating-point value, ";
  return ErrorAt(absl::StatusCode::kUnimplemented, i, what + why);
}

} // namespace autodiff
