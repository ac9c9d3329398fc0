//===- enzyme_bridge/forward/ForwardBitsAsNumbers.cpp - Bits read as numbers //
//
// `sitofp`/`uitofp` of an integer made of the bits of an active float reads
// those bits as a number. Where mantissa bits reach the number (a fast
// log2, `(double)(bits & 0xfffffffffffff)`), the number changes with the
// float, by steps too small to see, and its derivative is not zero: there
// is none this tool can give, so it is a diagnostic. Where only exponent
// and sign bits reach it (`(bits >> 52) & 0x7ff`, the exponent as frexp
// computes it), the number is piecewise constant and its derivative is
// zero, which is what the conversion gets.
//
// Which bits reach the number is followed back through integer steps:
// shifts and masks by constants move and cut the bits exactly; any other
// step (an add, a product, a phi) keeps every bit its operands had.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"
#include "enzyme_bridge/forward/ForwardEmitter.h"

#include <functional>
#include <optional>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace autodiff {
namespace {

/// Which bits of active floats (in the float's own bit positions) a value
/// depends on. While only shifts and masks by constants were applied the
/// map is exact: bit p of the value is bit p + shift of the float, where
/// `live` has bit p set. After any other step only the set is known.
struct BitOrigins {
  bool exact = true;
  uint64_t live = 0;
  int shift = 0;
  uint64_t set = 0;
  /// The mantissa bits of the floats reached.
  uint64_t mantissa = 0;
  /// A float or integer too wide to follow was reached.
  bool unknown = false;

  uint64_t Sources() const {
    if (!exact)
      return set;
    if (shift >= 64 || shift <= -64)
      return 0;
    return shift >= 0 ? live << shift : live >> -shift;
  }
  bool ReachesMantissa() const { return unknown || (Sources() & mantissa); }
};

BitOrigins Union(const BitOrigins &a, const BitOrigins &b) {
  BitOrigins r;
  r.exact = false;
  r.set = a.Sources() | b.Sources();
  r.mantissa = a.mantissa | b.mantissa;
  r.unknown = a.unknown || b.unknown;
  return r;
}

uint64_t LowBits(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

uint64_t MantissaOf(unsigned bits) {
  switch (bits) {
  case 64:
    return LowBits(52);
  case 32:
    return LowBits(23);
  case 16:
    return LowBits(10);
  default:
    return ~0ull;
  }
}

const ConstantInt *SmallConstant(Value *v) {
  auto *c = dyn_cast<ConstantInt>(v);
  return c && c->getValue().getActiveBits() <= 64 ? c : nullptr;
}

} // namespace

class BitOriginTracer {
public:
  /// `root_mantissa(v)`: when `v` is an integer holding the bits of active
  /// floats, the mantissa bits among them.
  explicit BitOriginTracer(
      std::function<std::optional<uint64_t>(Value *)> root_mantissa)
      : root_mantissa_(std::move(root_mantissa)) {}

  /// The bits of active floats `v` holds. A value met again on the path
  /// that reached it (a loop's phi) adds nothing new; one met again on
  /// another path gives what it gave the first time.
  BitOrigins Trace(Value *v, unsigned depth) {
    if (auto it = done_.find(v); it != done_.end())
      return it->second;
    if (depth > 24 || !on_path_.insert(v).second)
      return BitOrigins();
    BitOrigins r = Compute(v, depth);
    on_path_.erase(v);
    done_[v] = r;
    return r;
  }

private:
  BitOrigins Compute(Value *v, unsigned depth) {
    BitOrigins none;
    auto *ty = dyn_cast<IntegerType>(v->getType());
    if (!ty)
      return none;
    if (!IsStep(v)) {
      if (std::optional<uint64_t> mantissa = root_mantissa_(v)) {
        BitOrigins r;
        r.unknown = ty->getBitWidth() > 64;
        r.live = LowBits(ty->getBitWidth());
        r.mantissa = *mantissa;
        return r;
      }
    }
    if (ty->getBitWidth() > 64)
      return Anything(v, depth);
    auto *i = dyn_cast<Instruction>(v);
    if (!i)
      return none;
    if (auto *bo = dyn_cast<BinaryOperator>(i))
      return Binary(*bo, depth);
    switch (i->getOpcode()) {
    case Instruction::Trunc: {
      BitOrigins r = Trace(i->getOperand(0), depth + 1);
      r.live &= LowBits(ty->getBitWidth());
      return r;
    }
    case Instruction::ZExt:
    case Instruction::Freeze:
      return Trace(i->getOperand(0), depth + 1);
    case Instruction::Load:
      return StoredInto(cast<LoadInst>(*i), depth);
    default:
      return Anything(v, depth);
    }
  }

  static bool IsStep(Value *v) {
    return isa<BinaryOperator>(v) || isa<TruncInst>(v) || isa<ZExtInst>(v) ||
           isa<SExtInst>(v) || isa<PHINode>(v) || isa<SelectInst>(v) ||
           isa<FreezeInst>(v);
  }

  /// Every operand's bits, as a set.
  BitOrigins Anything(Value *v, unsigned depth) {
    BitOrigins r;
    r.exact = false;
    auto *u = dyn_cast<User>(v);
    if (!u || !IsStep(v))
      return r;
    for (Value *op : u->operands())
      r = Union(r, Trace(op, depth + 1));
    return r;
  }

