//===- enzyme_bridge/analysis/LocalCopies.cpp - Bytes moved through locals -===//
#include "enzyme_bridge/analysis/LocalCopies.h"

#include "enzyme_bridge/analysis/MemoryPlaces.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace autodiff {
namespace {

/// A byte range [lo, hi) of one local; `base` is the offset in it of the
/// first byte of the access followed (bytes before it are not followed).
struct Range {
  const AllocaInst *obj = nullptr;
  int64_t lo = 0, hi = 0;
  int64_t base = 0;
  bool Overlaps(int64_t a, int64_t b) const { return a < hi && lo < b; }
};

/// One access to a local at a constant offset.
struct Access {
  Instruction *inst;
  int64_t lo, hi;
};

/// The loads, stores and constant-length copies of local `a` at constant
/// offsets (through GEPs and casts of it).
struct LocalAccesses {
  SmallVector<Access, 8> loads, stores, copies_in, copies_out;
  bool passed_to_call = false; ///< The address is an argument of a call.
  /// Written at an offset known only at run time, or by a copy or memset
  /// of unknown length.
  bool unknown_writes = false;
};

constexpr unsigned kMaxLocals = 16;
constexpr unsigned kMaxUsers = 256;

std::optional<Range> RangeOf(const Value *ptr, uint64_t bytes,
                             const DataLayout &dl) {
  Place p = LocatePlace(ptr, dl);
  const auto *a = dyn_cast_or_null<AllocaInst>(p.obj);
  if (!a || p.off < 0 || bytes == 0 || bytes > uint64_t(Place::kMaxOffset))
    return std::nullopt;
  return Range{a, p.off, p.off + int64_t(bytes), p.off};
}

uint64_t CopyLength(const MemTransferInst &mt) {
  const auto *len = dyn_cast<ConstantInt>(mt.getLength());
  return len && len->getValue().ult(uint64_t(1) << 32) ? len->getZExtValue()
                                                       : 0;
}

LocalAccesses Collect(const AllocaInst &a, const DataLayout &dl) {
  LocalAccesses out;
  SmallVector<const Value *, 8> work = {&a};
  SmallPtrSet<const Value *, 16> seen;
  unsigned users = 0;
  while (!work.empty()) {
    const Value *p = work.pop_back_val();
    if (!seen.insert(p).second)
      continue;
    for (const User *u : p->users()) {
      if (++users > kMaxUsers)
        return out;
      auto *i = const_cast<Instruction *>(dyn_cast<Instruction>(u));
      if (!i)
        continue;
      if (isa<GetElementPtrInst>(i) || isa<BitCastInst>(i) ||
          isa<AddrSpaceCastInst>(i)) {
        work.push_back(i);
        continue;
      }
      auto add = [&](SmallVector<Access, 8> &to, uint64_t bytes) {
        if (auto r = RangeOf(p, bytes, dl); r && r->obj == &a)
          to.push_back({i, r->lo, r->hi});
        else if (&to == &out.stores || &to == &out.copies_in)
          out.unknown_writes = true;
      };
      if (auto *ld = dyn_cast<LoadInst>(i))
        add(out.loads, dl.getTypeStoreSize(ld->getType()).getKnownMinValue());
      else if (auto *st = dyn_cast<StoreInst>(i)) {
        if (st->getPointerOperand() == p)
          add(out.stores, dl.getTypeStoreSize(st->getValueOperand()->getType())
                              .getKnownMinValue());
      } else if (auto *mt = dyn_cast<MemTransferInst>(i)) {
        uint64_t len = CopyLength(*mt);
        if (mt->getRawDest() == p)
          add(out.copies_in, len);
        if (mt->getRawSource() == p)
          add(out.copies_out, len);
      } else if (auto *ms = dyn_cast<MemSetInst>(i)) {
        // Constant bytes: no value to follow, unless the length is unknown.
        const auto *len = dyn_cast<ConstantInt>(ms->getLength());
        out.unknown_writes |= !len || !isa<Constant>(ms->getValue());
      } else if (auto *call = dyn_cast<CallBase>(i)) {
        if (!call->isLifetimeStartOrEnd() && !isa<DbgInfoIntrinsic>(call))
          out.passed_to_call = true;
      }
    }
  }
  return out;
}

/// Follows the bytes of `start` through copies (backwards into sources
/// when `backwards`, else forwards into destinations), calling `visit`
/// with each local's accesses and the range of it that holds the bytes,
/// and `foreign` with a copy whose other side is no local, the bytes
/// [lo, hi) of that side, and where they are in the access followed.
template <typename Visit, typename Foreign>
void Follow(Range start, bool backwards, const DataLayout &dl, Visit visit,
            Foreign foreign) {
  SmallVector<Range, 8> work = {start};
  SmallVector<std::tuple<const AllocaInst *, int64_t, int64_t>, 8> seen;
  while (!work.empty() && seen.size() < kMaxLocals) {
    Range r = work.pop_back_val();
    auto key = std::make_tuple(r.obj, r.lo, r.hi);
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      continue;
    seen.push_back(key);
    LocalAccesses acc = Collect(*r.obj, dl);
    visit(acc, r);
    for (const Access &c : backwards ? acc.copies_in : acc.copies_out) {
      if (!r.Overlaps(c.lo, c.hi))
        continue;
      const auto &mt = cast<MemTransferInst>(*c.inst);
      const Value *other = backwards ? mt.getRawSource() : mt.getRawDest();
      int64_t lo = std::max(r.lo, c.lo), hi = std::min(r.hi, c.hi);
      auto o = RangeOf(other, uint64_t(c.hi - c.lo), dl);
      if (o)
        work.push_back({o->obj, o->lo + (lo - c.lo), o->lo + (hi - c.lo),
                        o->lo + (r.base - c.lo)});
      else
        foreign(other, lo - c.lo, hi - c.lo, lo - r.base);
    }
  }
}

} // namespace

