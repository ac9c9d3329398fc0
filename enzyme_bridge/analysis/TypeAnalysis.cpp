//===- enzyme_bridge/TypeAnalysis.cpp - What memory holds -----------------===//
//
// Facts are kept per underlying object (argument, alloca, allocation call,
// loaded pointer, global) at byte offsets relative to it; an access through
// a variable index records its type at every offset (-1). Memory transfers
// copy facts between their two sides until nothing changes.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/analysis/BitCopies.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

using namespace llvm;

namespace autodiff {


//===----------------------------------------------------------------------===//
// Facts
//===----------------------------------------------------------------------===//

std::string BaseType::ToString() const {
  switch (kind) {
  case Unknown:
    return "Unknown";
  case Integer:
    return "Integer";
  case Pointer:
    return "Pointer";
  case Anything:
    return "Anything";
  case Float: {
    std::string s;
    raw_string_ostream os(s);
    fp->print(os);
    return "Float@" + s;
  }
  }
  return "?";
}

BaseType BaseType::Join(const BaseType &o) const {
  if (kind == Unknown)
    return o;
  if (o.kind == Unknown || *this == o)
    return *this;
  // An address kept as an integer (Rust's Vec growth returns its buffer as
  // a usize, stored into the slot the Vec's pointer is read from): a
  // pointer, not a float.
  if ((kind == Integer && o.kind == Pointer) ||
      (kind == Pointer && o.kind == Integer)) {
    BaseType p;
    p.kind = Pointer;
    return p;
  }
  BaseType any;
  any.kind = Anything;
  return any;
}

BaseType MemoryTypes::Lookup(int64_t offset) const {
  auto it = at.find(offset);
  if (it != at.end())
    return it->second;
  auto all = at.find(-1);
  return all != at.end() ? all->second : BaseType();
}

BaseType::Kind MemoryTypes::KindOfAccessedByte(int64_t off) const {
  auto entry = at.find(off);
  if (entry != at.end())
    return entry->second.kind;
  auto first = at.find(0);
  if (first != at.end() && first->second.kind == BaseType::Integer) {
    // Floats somewhere beside it (an array field indexed at run time): the
    // integer covers no more than an integer's bytes.
    auto every = at.find(-1);
    if (every == at.end() || every->second.kind != BaseType::Float || off < 8)
      return BaseType::Integer;
  }
  return Lookup(off).kind;
}

bool MemoryTypes::AccessMayHoldFloat(int64_t size) const {
  for (int64_t off = 0; off < size; ++off) {
    BaseType::Kind kind = KindOfAccessedByte(off);
    if (kind == BaseType::Float || kind == BaseType::Anything)
      return true;
  }
  return false;
}

std::optional<std::vector<CopiedField>>
FieldsOfFixedCopy(const MemoryTypes &mt, uint64_t bytes, const DataLayout &dl) {
  // Every copied byte must be accounted for: an integer entry covers the
  // bytes up to the next entry; between fields only alignment padding may
  // be unknown (a float the analysis did not see would lose its adjoint).
  std::vector<CopiedField> fields;
  uint64_t covered = 0, maxSize = 1;
  auto isPadding = [](uint64_t gap, uint64_t nextOffset, uint64_t align) {
    return gap == 0 || gap < 4 || (gap < align && nextOffset % align == 0);
  };
  for (auto it = mt.at.begin(); it != mt.at.end(); ++it) {
    // Not a structured binding: lambdas below capture these (C++20).
    int64_t offset = it->first;
    const BaseType &t = it->second;
    // "Somewhere": a store at a variable index (r.v[i] = ...). Consistent
    // with the layout when a field of that very type is among those
    // copied (the array's elements); anything else is unknown.
    if (offset == -1 &&
        std::any_of(mt.at.begin(), mt.at.end(), [&](const auto &e) {
          return e.first >= 0 && static_cast<uint64_t>(e.first) < bytes &&
                 e.second == t && t.kind != BaseType::Unknown &&
                 t.kind != BaseType::Anything;
        }))
      continue;
    if (offset == -1 || t.kind == BaseType::Unknown ||
        t.kind == BaseType::Anything)
      return std::nullopt;
    if (offset < 0) {
      // Before the copy (the rest of a larger object), unless it reaches
      // into it.
      uint64_t size = t.kind == BaseType::Float
                          ? dl.getTypeStoreSize(t.fp).getFixedValue()
                          : t.kind == BaseType::Pointer ? dl.getPointerSize()
                                                        : 1;
      if (offset + static_cast<int64_t>(size) > 0)
        return std::nullopt;
      continue;
    }
    uint64_t at = static_cast<uint64_t>(offset);
    if (at >= bytes)
      break; // Beyond the copy: the rest of a larger object.
    if (t.kind == BaseType::Integer) {
      if (at > covered && !isPadding(at - covered, at, 4))
        return std::nullopt;
      auto next = std::next(it);
      uint64_t to = next == mt.at.end() ? bytes
                                        : std::min<uint64_t>(next->first, bytes);
      // No integer is wider than 8 bytes: what lies beyond an integer
      // field that no fact describes may be floats (the other elements
      // of a copied array of {double; int64} records).
      to = std::min<uint64_t>(to, at + 8);
      covered = std::max(covered, to);
      continue;
    }
    if (t.kind == BaseType::Float && !t.fp->isDoubleTy() && !t.fp->isFloatTy())
      return std::nullopt;
    uint64_t size = t.kind == BaseType::Pointer
                        ? dl.getPointerSize()
                        : dl.getTypeStoreSize(t.fp).getFixedValue();
    if (at < covered || at + size > bytes ||
        !isPadding(at - covered, at, size))
      return std::nullopt;
    covered = at + size;
    maxSize = std::max(maxSize, size);
    fields.push_back({offset, t});
  }
  if (covered < bytes && !isPadding(bytes - covered, bytes, maxSize))
    return std::nullopt;
  return fields;
}

bool MemoryTypes::Add(int64_t offset, BaseType t) {
  if (t.kind == BaseType::Unknown)
    return false;
  BaseType &slot = at[offset];
  BaseType joined = slot.Join(t);
  if (joined == slot)
    return false;
  slot = joined;
  return true;
}

std::string MemoryTypes::ToString() const {
  std::string s = "{";
  bool first = true;
  for (const auto &[off, t] : at) {
    s += first ? "" : ", ";
    first = false;
    s += "[" + std::to_string(off) + "]:" + t.ToString();
  }
  for (const auto &[phase, t] : periodic) {
    s += first ? "" : ", ";
    first = false;
    s += "[" + std::to_string(phase) + " mod " + std::to_string(period) +
         "]:" + t.ToString();
  }
  return s + "}";
}

static BaseType FromTypeName(StringRef name, LLVMContext &ctx) {
  BaseType t;
  name = name.trim();
  if (name == "Pointer") {
    t.kind = BaseType::Pointer;
  } else if (name == "Integer") {
    t.kind = BaseType::Integer;
  } else if (name == "Anything") {
    t.kind = BaseType::Anything;
  } else if (name.consume_front("Float@")) {
    t.kind = BaseType::Float;
    t.fp = StringSwitch<Type *>(name)
               .Case("double", Type::getDoubleTy(ctx))
               .Case("float", Type::getFloatTy(ctx))
               .Case("half", Type::getHalfTy(ctx))
               .Case("bfloat", Type::getBFloatTy(ctx))
               .Case("fp128", Type::getFP128Ty(ctx))
               .Case("x86_fp80", Type::getX86_FP80Ty(ctx))
               .Default(nullptr);
    if (!t.fp)
      t.kind = BaseType::Unknown;
  }
  return t;
}

MemoryTypes ParseEnzymeTypeString(StringRef s, LLVMContext &ctx,
                                  bool pointee) {
  MemoryTypes out;
  s = s.trim();
  if (!s.consume_front("{") || !s.consume_back("}"))
    return out;
  while (!s.empty()) {
    s = s.ltrim(" ,");
    if (!s.consume_front("["))
      break;
    size_t close = s.find(']');
    if (close == StringRef::npos)
      break;
    SmallVector<StringRef, 4> idx;
    s.take_front(close).split(idx, ',');
    s = s.drop_front(close + 1).ltrim();
    if (!s.consume_front(":"))
      break;
    size_t end = s.find(", [");
    StringRef name = s.take_front(end);
    s = end == StringRef::npos ? StringRef() : s.drop_front(end);
    BaseType t = FromTypeName(name, ctx);
    int64_t off = 0;
    if (pointee && idx.size() == 2 && !idx[1].trim().getAsInteger(10, off))
      out.Add(off, t);
    else if (!pointee && idx.size() == 1 && !idx[0].trim().getAsInteger(10, off))
      out.Add(off, t);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

namespace {

BaseType OfLlvmType(Type *t) {
  BaseType b;
  if (t->isFloatingPointTy()) {
    b.kind = BaseType::Float;
    b.fp = t;
  } else if (t->isPointerTy()) {
    b.kind = BaseType::Pointer;
  } else if (t->isIntegerTy()) {
    b.kind = BaseType::Integer;
  }
  return b;
}

/// The type a TBAA access tag names (its access type: `double`, `int`,
/// `any pointer`); unknown for char and anything else.
static BaseType OfTbaaTag(const MDNode *tag, LLVMContext &ctx) {
  if (!tag || tag->getNumOperands() < 2)
    return BaseType();
  const auto *access = dyn_cast<MDNode>(tag->getOperand(1));
  if (!access || access->getNumOperands() < 1)
    return BaseType();
  const auto *name = dyn_cast<MDString>(access->getOperand(0));
  if (!name)
    return BaseType();
  StringRef n = name->getString();
  BaseType b;
  if (n == "double") {
    b.kind = BaseType::Float;
    b.fp = Type::getDoubleTy(ctx);
  } else if (n == "float") {
    b.kind = BaseType::Float;
    b.fp = Type::getFloatTy(ctx);
  } else if (n == "any pointer" || n.starts_with("p1 ") ||
             n.starts_with("p2 ")) {
    b.kind = BaseType::Pointer;
  } else if (n == "int" || n == "long" || n == "long long" || n == "short" ||
             n == "bool" || n == "_Bool") {
    b.kind = BaseType::Integer;
  }
  return b;
}

BaseType OfTbaa(const Instruction &i, LLVMContext &ctx) {
  return OfTbaaTag(i.getMetadata(LLVMContext::MD_tbaa), ctx);
}

/// What the functions a call reaches say of the memory behind their
/// pointer parameters, computed once per function (a few calls deep).
using CalleeFacts = DenseMap<const Function *, MapVector<const Value *, MemoryTypes>>;

/// How deep the analysis follows calls into functions of the module.
constexpr unsigned kMaxCallDepth = 3;

/// The sides of one integer copy (a bit-copy web), and its size.
struct CopySides {
  std::vector<const Value *> sides;
  uint64_t bytes = 0;
};

class Builder {
public:
  Builder(const Function &f,
          MapVector<const Value *, MemoryTypes> &objects,
          CalleeFacts *callees = nullptr, unsigned depth = 0,
          bool guess_copies = true, bool float_moves = false)
      : f_(f), dl_(f.getDataLayout()), objects_(objects), callees_(callees),
        depth_(depth), guess_copies_(guess_copies), float_moves_(float_moves) {}

  bool AddAccess(const Value *ptr, Type *t, BaseType tbaa) {
    Place at = LocatePlace(ptr, dl_);
    bool changed = AddType(at, t, tbaa);
    // A pointer chosen by a phi or select (buffers swapped in a time loop)
    // accesses each of the objects it may choose.
    for (const Place &in : Choices(at))
      changed |= AddType(in, t, tbaa);
    return changed;
  }

  /// The places in the objects a phi or select at `at` may choose (and
  /// those they may choose in turn), up to 15.
  SmallVector<Place, 4> Choices(const Place &at) {
    SmallVector<Place, 4> out, work = {at};
    SmallPtrSet<const Value *, 8> seen = {at.obj};
    while (!work.empty()) {
      Place base = work.pop_back_val();
      SmallVector<const Value *, 4> choices;
      if (const auto *phi = dyn_cast<PHINode>(base.obj))
        choices.append(phi->incoming_values().begin(),
                       phi->incoming_values().end());
      else if (const auto *sel = dyn_cast<SelectInst>(base.obj))
        choices = {sel->getTrueValue(), sel->getFalseValue()};
      for (const Value *c : choices) {
        Place in = Through(LocatePlace(c, dl_), base);
        if (seen.size() < 16 && seen.insert(in.obj).second) {
          out.push_back(in);
          work.push_back(in);
        }
      }
    }
    return out;
  }

  /// Where `base` (a place in a phi's or select's object) lies in the
  /// object of the pointer `in` that the phi or select chose.
  static Place Through(Place in, const Place &base) {
    if (base.off >= 0)
      return in.Shift(base.off);
    if (in.off >= 0 && base.period > 0)
      return Place{in.obj, -1, base.period, 0}.Shift(in.off + base.phase);
    // An element's field reached through an element of an array: both
    // repeat with their common step.
    if (in.period > 0 && base.period > 0) {
      int64_t common = std::gcd(in.period, base.period);
      if (common > 1)
        return Place{in.obj, -1, common, (in.phase + base.phase) % common};
    }
    return Place{in.obj, -1};
  }

  /// Records one fact at `p`; an array of aggregates indexed at run time
  /// keeps it per element (a second element size for the same object
  /// falls back to "every offset").
  bool AddLeaf(const Place &p, BaseType b) {
    // A null, undefined or constant-address pointer (an empty vector's
    // begin, joined in a phi with each buffer it may grow into) is no
    // object: facts recorded on it would be shared by every unrelated
    // pointer that may hold it.
    if (IsNoObject(p.obj))
      return false;
    MemoryTypes &mt = objects_[p.obj];
    if (p.off >= 0)
      return mt.Add(p.off, b);
    if (p.period > 0 && mt.period > 0 && mt.period != p.period &&
        std::gcd(mt.period, p.period) > 1) {
      // The same array reached with two steps (an element by index and
      // a scaled byte offset of two elements): facts repeat with the
      // common divisor of both.
      int64_t common = std::gcd(mt.period, p.period);
      bool changed = false;
      if (common != mt.period) {
        std::map<int64_t, BaseType> folded;
        for (const auto &[phase, b] : mt.periodic) {
          BaseType &slot = folded[phase % common];
          slot = slot.Join(b);
        }
        mt.periodic = std::move(folded);
        mt.period = common;
        changed = true;
      }
      return AddLeaf(Place{p.obj, -1, common, p.phase % common}, b) || changed;
    }
    if (p.period > 0 && (mt.period == 0 || mt.period == p.period)) {
      mt.period = p.period;
      BaseType &slot = mt.periodic[p.phase];
      BaseType joined = slot.Join(b);
      if (b.kind == BaseType::Unknown || joined == slot)
        return false;
      slot = joined;
      return true;
    }
    return mt.Add(-1, b);
  }

  bool AddType(const Place &p, Type *t, BaseType tbaa) {
    bool changed = false;
    if (auto *st = dyn_cast<StructType>(t)) {
      const StructLayout *sl = dl_.getStructLayout(st);
      for (unsigned i = 0; i < st->getNumElements(); ++i)
        changed |= AddType(p.Shift(sl->getElementOffset(i)),
                           st->getElementType(i), BaseType());
      return changed;
    }
    if (auto *at = dyn_cast<ArrayType>(t)) {
      uint64_t sz = dl_.getTypeAllocSize(at->getElementType());
      for (uint64_t i = 0; i < at->getNumElements() && i < 64; ++i)
        changed |= AddType(p.Shift(i * sz), at->getElementType(), BaseType());
      return changed;
    }
    if (auto *vt = dyn_cast<FixedVectorType>(t)) {
      // A vector access's TBAA tag names each element's type (a
      // vectorized move of `unique_ptr`s as <2 x i64> is tagged as their
      // pointer type).
      uint64_t sz = dl_.getTypeAllocSize(vt->getElementType());
      for (unsigned i = 0; i < vt->getNumElements(); ++i)
        changed |= AddType(p.Shift(i * sz), vt->getElementType(), tbaa);
      return changed;
    }
    BaseType b = OfLlvmType(t);
    // An integer access tagged as double is a copy of a double.
    if (tbaa.kind != BaseType::Unknown && b.kind == BaseType::Integer)
      b = tbaa;
    return AddLeaf(p, b);
  }

  void Run() {
    LLVMContext &ctx = f_.getContext();
    for (const Argument &a : f_.args()) {
      if (!a.getType()->isPointerTy())
        continue;
      Attribute attr = f_.getAttributes().getParamAttr(a.getArgNo(),
                                                       "enzyme_type");
      if (!attr.isStringAttribute())
        continue;
      MemoryTypes t =
          ParseEnzymeTypeString(attr.getValueAsString(), ctx, true);
      for (const auto &[off, b] : t.at)
        objects_[&a].Add(off, b);
    }
    // Integer loads and stores that only copy bits (BitCopies.h) say
    // nothing of the memory's type unless TBAA names it: their sides are
    // joined like a memory transfer's, and an access is typed by its own
    // integer type only where nothing else describes its bytes.
    std::vector<BitCopyWeb> webs = FindBitCopyWebs(f_);
    if (float_moves_) {
      std::vector<BitCopyWeb> moves = FindBitCopyWebs(f_, /*floats=*/true);
      webs.insert(webs.end(), moves.begin(), moves.end());
    }
    SmallPtrSet<const Instruction *, 16> copies;
    std::vector<CopySides> joined;
    // (An integer TBAA tag on a copy names the type the code moves the
    // bits as, `long` in a generic swap, not what the memory holds.)
    auto untyped = [&](const Instruction &i) {
      BaseType::Kind k = OfTbaa(i, ctx).kind;
      return k == BaseType::Unknown || k == BaseType::Integer;
    };
    for (const BitCopyWeb &w : webs) {
      std::vector<const Value *> sides;
      for (const LoadInst *l : w.loads)
        if (untyped(*l) && copies.insert(l).second)
          sides.push_back(l->getPointerOperand());
      for (const StoreInst *s : w.stores)
        if (untyped(*s) && copies.insert(s).second)
          sides.push_back(s->getPointerOperand());
      if (sides.size() > 1)
        joined.push_back({std::move(sides), dl_.getTypeStoreSize(w.type)});
    }
    for (const Instruction &i : instructions(f_)) {
      if (copies.count(&i))
        continue;
      if (const auto *mt = dyn_cast<MemTransferInst>(&i)) {
        AddStructCopyFacts(*mt);
        AddInitializerFacts(mt->getRawSource());
      }
      if (const auto *l = dyn_cast<LoadInst>(&i))
        AddAccess(l->getPointerOperand(), l->getType(), OfTbaa(i, ctx));
      else if (const auto *s = dyn_cast<StoreInst>(&i))
        AddAccess(s->getPointerOperand(), s->getValueOperand()->getType(),
                  OfTbaa(i, ctx));
    }
    AddCalleeFacts();
    JoinCopies(joined);
    bool typed = false;
    for (const Instruction *i : copies) {
      const Value *ptr = getLoadStorePointerOperand(i);
      Type *t = getLoadStoreType(const_cast<Instruction *>(i));
      if (!Describes(ptr, dl_.getTypeStoreSize(t)) &&
          (guess_copies_ || t->isFloatingPointTy() || DeclaresInteger(*i)))
        typed |= AddAccess(ptr, t, BaseType());
    }
    if (typed)
      JoinCopies(joined);
  }


  /// A global copied from (a local array initialized from a constant,
  /// at -O0) holds what its initializer's type says: its floats and
  /// pointers (integers may be padding or a union's other view).
  void AddInitializerFacts(const Value *src) {
    const auto *g = dyn_cast<GlobalVariable>(src->stripPointerCasts());
    if (!g || !g->hasDefinitiveInitializer())
      return;
    AddInitializerLeaves(Place{g, 0}, g->getValueType());
  }

  void AddInitializerLeaves(const Place &p, Type *t) {
    if (auto *st = dyn_cast<StructType>(t)) {
      const StructLayout *sl = dl_.getStructLayout(st);
      for (unsigned i = 0; i < st->getNumElements(); ++i)
        AddInitializerLeaves(p.Shift(sl->getElementOffset(i)),
                             st->getElementType(i));
      return;
    }
    if (auto *at = dyn_cast<ArrayType>(t)) {
      Type *e = at->getElementType();
      uint64_t sz = dl_.getTypeAllocSize(e);
      if (at->getNumElements() > 64) {
        // A long table of one float type, the whole global: floats at
        // every offset.
        if (e->isFloatingPointTy() && p.off == 0 &&
            t == cast<GlobalVariable>(p.obj)->getValueType())
          AddLeaf(Place{p.obj, -1}, OfLlvmType(e));
        return;
      }
      for (uint64_t i = 0; i < at->getNumElements(); ++i)
        AddInitializerLeaves(p.Shift(i * sz), e);
      return;
    }
    if (t->isFloatingPointTy() || t->isPointerTy())
      AddLeaf(p, OfLlvmType(t));
  }

  /// A struct copied by assignment carries `!tbaa.struct`: each field's
  /// offset, size and type, on both sides of the copy (the floats of a
  /// `{float x, y, z}` record that the code only moves as an i64 and a
  /// float are floats).
  void AddStructCopyFacts(const MemTransferInst &mt) {
    const MDNode *fields = mt.getMetadata(LLVMContext::MD_tbaa_struct);
    if (!fields || fields->getNumOperands() % 3 != 0)
      return;
    const auto *len = dyn_cast<ConstantInt>(mt.getLength());
    if (!len || len->getValue().getActiveBits() > 32 || len->isZero())
      return;
    // Only where the copy's place in its object is known: at a constant
    // offset, or at a known place in each of an array's elements (a field
    // fact at "every offset" would be a conflict, not a fact).
    LLVMContext &ctx = f_.getContext();
    int64_t bytes = len->getSExtValue();
    // (Not relative to a pointer that walks an object, a phi or a select:
    // its neighbours are at negative offsets, which are "somewhere".)
    auto known = [&](const Place &p) {
      if (isa<PHINode>(p.obj) || isa<SelectInst>(p.obj))
        return false;
      return p.off >= 0 || (p.period > 0 && p.period % bytes == 0);
    };
    Place dest = LocatePlace(mt.getRawDest(), dl_);
    Place src = LocatePlace(mt.getRawSource(), dl_);
    for (unsigned k = 0; k + 2 < fields->getNumOperands(); k += 3) {
      auto *off = mdconst::dyn_extract<ConstantInt>(fields->getOperand(k));
      auto *size = mdconst::dyn_extract<ConstantInt>(fields->getOperand(k + 1));
      const auto *tag = dyn_cast<MDNode>(fields->getOperand(k + 2));
      if (!off || !size || !tag || off->getValue().getActiveBits() > 32)
        continue;
      BaseType b = OfTbaaTag(tag, ctx);
      if (b.kind == BaseType::Unknown ||
          (b.kind == BaseType::Float &&
           dl_.getTypeStoreSize(b.fp) != size->getZExtValue()))
        continue;
      if (known(dest))
        AddLeaf(dest.Shift(off->getSExtValue()), b);
      if (known(src))
        AddLeaf(src.Shift(off->getSExtValue()), b);
    }
  }

  /// Memory transfers and bit copies: both sides hold the same data, in
  /// the bytes copied (`bytes`, 0 when only known at run time).
  void JoinCopies(const std::vector<CopySides> &joined) {
    // A side chosen by a phi or select (a growing buffer copied out,
    // std::vector's copy of a vector filled by push_back) is each of the
    // objects it may choose.
    // (Only a phi or select that chooses between objects and of which
    // nothing is known itself: a pointer walking an array is no choice.)
    auto sides = [&](const Place &p) {
      SmallVector<Place, 4> out;
      const auto *phi = dyn_cast<PHINode>(p.obj);
      bool walks = phi && any_of(phi->incoming_values(), [&](const Value *in) {
                     return LocatePlace(in, dl_).obj == phi;
                   });
      if ((phi || isa<SelectInst>(p.obj)) && !walks &&
          !objects_.count(p.obj))
        out = Choices(p);
      out.push_back(p);
      return out;
    };
    // (A memcpy lays periodic facts out over the bytes it copies: every
    // element of an array of records copied whole.)
    auto join = [&](const Value *a, const Value *b, uint64_t bytes,
                    uint64_t span) {
      SmallVector<Place, 4> ds = sides(LocatePlace(a, dl_)),
                            ss = sides(LocatePlace(b, dl_));
      bool changed = false;
      for (const Place &x : ds)
        for (const Place &y : ss)
          changed |= Copy(y, x, bytes, span) | Copy(x, y, bytes, span);
      return changed;
    };
    for (int round = 0; round < 4; ++round) {
      bool changed = false;
      for (const Instruction &i : instructions(f_))
        if (const auto *mt = dyn_cast<MemTransferInst>(&i)) {
          const auto *len = dyn_cast<ConstantInt>(mt->getLength());
          uint64_t bytes =
              len && len->getBitWidth() <= 64 ? len->getZExtValue() : 0;
          changed |= join(mt->getRawDest(), mt->getRawSource(), bytes, bytes);
        }
      for (const CopySides &c : joined)
        for (size_t k = 1; k < c.sides.size(); ++k)
          changed |= join(c.sides[0], c.sides[k], c.bytes, 0);

      if (!changed)
        break;
    }
  }

  /// Whether some fact names a byte of the `size` bytes at `ptr`, or the
  /// object is an array of floats whose size divides `size` (an element,
  /// or a run of them, copied whole: `memcpy(b, a, 8)` of two floats).
  bool Describes(const Value *ptr, uint64_t size) {
    Place p = LocatePlace(ptr, dl_);
    auto it = objects_.find(p.obj);
    if (it == objects_.end())
      return false;
    MemoryTypes mt = Materialize(it->second, p);
    for (uint64_t k = 0; k < size; ++k)
      if (mt.at.count(k))
        return true;
    auto all = mt.at.find(-1);
    if (all == mt.at.end() || all->second.kind != BaseType::Float)
      return false;
    uint64_t lane = dl_.getTypeStoreSize(all->second.fp);
    return lane && size % lane == 0;
  }

  /// A pointer passed to a function of the module points to memory of the
  /// types the callee reads and writes through that parameter (a struct
  /// the callee fills through an output pointer, which the caller then
  /// copies, is seen whole even when the call is not inlined).
  void AddCalleeFacts() {
    if (!callees_ || depth_ >= kMaxCallDepth)
      return;
    for (const Instruction &i : instructions(f_)) {
      const auto *call = dyn_cast<CallBase>(&i);
      const Function *callee =
          call ? dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts())
               : nullptr;
      if (!callee || callee->isDeclaration() || callee == &f_ ||
          callee->isVarArg())
        continue;
      const MapVector<const Value *, MemoryTypes> *facts = FactsOf(*callee);
      if (!facts)
        continue;
      for (unsigned k = 0; k < call->arg_size() && k < callee->arg_size();
           ++k) {
        if (!call->getArgOperand(k)->getType()->isPointerTy())
          continue;
        auto it = facts->find(callee->getArg(k));
        if (it == facts->end())
          continue;
        Place arg = LocatePlace(call->getArgOperand(k), dl_);
        const MemoryTypes &param = it->second;
        for (const auto &[at, b] : param.at)
          AddLeaf(at < 0 ? Place{arg.obj, -1} : arg.Shift(at), b);
        for (const auto &[phase, b] : param.periodic)
          AddLeaf(Through(arg, Place{nullptr, -1, param.period, phase}), b);
      }
    }
  }

  const MapVector<const Value *, MemoryTypes> *FactsOf(const Function &g) {
    auto it = callees_->find(&g);
    if (it != callees_->end())
      return &it->second;
    (*callees_)[&g]; // In progress (recursion): no facts yet.
    MapVector<const Value *, MemoryTypes> facts;
    Builder(g, facts, callees_, depth_ + 1, guess_copies_).Run();
    auto &slot = (*callees_)[&g];
    slot = std::move(facts);
    return &slot;
  }

  /// What is known at `from` holds at `to` (a copy between them).
  /// (Only the `bytes` copied, when known: the int field copied out of a
  /// record says nothing of the double that follows it.)
  /// `span`: the bytes over which periodic facts are laid out (an array
  /// of records copied whole by one memcpy), or 0.
  bool Copy(const Place &from, const Place &to, uint64_t bytes,
            uint64_t span = 0) {
    auto it = objects_.find(from.obj);
    if (it == objects_.end())
      return false;
    MemoryTypes src = Materialize(it->second, from, span);
    bool changed = false;
    for (const auto &[rel, b] : src.at) {
      if (rel < -1 || (bytes && rel >= 0 && uint64_t(rel) >= bytes))
        continue;
      changed |= AddLeaf(rel < 0 ? Place{to.obj, -1} : to.Shift(rel), b);
    }
    return changed;
  }

private:
  const Function &f_;
  const DataLayout &dl_;
  MapVector<const Value *, MemoryTypes> &objects_;
  CalleeFacts *callees_;
  unsigned depth_;
  /// Whether an integer copy nothing else describes is typed by its own
  /// integer type (the analysis everyone uses), or left unknown (what
  /// reverse mode asks before trusting such a copy to move no floats).
  bool guess_copies_;
  /// Whether moves of doubles and floats (loads, phis, selects, stores,
  /// nothing computed) count as copies too, typed by their own type only
  /// where nothing else describes their bytes.
  bool float_moves_;
};

} // namespace

/// Whether integer access `i` is to a field a struct declares integer:
/// a struct-path TBAA tag whose base is an aggregate (`s->id`, not a
/// `uint64_t *` view of other memory), or, without TBAA, a field
/// address computed on the struct type. An integer copy otherwise says
/// nothing of what it moves (the words of an array of doubles).
bool DeclaresInteger(const Instruction &i) {
  if (const MDNode *tag = i.getMetadata(LLVMContext::MD_tbaa))
    if (tag->getNumOperands() >= 3 && tag->getOperand(0) != tag->getOperand(1))
      return OfTbaa(i, i.getContext()).kind == BaseType::Integer;
  const auto *gep = dyn_cast<GEPOperator>(getLoadStorePointerOperand(&i));
  if (!gep || !gep->getResultElementType()->isIntegerTy())
    return false;
  Type *t = gep->getSourceElementType();
  while (auto *at = dyn_cast<ArrayType>(t))
    t = at->getElementType();
  return t->isStructTy();
}

const TypeInfo &TypeInfoCache::Of(const Function &f) {
  std::unique_ptr<TypeInfo> &slot = infos_[&f];
  if (!slot)
    slot = std::make_unique<TypeInfo>(TypeInfo::Compute(f));
  return *slot;
}

TypeInfo TypeInfo::Compute(const Function &f, bool guess_copies) {
  TypeInfo info;
  info.f_ = &f;
  CalleeFacts callees;
  Builder(f, info.objects_, &callees, 0, guess_copies).Run();
  return info;
}

TypeInfo TypeInfo::ComputeBesideFloatMoves(const Function &f) {
  TypeInfo info;
  info.f_ = &f;
  CalleeFacts callees;
  Builder(f, info.objects_, &callees, 0, /*guess_copies=*/true,
          /*float_moves=*/true)
      .Run();
  return info;
}

void TypeInfo::Print(raw_ostream &os) const {
  os << "types of " << f_->getName() << ":\n";
  for (const auto &[obj, t] : objects_) {
    os << "  ";
    obj->printAsOperand(os, /*PrintType=*/false);
    os << ": " << t.ToString() << "\n";
  }
}

PreservedAnalyses TypePrinterPass::run(Module &m, ModuleAnalysisManager &) {
  for (const Function &f : m)
    if (!f.isDeclaration())
      TypeInfo::Compute(f).Print(os_);
  return PreservedAnalyses::all();
}

} // namespace autodiff