  BitOrigins Binary(BinaryOperator &bo, unsigned depth) {
    const ConstantInt *c = SmallConstant(bo.getOperand(1));
    if (!c)
      return Anything(&bo, depth);
    auto op = bo.getOpcode();
    if (op != Instruction::LShr && op != Instruction::Shl &&
        op != Instruction::And && op != Instruction::Or &&
        op != Instruction::Xor)
      return Anything(&bo, depth);
    uint64_t k = c->getZExtValue();
    unsigned width = bo.getType()->getIntegerBitWidth();
    BitOrigins r = Trace(bo.getOperand(0), depth + 1);
    if (!r.exact)
      return r;
    switch (op) {
    case Instruction::LShr:
      if (k >= width)
        return BitOrigins();
      r.live >>= k;
      r.shift += int(k);
      return r;
    case Instruction::Shl:
      if (k >= width)
        return BitOrigins();
      r.live = (r.live << k) & LowBits(width);
      r.shift -= int(k);
      return r;
    case Instruction::And:
      r.live &= k;
      return r;
    case Instruction::Or:
      r.live &= ~k;
      return r;
    default: // Xor
      return r;
    }
  }

  /// A load from a local slot (-O0 keeps every variable in one): the bits
  /// of what was stored there.
  BitOrigins StoredInto(LoadInst &l, unsigned depth) {
    BitOrigins r;
    auto *slot = dyn_cast<AllocaInst>(l.getPointerOperand());
    if (!slot)
      return r;
    bool first = true;
    for (User *u : slot->users()) {
      auto *st = dyn_cast<StoreInst>(u);
      if (!st || st->getPointerOperand() != slot)
        continue;
      BitOrigins s = Trace(st->getValueOperand(), depth + 1);
      r = first ? s : Union(r, s);
      first = false;
    }
    return r;
  }

  std::function<std::optional<uint64_t>(Value *)> root_mantissa_;
  SmallPtrSet<Value *, 16> on_path_;
  DenseMap<Value *, BitOrigins> done_;
};

/// Where the mantissas are among the bits of `root`, an integer holding
/// active floats: known from a bitcast of a float, from the type analysis
/// of the memory a load reads (`{int n; float w}` copied as one i64), or
/// from the floats the function makes of the integer's bits (a parameter
/// of that struct's type, unpacked with a shift and a bitcast); else the
/// mantissa of a float as wide as the integer.
uint64_t ForwardEmitter::MantissaBitsOf(Value *root) {
  unsigned width = root->getType()->getIntegerBitWidth();
  if (auto *bc = dyn_cast<BitCastInst>(root);
      bc && bc->getSrcTy()->isFloatingPointTy())
    return MantissaOf(bc->getSrcTy()->getPrimitiveSizeInBits());
  if (width > 64)
    return ~0ull;
  uint64_t mask = 0;
  if (auto *l = dyn_cast<LoadInst>(root)) {
    if (!types_)
      types_.emplace(TypeInfo::Compute(out_));
    MemoryTypes mt = types_->TypesAt(l->getPointerOperand());
    for (unsigned off = 0; off < width / 8; ++off) {
      BaseType t = mt.Lookup(off);
      if (t.kind == BaseType::Anything)
        return MantissaOf(width);
      if (t.kind != BaseType::Float || !t.fp)
        continue;
      unsigned bits = t.fp->getPrimitiveSizeInBits();
      if (off % (bits / 8) == 0 && off + bits / 8 <= width / 8)
        mask |= MantissaOf(bits) << (8 * off);
    }
    if (mask)
      return mask;
  }
  // Floats made of the bits: `bitcast (trunc (lshr root, k))`.
  for (User *u : root->users()) {
    unsigned shift = 0;
    Value *at = u;
    if (auto *sh = dyn_cast<BinaryOperator>(at);
        sh && sh->getOpcode() == Instruction::LShr &&
        sh->getOperand(0) == root && SmallConstant(sh->getOperand(1))) {
      shift = unsigned(cast<ConstantInt>(sh->getOperand(1))->getZExtValue());
      if (!sh->hasOneUse() || shift >= width)
        continue;
      at = *sh->user_begin();
    }
    if (auto *tr = dyn_cast<TruncInst>(at); tr && tr->hasOneUse())
      at = *tr->user_begin();
    auto *bc = dyn_cast<BitCastInst>(at);
    if (!bc || !bc->getDestTy()->isFloatingPointTy())
      continue;
    unsigned bits = bc->getDestTy()->getPrimitiveSizeInBits();
    if (shift + bits <= 64)
      mask |= MantissaOf(bits) << shift;
  }
  return mask ? mask : MantissaOf(width);
}

absl::Status ForwardEmitter::CheckNotFloatBits(Instruction &i) {
  Value *op = i.getOperand(0);
  if (op->getType()->isVectorTy()) {
    if (!HasT(op) || !IsFloatBits(op, 0, /*direct=*/true, /*loose=*/true))
      return absl::OkStatus();
  } else {
    BitOriginTracer tracer([&](Value *v) -> std::optional<uint64_t> {
      if (!HasT(v) || !IsFloatBits(v, 0, /*direct=*/false, /*loose=*/true))
        return std::nullopt;
      return MantissaBitsOf(v);
    });
    if (!tracer.Trace(op, 0).ReachesMantissa())
      return absl::OkStatus();
  }
  return ErrorAt(absl::StatusCode::kUnimplemented, i,
                 std::string("`") + i.getOpcodeName() +
                     "` reads the bits of an active floating-point value as "
                     "a number, mantissa bits included, which cannot be "
                     "differentiated (only sign and exponent bits read as "
                     "numbers have a zero derivative); do the arithmetic on "
                     "the floating-point value");
}

} // namespace autodiff