SmallVector<StoredBytes, 4> StoredValuesReaching(const LoadInst &ld,
                                                 const DataLayout &dl,
                                                 bool *complete, int64_t lo,
                                                 int64_t hi) {
  SmallVector<StoredBytes, 4> out;
  if (complete)
    *complete = true;
  auto r = RangeOf(ld.getPointerOperand(),
                   dl.getTypeStoreSize(ld.getType()).getKnownMinValue(), dl);
  if (!r) {
    if (complete)
      *complete = false;
    return out;
  }
  if (hi > 0 && lo < hi && r->lo + hi <= r->hi) {
    r->hi = r->lo + hi;
    r->lo += lo; // (base stays at the load's first byte)
  }
  Follow(
      *r, /*backwards=*/true, dl,
      [&](const LocalAccesses &acc, Range at) {
        if (complete)
          *complete &= !acc.passed_to_call && !acc.unknown_writes;
        for (const Access &s : acc.stores)
          if (at.Overlaps(s.lo, s.hi))
            out.push_back({cast<StoreInst>(s.inst)->getValueOperand(),
                           std::max(at.lo, s.lo) - s.lo,
                           std::min(at.hi, s.hi) - s.lo, nullptr,
                           std::max(at.lo, s.lo) - at.base});
      },
      [&](const Value *source, int64_t lo, int64_t hi, int64_t in_load) {
        out.push_back({nullptr, lo, hi, source, in_load});
      });
  return out;
}

/// Whether the address of local `a` is only loaded from and stored to (at
/// places LocatePlace finds), never passed on: then only its own stores
/// write it.
static bool OnlyLoadedAndStored(const AllocaInst &a) {
  SmallVector<const Value *, 8> work = {&a};
  SmallPtrSet<const Value *, 16> seen;
  while (!work.empty()) {
    const Value *v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (const User *u : v->users()) {
      if (isa<GetElementPtrInst>(u) || isa<BitCastInst>(u)) {
        work.push_back(u);
        continue;
      }
      if (const auto *st = dyn_cast<StoreInst>(u)) {
        if (st->getValueOperand() == v)
          return false;
        continue;
      }
      if (isa<LoadInst>(u))
        continue;
      if (const auto *ii = dyn_cast<IntrinsicInst>(u);
          ii && (ii->isLifetimeStartOrEnd() || ii->isDebugOrPseudoInst()))
        continue;
      return false;
    }
  }
  return true;
}

