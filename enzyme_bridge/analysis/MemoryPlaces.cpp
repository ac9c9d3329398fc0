//===- enzyme_bridge/analysis/MemoryPlaces.cpp - Where pointers point -----===//
#include "enzyme_bridge/analysis/MemoryPlaces.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

using namespace llvm;

namespace autodiff {
namespace {

/// The stride of a GEP with a variable index into scalars whose index is a
/// known multiple (`gep i8, p, (i * 16)`: optimized code's address of an
/// element of an array of 16-byte structs), and its constant bytes.
std::optional<std::pair<int64_t, int64_t>>
ScaledStride(const GEPOperator &gep, const DataLayout &dl) {
  if (gep.getNumIndices() != 1 ||
      !gep.getSourceElementType()->isSingleValueType())
    return std::nullopt;
  const Value *idx = gep.getOperand(1);
  int64_t size = dl.getTypeAllocSize(gep.getSourceElementType());
  int64_t multiple = KnownMultiple(idx);
  if (isa<Constant>(idx) || multiple <= 1 || size <= 0 ||
      multiple > (int64_t(1) << 20) / size)
    return std::nullopt;
  return std::make_pair(multiple * size, int64_t(0));
}

} // namespace

std::optional<std::pair<int64_t, int64_t>>
AggregateStride(const GEPOperator &gep, const DataLayout &dl) {
  // Offsets beyond this are not an element's field (and would overflow).
  constexpr int64_t kLimit = int64_t(1) << 40;
  int64_t stride = 0, constant = 0;
  for (gep_type_iterator it = gep_type_begin(gep), end = gep_type_end(gep);
       it != end; ++it) {
    const auto *ci = dyn_cast<ConstantInt>(it.getOperand());
    if (StructType *st = it.getStructTypeOrNull()) {
      if (!ci)
        return std::nullopt;
      constant += dl.getStructLayout(st)->getElementOffset(ci->getZExtValue());
      continue;
    }
    TypeSize stride_size = it.getSequentialElementStride(dl);
    if (stride_size.isScalable() || stride_size.getFixedValue() > kLimit)
      return std::nullopt;
    int64_t size = stride_size.getFixedValue();
    if (ci) {
      if (ci->getBitWidth() > 64 || ci->getSExtValue() > kLimit ||
          ci->getSExtValue() < -kLimit)
        return std::nullopt;
      constant += ci->getSExtValue() * size;
      if (constant > kLimit || constant < -kLimit)
        return std::nullopt;
      continue;
    }
    Type *elem = it.getIndexedType();
    if (stride != 0 || size <= 0 || !(elem->isStructTy() || elem->isArrayTy()))
      return std::nullopt;
    stride = size;
  }
  if (stride == 0)
    return std::nullopt;
  return std::make_pair(stride, constant);
}

/// A constant that integer `v` is a multiple of, by how it is computed
/// (`i * 16`, `i << 4`, sums of such) or by how it is used (`ashr exact v,
/// 4`: the byte distance of two iterators into an array of 16-byte
/// elements); 1 when nothing says more. Bounded to offsets an element of
/// an array can have.
int64_t KnownMultiple(const Value *v, unsigned depth) {
  constexpr int64_t kLimit = int64_t(1) << 20;
  auto bounded = [&](int64_t m) { return m > 0 && m <= kLimit ? m : 1; };
  int64_t from_uses = 1;
  for (const User *u : v->users()) {
    const auto *bo = dyn_cast<BinaryOperator>(u);
    const auto *c = bo ? dyn_cast<ConstantInt>(bo->getOperand(1)) : nullptr;
    if (!c || bo->getOperand(0) != v || !bo->isExact() ||
        c->getValue().ugt(30))
      continue;
    if (bo->getOpcode() == Instruction::AShr ||
        bo->getOpcode() == Instruction::LShr)
      from_uses = std::max(from_uses, int64_t(1) << c->getZExtValue());
    else if ((bo->getOpcode() == Instruction::SDiv ||
              bo->getOpcode() == Instruction::UDiv) &&
             !c->isZero() && c->getValue().ult(kLimit))
      from_uses = std::max(from_uses, int64_t(c->getZExtValue()));
  }
  if (from_uses > 1 || depth >= 4)
    return from_uses;
  if (const auto *c = dyn_cast<ConstantInt>(v)) {
    // abs() of the most negative value wraps to itself: ult rejects it.
    APInt mag = c->getValue().abs();
    return mag.ult(kLimit + 1) ? bounded(int64_t(mag.getZExtValue())) : 1;
  }
  if (const auto *cast = dyn_cast<CastInst>(v))
    return isa<SExtInst>(cast) || isa<ZExtInst>(cast)
               ? KnownMultiple(cast->getOperand(0), depth + 1)
               : 1;
  const auto *bo = dyn_cast<BinaryOperator>(v);
  if (!bo)
    return 1;
  int64_t a = KnownMultiple(bo->getOperand(0), depth + 1);
  const auto *c = dyn_cast<ConstantInt>(bo->getOperand(1));
  switch (bo->getOpcode()) {
  case Instruction::Mul: {
    int64_t b = KnownMultiple(bo->getOperand(1), depth + 1);
    return a <= kLimit / b ? bounded(a * b) : 1;
  }
  case Instruction::Shl:
    return c && c->getValue().ult(20) ? bounded(a << c->getZExtValue()) : 1;
  case Instruction::Add:
  case Instruction::Sub:
    return std::gcd(a, KnownMultiple(bo->getOperand(1), depth + 1));
  case Instruction::AShr:
  case Instruction::LShr: {
    // `(j << 32) >> 29`: a 32-bit index sign-extended and scaled by 8 (an
    // element offset at -O2); the low a - b bits stay zero.
    const auto *shl = dyn_cast<BinaryOperator>(bo->getOperand(0));
    const auto *by = shl && shl->getOpcode() == Instruction::Shl
                         ? dyn_cast<ConstantInt>(shl->getOperand(1))
                         : nullptr;
    if (!c || !by || by->getValue().ugt(63) || c->getValue().ugt(63) ||
        by->getZExtValue() < c->getZExtValue() ||
        by->getZExtValue() - c->getZExtValue() >= 20)
      return 1;
    return bounded(int64_t(1) << (by->getZExtValue() - c->getZExtValue()));
  }
  default:
    return 1;
  }
}

bool IsNoObject(const Value *obj) {
  if (isa<ConstantPointerNull>(obj) || isa<UndefValue>(obj))
    return true;
  const auto *ce = dyn_cast<ConstantExpr>(obj);
  return ce && ce->getOpcode() == Instruction::IntToPtr &&
         isa<ConstantInt>(ce->getOperand(0));
}

Place LocatePlace(const Value *ptr, const DataLayout &dl) {
  int64_t total = 0, period = 0;
  unsigned variables = 0, strided = 0;
  while (true) {
    APInt off(dl.getIndexTypeSizeInBits(ptr->getType()), 0);
    ptr = ptr->stripAndAccumulateConstantOffsets(dl, off,
                                                 /*AllowNonInbounds=*/true);
    // An offset no object can have (fuzzed or wrapping IR): no place.
    if (off.getSignificantBits() > 48 ||
        std::abs(total) > Place::kMaxOffset)
      return {ptr, -1};
    total += off.getSExtValue();
    if (const auto *gep = dyn_cast<GEPOperator>(ptr)) {
      ++variables;
      auto stride = AggregateStride(*gep, dl);
      if (!stride)
        stride = ScaledStride(*gep, dl);
      if (stride) {
        // Several variable steps (a scaled byte offset into an element
        // reached by index): the place repeats with their common divisor.
        period = std::gcd(period, stride->first);
        total += stride->second;
        ++strided;
      }
      ptr = gep->getPointerOperand();
      continue;
    }
    break;
  }
  if (variables == 0)
    return {ptr, total};
  if (strided == variables && period > 1)
    return {ptr, -1, period, (total % period + period) % period};
  return {ptr, -1};
}

static void AddressSources(const Value *v, SmallVectorImpl<const Value *> &out,
                           bool &exact, SmallPtrSetImpl<const Value *> &seen,
                           unsigned depth) {
  if (depth > 12 || !seen.insert(v).second)
    return;
  if (const auto *p2i = dyn_cast<PtrToIntOperator>(v)) {
    out.push_back(p2i->getPointerOperand());
    return;
  }
  if (const auto *phi = dyn_cast<PHINode>(v))
    for (const Value *in : phi->incoming_values())
      AddressSources(in, out, exact, seen, depth + 1);
  if (const auto *sel = dyn_cast<SelectInst>(v))
    for (const Value *in : {sel->getTrueValue(), sel->getFalseValue()})
      AddressSources(in, out, exact, seen, depth + 1);
  if (const auto *bo = dyn_cast<BinaryOperator>(v)) {
    unsigned op = bo->getOpcode();
    if (op != Instruction::Add && op != Instruction::Sub &&
        op != Instruction::Or)
      return;
    exact = false;
    AddressSources(bo->getOperand(0), out, exact, seen, depth + 1);
    if (op == Instruction::Add)
      AddressSources(bo->getOperand(1), out, exact, seen, depth + 1);
    return;
  }
  const auto *load = dyn_cast<LoadInst>(v);
  if (!load)
    return;
  SmallVector<const Value *, 4> slots;
  getUnderlyingObjects(load->getPointerOperand(), slots);
  if (slots.empty() ||
      !all_of(slots, [](const Value *s) { return isa<AllocaInst>(s); }))
    return;
  for (const Instruction &i : instructions(*load->getFunction())) {
    const auto *st = dyn_cast<StoreInst>(&i);
    if (!st || !st->getValueOperand()->getType()->isIntegerTy())
      continue;
    SmallVector<const Value *, 4> into;
    getUnderlyingObjects(st->getPointerOperand(), into);
    if (any_of(into, [&](const Value *s) { return is_contained(slots, s); }))
      AddressSources(st->getValueOperand(), out, exact, seen, depth + 1);
  }
}

void AddressSources(const Value *v, SmallVectorImpl<const Value *> &out,
                    bool &exact) {
  SmallPtrSet<const Value *, 16> seen;
  AddressSources(v, out, exact, seen, 0);
}

MemoryTypes Materialize(const MemoryTypes &mt, const Place &p,
                        uint64_t span) {
  MemoryTypes out;
  for (const auto &[o, b] : mt.at) {
    int64_t rel = o < 0 || p.off < 0 ? -1 : o - p.off;
    // An element of an array of aggregates indexed at run time: a fact
    // at a fixed offset (the caller's types of each element) describes
    // the same field of that element, not every byte of it.
    if (o >= 0 && p.off < 0)
      rel = p.period > 0
                ? ((o - p.phase) % p.period + p.period) % p.period
                : -1;
    out.Add(rel, b);
  }
  if (mt.period <= 0)
    return out;
  std::optional<int64_t> phase;
  if (p.off >= 0)
    phase = p.off % mt.period;
  else if (p.period > 0 && p.period % mt.period == 0)
    phase = p.phase % mt.period;
  constexpr uint64_t kMaxSpan = uint64_t(1) << 16;
  for (const auto &[q, b] : mt.periodic) {
    if (!phase) {
      out.Add(-1, b);
      continue;
    }
    int64_t first = ((q - *phase) % mt.period + mt.period) % mt.period;
    out.Add(first, b);
    for (int64_t rel = first + mt.period;
         uint64_t(rel) < std::min(span, kMaxSpan); rel += mt.period)
      out.Add(rel, b);
  }
  return out;
}

bool NeverMapped(const Value *ptr, const DataLayout &dl) {
  if (!ptr->getType()->isPointerTy() ||
      ptr->getType()->getPointerAddressSpace() != 0)
    return false;
  APInt off(dl.getIndexTypeSizeInBits(ptr->getType()), 0);
  const Value *base =
      ptr->stripAndAccumulateConstantOffsets(dl, off, /*AllowNonInbounds=*/true);
  uint64_t at = 0;
  if (!isa<ConstantPointerNull>(base)) {
    const auto *op = dyn_cast<Operator>(base);
    const auto *addr = op && op->getOpcode() == Instruction::IntToPtr
                           ? dyn_cast<ConstantInt>(op->getOperand(0))
                           : nullptr;
    if (!addr || !addr->getValue().ult(4096))
      return false;
    at = addr->getZExtValue();
  }
  return off.isNonNegative() && off.ult(4096) && at + off.getZExtValue() < 4096;
}

} // namespace autodiff