std::optional<SmallVector<StoredBytes, 4>>
LastStoresBefore(const LoadInst &ld, const DataLayout &dl) {
  Place at = LocatePlace(ld.getPointerOperand(), dl);
  const auto *local = dyn_cast_or_null<AllocaInst>(at.obj);
  int64_t n = int64_t(dl.getTypeStoreSize(ld.getType()).getKnownMinValue());
  if (!local || at.off < 0 || n == 0 || n > 64 || !OnlyLoadedAndStored(*local))
    return std::nullopt;
  // For each byte the load reads: the store that last wrote it, and where.
  SmallVector<const StoreInst *, 16> by(n, nullptr);
  SmallVector<int64_t, 16> in(n, 0);
  int64_t missing = n;
  const Instruction *i = &ld;
  for (unsigned steps = 0; missing > 0 && steps < 512; ++steps) {
    if (const Instruction *prev = i->getPrevNode()) {
      i = prev;
    } else {
      // Straight-line code split into blocks (-O0 `do { } while (0)`).
      const BasicBlock *pred = i->getParent()->getSinglePredecessor();
      if (!pred)
        return std::nullopt;
      i = pred->getTerminator();
    }
    const auto *st = dyn_cast<StoreInst>(i);
    if (!st)
      continue;
    Place p = LocatePlace(st->getPointerOperand(), dl);
    if (p.obj != local)
      continue;
    if (p.off < 0 || st->isVolatile())
      return std::nullopt;
    int64_t size = int64_t(
        dl.getTypeStoreSize(st->getValueOperand()->getType()).getKnownMinValue());
    for (int64_t b = 0; b < n; ++b)
      if (!by[b] && at.off + b >= p.off && at.off + b < p.off + size) {
        by[b] = st;
        in[b] = at.off + b - p.off;
        --missing;
      }
  }
  if (missing > 0)
    return std::nullopt;
  SmallVector<StoredBytes, 4> out;
  for (int64_t b = 0; b < n; ++b) {
    if (b > 0 && by[b] == by[b - 1] && in[b] == in[b - 1] + 1) {
      out.back().hi = in[b] + 1;
      continue;
    }
    out.push_back(StoredBytes{const_cast<Value *>(by[b]->getValueOperand()),
                              in[b], in[b] + 1, nullptr, b});
  }
  return out;
}

bool FloatLeafIn(Type *t, int64_t lo, int64_t hi, const DataLayout &dl) {
  if (lo >= hi)
    return false;
  if (t->isFPOrFPVectorTy())
    return true;
  if (auto *st = dyn_cast<StructType>(t)) {
    const StructLayout *sl = dl.getStructLayout(st);
    for (unsigned i = 0; i < st->getNumElements(); ++i) {
      int64_t at = int64_t(sl->getElementOffset(i));
      Type *e = st->getElementType(i);
      int64_t size = int64_t(dl.getTypeStoreSize(e).getKnownMinValue());
      if (FloatLeafIn(e, std::max(lo, at) - at, std::min(hi, at + size) - at,
                      dl))
        return true;
    }
    return false;
  }
  if (auto *at = dyn_cast<ArrayType>(t)) {
    int64_t size = int64_t(dl.getTypeAllocSize(at->getElementType()));
    if (size <= 0)
      return false;
    // Every element has the same layout: the first element's bytes that
    // the range covers (all of them when it spans an element).
    int64_t first = lo / size;
    if (hi - first * size >= size)
      return FloatLeafIn(at->getElementType(), 0, size, dl);
    return FloatLeafIn(at->getElementType(), lo - first * size,
                       hi - first * size, dl);
  }
  return false;
}

SmallVector<LoadInst *, 4> LoadsReading(const StoreInst &st,
                                        const DataLayout &dl, bool *escapes) {
  SmallVector<LoadInst *, 4> out;
  if (escapes)
    *escapes = false;
  auto r = RangeOf(
      st.getPointerOperand(),
      dl.getTypeStoreSize(st.getValueOperand()->getType()).getKnownMinValue(),
      dl);
  if (!r)
    return out;
  Follow(
      *r, /*backwards=*/false, dl,
      [&](const LocalAccesses &acc, Range at) {
        if (escapes)
          *escapes |= acc.passed_to_call;
        for (const Access &l : acc.loads)
          if (at.Overlaps(l.lo, l.hi))
            out.push_back(cast<LoadInst>(l.inst));
      },
      [&](const Value *, int64_t, int64_t, int64_t) {
        // Copied out into other memory: read from there by anyone.
        if (escapes)
          *escapes = true;
      });
  return out;
}

} // namespace autodiff
