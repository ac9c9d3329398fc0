//===- enzyme_bridge/analysis/FloatBytes.cpp - Where an integer's bytes come from --===//
//
// See FloatBytes.h. The origins are followed backwards from the integer,
// at most kMaxDepth steps (-O0 code with helpers takes many: a word
// passes a slot, a call, a shift, a slot and a call per helper), kMaxSteps
// in all, and kMaxBytes bytes wide; anything else (a phi,
// an argument, a call, arithmetic) is its own origin, about which nothing
// is known, so it never makes a splice.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/analysis/FloatBytes.h"

#include "enzyme_bridge/analysis/LocalCopies.h"
#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <utility>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace autodiff {

static const Value *TurnedIntoResult(const Function &f, unsigned depth);
namespace {

constexpr unsigned kMaxBytes = 16;
constexpr unsigned kMaxDepth = 40;
constexpr unsigned kMaxSteps = 4096;

std::string NameOf(const Value *v) {
  std::string out;
  raw_string_ostream os(out);
  v->printAsOperand(os, /*PrintType=*/false);
  return out;
}

/// Where one byte of an integer comes from.
struct Origin {
  enum Kind { Unknown, Zero, From } kind = Unknown;
  /// From: the object (memory at a known place) or value the byte is of.
  const Value *src = nullptr;
  int64_t byte = 0;
  /// From: the bytes [start, start + size) of `src` read together with
  /// this one (the load or value it came in).
  int64_t start = 0, size = 0;
  bool Is(const Value *s, int64_t b) const {
    return kind == From && src == s && byte == b;
  }
};
using Origins = SmallVector<Origin, kMaxBytes>;

/// How the floats of an origin are laid out.
struct LaneSource {
  enum Kind { Object, FloatValue, Relative } kind = Object;
  /// Relative: the pointer a load at an unknown place read, and its size.
  const Value *ptr = nullptr;
  int64_t size = 0;
};

/// A float's bytes [start, start + width) of its origin.
struct Lane {
  int64_t start = 0, width = 0;
  Type *fp = nullptr;
};

class Tracer {
public:
  Tracer(const TypeInfo &types, const DataLayout &dl,
         function_ref<const CallBase *(const Value *)> called,
         const CallBase *site)
      : types_(types), dl_(dl), called_(called) {
    if (site)
      sites_.push_back(site);
  }

  /// The origins of the bytes of `v`; empty when `v` is no value of whole
  /// bytes up to kMaxBytes wide.
  Origins Of(const Value *v, unsigned depth);
  /// The origins of the bytes a load reads (a float's too).
  Origins OfRead(const LoadInst &ld) {
    unsigned n = BytesOf(ld.getType());
    return n ? OfLoad(ld, n, 0) : Origins();
  }
  std::optional<Lane> LaneOf(const Value *src, int64_t byte) const;
  /// Whether `src` is a value (not memory) that crossed a call: integer
  /// bits passed as a parameter or returned by a call, which the other
  /// side checks.
  bool Crossed(const Value *src) const {
    auto it = sources_.find(src);
    bool memory = it != sources_.end() &&
                  (it->second.kind == LaneSource::Object || it->second.ptr);
    return !memory && (isa<Argument>(src) || isa<CallBase>(src) ||
                       (called_ && called_(src)));
  }
  std::string Describe(const Value *src, const Lane &lane) const;

private:
  unsigned BytesOf(Type *t) const {
    if (!t->isIntegerTy() && !t->isFloatingPointTy())
      return 0;
    uint64_t bits = t->getPrimitiveSizeInBits().getFixedValue();
    return bits % 8 == 0 && bits / 8 <= kMaxBytes ? unsigned(bits / 8) : 0;
  }
  Origins Whole(const Value *src, unsigned n, int64_t first,
                LaneSource how) {
    sources_.try_emplace(src, how);
    Origins out(n);
    for (unsigned b = 0; b < n; ++b)
      out[b] = {Origin::From, src, first + b, first, n};
    return out;
  }
  Origins Opaque(const Value *v, unsigned n) {
    return Whole(v, n, 0, {LaneSource::Relative, nullptr, 0});
  }
  Origins OfLoad(const LoadInst &ld, unsigned n, unsigned depth);
  /// What the function a call of the module calls returns, its
  /// parameters standing for the call's operands; empty when unknown.
  Origins OfReturned(const Value *v, unsigned n, unsigned depth);
  /// What was written into the local `ld` reads, byte by byte; empty
  /// when that is not known exactly.
  Origins OfWrittenLocal(const LoadInst &ld, unsigned n, unsigned depth);
  Origins OfMemory(const Value *ptr, const Value *access, unsigned n);
  Origins OfBitwise(const BinaryOperator &bo, unsigned n, unsigned depth);
  Origins OfIntrinsic(const IntrinsicInst &ii, unsigned n, unsigned depth);
  Origins OfChoice(const Instruction &i, unsigned n, unsigned depth);

  const TypeInfo &types_;
  const DataLayout &dl_;
  function_ref<const CallBase *(const Value *)> called_;
  /// The calls whose callee's bytes are being followed, innermost last:
  /// a parameter of that callee is the call's operand.
  SmallVector<const CallBase *, 4> sites_;
  /// The phis and selects whose choices are being followed.
  SmallPtrSet<const Instruction *, 8> choosing_;
  DenseMap<const Value *, LaneSource> sources_;
  unsigned steps_ = 0;
};

Origins Tracer::OfMemory(const Value *ptr, const Value *access, unsigned n) {
  Place p = LocatePlace(ptr, dl_);
  if (p.obj && p.off >= 0)
    return Whole(p.obj, n, p.off, {LaneSource::Object, nullptr, 0});
  return Whole(access, n, 0, {LaneSource::Relative, ptr, int64_t(n)});
}

static bool DependsOn(const Value *v, const Value *from, unsigned depth);

Origins Tracer::OfWrittenLocal(const LoadInst &ld, unsigned n,
                               unsigned depth) {
  // A local whose bytes were each written once before they are read back
  // (-O0 code's slots): what was written there, or copied in from other
  // memory, byte by byte.
  bool complete = false;
  // The last writes, where the code is straight enough to know them (a
  // union written as a double and then one word of it); else every write.
  std::optional<SmallVector<StoredBytes, 4>> last = LastStoresBefore(ld, dl_);
  auto stored = last ? *last : StoredValuesReaching(ld, dl_, &complete);
  complete |= last.has_value();
  // (What the value read back is stored there again, changed, does not
  // reach it: -O0 code's `a = f(a)` on a local.)
  llvm::erase_if(stored, [&](const StoredBytes &s) {
    return s.value && DependsOn(s.value, &ld, 0);
  });
  Origins out(n);
  SmallVector<bool, kMaxBytes> written(n, false);
  bool exact = complete && !stored.empty();
  for (const StoredBytes &s : stored) {
    if (!exact)
      break;
    Origins from;
    if (!s.value) {
      Place p = LocatePlace(s.source, dl_);
      if (!p.obj || p.off < 0) {
        exact = false;
        break;
      }
      from = Whole(p.obj, unsigned(s.hi - s.lo), p.off + s.lo,
                   {LaneSource::Object, nullptr, 0});
    } else {
      Origins whole = Of(s.value, depth + 1);
      if (int64_t(whole.size()) < s.hi) {
        exact = false;
        break;
      }
      from.assign(whole.begin() + s.lo, whole.begin() + s.hi);
    }
    for (int64_t b = 0; exact && b < s.hi - s.lo; ++b) {
      int64_t at = s.at + b;
      exact = at >= 0 && at < int64_t(n) && !written[at];
      if (exact) {
        written[at] = true;
        out[at] = from[b];
      }
    }
  }
  if (exact && llvm::all_of(written, [](bool w) { return w; }))
    return out;
  return {};
}

Origins Tracer::OfLoad(const LoadInst &ld, unsigned n, unsigned depth) {
  if (Origins o = OfWrittenLocal(ld, n, depth); !o.empty())
    return o;
  return OfMemory(ld.getPointerOperand(), &ld, n);
}

/// Whether `v` is computed from `from` (a few steps back).
static bool DependsOn(const Value *v, const Value *from, unsigned depth) {
  if (v == from)
    return true;
  const auto *i = dyn_cast<Instruction>(v);
  if (!i || depth > 6 || isa<PHINode>(i) || isa<LoadInst>(i))
    return false;
  return any_of(i->operands(), [&](const Use &op) {
    return DependsOn(op.get(), from, depth + 1);
  });
}

/// The value `callee` returns at its only return; null when it has none or
/// several, or no body.
static const Value *ReturnedValue(const Function *callee) {
  if (!callee || callee->isDeclaration() || callee->isInterposable())
    return nullptr;
  const Value *out = nullptr;
  for (const BasicBlock &bb : *callee)
    if (const auto *ret = dyn_cast<ReturnInst>(bb.getTerminator())) {
      if (out)
        return nullptr;
      out = ret->getReturnValue();
    }
  return out;
}

/// Whether `v` is another value's sign bit (`b & 0x80...0`).
static bool IsSignOf(const Value *v) {
  const APInt *k = nullptr;
  return match(v, m_And(m_Value(), m_APInt(k))) && k->isSignMask();
}

Origins Tracer::OfBitwise(const BinaryOperator &bo, unsigned n,
                          unsigned depth) {
  const Value *a = bo.getOperand(0), *c = bo.getOperand(1);
  if (isa<Constant>(a))
    std::swap(a, c);
  Origins oa = Of(a, depth + 1);
  if (oa.size() != n)
    return Opaque(&bo, n);
  const APInt *k = nullptr;
  if (match(c, m_APInt(k))) {
    for (unsigned b = 0; b < n; ++b) {
      uint64_t kb = k->extractBitsAsZExtValue(8, 8 * b);
      bool top = b == n - 1;
      if (bo.getOpcode() == Instruction::And) {
        if (kb == 0)
          oa[b] = {Origin::Zero};
      } else if (kb != 0 && !(top && kb == 0x80)) {
        // A constant merged into the bytes (a new exponent); the sign
        // bit alone is an operation on the float (fneg, -fabs).
        oa[b] = {Origin::Unknown};
      }
    }
    return oa;
  }
  // The sign of another value moved in: still this float (copysign).
  if (bo.getOpcode() != Instruction::And && IsSignOf(c))
    return oa;
  Origins oc = Of(c, depth + 1);
  if (oc.size() != n)
    return Opaque(&bo, n);
  if (bo.getOpcode() != Instruction::And && IsSignOf(a))
    return oc;
  for (unsigned b = 0; b < n; ++b) {
    bool za = oa[b].kind == Origin::Zero, zc = oc[b].kind == Origin::Zero;
    if (bo.getOpcode() == Instruction::And)
      oa[b] = za || zc ? Origin{Origin::Zero} : Origin{Origin::Unknown};
    else if (za)
      oa[b] = oc[b];
    else if (!zc)
      oa[b] = {Origin::Unknown};
  }
  return oa;
}

Origins Tracer::OfIntrinsic(const IntrinsicInst &ii, unsigned n,
                            unsigned depth) {
  Intrinsic::ID id = ii.getIntrinsicID();
  if (id == Intrinsic::bswap) {
    Origins o = Of(ii.getArgOperand(0), depth + 1);
    if (o.size() != n)
      return Opaque(&ii, n);
    std::reverse(o.begin(), o.end());
    return o;
  }
  const APInt *sh = nullptr;
  if ((id == Intrinsic::fshl || id == Intrinsic::fshr) &&
      match(ii.getArgOperand(2), m_APInt(sh))) {
    uint64_t s = sh->urem(8 * n);
    Origins hi = Of(ii.getArgOperand(0), depth + 1);
    Origins lo = Of(ii.getArgOperand(1), depth + 1);
    if (s % 8 != 0 || hi.size() != n || lo.size() != n)
      return Opaque(&ii, n);
    // The concatenation hi:lo, shifted left (fshl) or right (fshr).
    Origins cat = lo;
    cat.append(hi.begin(), hi.end());
    Origins out(n);
    for (unsigned b = 0; b < n; ++b)
      out[b] = cat[id == Intrinsic::fshl ? b + n - s / 8 : b + s / 8];
    return out;
  }
  return Opaque(&ii, n);
}

/// A phi or select: its own origin, except bytes that are zero whatever
/// it chooses (the high word of a double carried round a loop, masked).
Origins Tracer::OfChoice(const Instruction &i, unsigned n, unsigned depth) {
  Origins out = Opaque(&i, n);
  if (!choosing_.insert(&i).second)
    return out; // Round a loop: nothing more is known.
  SmallVector<bool, kMaxBytes> zero(n, true);
  for (unsigned k = isa<SelectInst>(i) ? 1 : 0; k < i.getNumOperands(); ++k) {
    Origins in = Of(i.getOperand(k), depth + 1);
    for (unsigned b = 0; b < n; ++b)
      zero[b] = zero[b] && b < in.size() && in[b].kind == Origin::Zero;
  }
  choosing_.erase(&i);
  for (unsigned b = 0; b < n; ++b)
    if (zero[b])
      out[b] = {Origin::Zero};
  return out;
}

Origins Tracer::Of(const Value *v, unsigned depth) {
  unsigned n = BytesOf(v->getType());
  if (n == 0)
    return {};
  if (++steps_ > kMaxSteps)
    return Opaque(v, n);
  // A parameter of the callee being followed: the call's operand.
  if (const auto *arg = dyn_cast<Argument>(v);
      arg && !sites_.empty() && depth <= kMaxDepth &&
      arg->getParent() == sites_.back()->getCalledFunction() &&
      arg->getArgNo() < sites_.back()->arg_size()) {
    const CallBase *site = sites_.pop_back_val();
    Origins o = Of(site->getArgOperand(arg->getArgNo()), depth + 1);
    sites_.push_back(site);
    if (o.size() == n)
      return o;
  }
  if (v->getType()->isFloatingPointTy()) {
    // A float read back from a local (-O0 code's slots) it was assembled
    // in: what was written there; or returned by a call that makes it of
    // its integer arguments (`double_of(u)`).
    if (const auto *ld = dyn_cast<LoadInst>(v); ld && depth <= kMaxDepth)
      if (Origins o = OfWrittenLocal(*ld, n, depth); !o.empty())
        return o;
    if (depth <= kMaxDepth)
      if (Origins o = OfReturned(v, n, depth); !o.empty())
        return o;
    return Whole(v, n, 0, {LaneSource::FloatValue, nullptr, 0});
  }
  if (depth > kMaxDepth)
    return Opaque(v, n);
  if (const auto *k = dyn_cast<ConstantInt>(v)) {
    Origins out(n);
    for (unsigned b = 0; b < n; ++b)
      out[b] = {k->getValue().extractBitsAsZExtValue(8, 8 * b) == 0
                    ? Origin::Zero
                    : Origin::Unknown};
    return out;
  }
  const auto *i = dyn_cast<Instruction>(v);
  if (!i)
    return Opaque(v, n);
  if (const auto *bc = dyn_cast<BitCastInst>(i)) {
    Type *from = bc->getSrcTy();
    if (from->isFloatingPointTy() && from->getScalarSizeInBits() == 8 * n)
      return Of(bc->getOperand(0), depth + 1); // That float's bytes.
    if (from->isFPOrFPVectorTy() && from->getScalarSizeInBits() % 8 == 0)
      return Whole(bc, n, 0, {LaneSource::FloatValue, nullptr, 0});
    return Opaque(v, n);
  }
  if (const auto *ld = dyn_cast<LoadInst>(i))
    return OfLoad(*ld, n, depth);
  if (isa<PHINode>(i) || isa<SelectInst>(i))
    return OfChoice(*i, n, depth);
  if (isa<ZExtInst>(i) || isa<TruncInst>(i) || isa<FreezeInst>(i)) {
    Origins o = Of(i->getOperand(0), depth + 1);
    if (o.empty())
      return Opaque(v, n);
    o.resize(n, Origin{Origin::Zero});
    return o;
  }
  const APInt *sh = nullptr;
  if ((i->getOpcode() == Instruction::Shl ||
       i->getOpcode() == Instruction::LShr) &&
      match(i->getOperand(1), m_APInt(sh)) && sh->getZExtValue() % 8 == 0 &&
      sh->getZExtValue() < 8 * n) {
    Origins o = Of(i->getOperand(0), depth + 1);
    if (o.size() != n)
      return Opaque(v, n);
    unsigned s = unsigned(sh->getZExtValue() / 8);
    Origins out(n, Origin{Origin::Zero});
    for (unsigned b = 0; b < n; ++b) {
      if (i->getOpcode() == Instruction::Shl && b >= s)
        out[b] = o[b - s];
      if (i->getOpcode() == Instruction::LShr && b + s < n)
        out[b] = o[b + s];
    }
    return out;
  }
  if (const auto *bo = dyn_cast<BinaryOperator>(i);
      bo && (bo->getOpcode() == Instruction::And ||
             bo->getOpcode() == Instruction::Or ||
             bo->getOpcode() == Instruction::Xor))
    return OfBitwise(*bo, n, depth);
  if (const auto *ii = dyn_cast<IntrinsicInst>(i))
    return OfIntrinsic(*ii, n, depth);
  if (Origins o = OfReturned(v, n, depth); !o.empty())
    return o;
  return Opaque(v, n);
}

Origins Tracer::OfReturned(const Value *v, unsigned n, unsigned depth) {
  // The one value a function of the module returns (-O0 code calls even
  // its `static inline` bit-cast helpers): its origins there.
  const CallBase *site = called_ ? called_(v) : nullptr;
  if (!site)
    site = dyn_cast<CallBase>(v);
  const Value *ret = site ? ReturnedValue(site->getCalledFunction()) : nullptr;
  // (A float the callee computes is that float, not its operands' bytes.)
  if (!ret || (ret->getType()->isFloatingPointTy() &&
               !TurnedIntoResult(*site->getCalledFunction(), 0)))
    return {};
  sites_.push_back(site);
  Origins o = Of(ret, depth + 1);
  sites_.pop_back();
  if (o.size() != n)
    return {};
  return o;
}

std::optional<Lane> Tracer::LaneOf(const Value *src, int64_t byte) const {
  auto it = sources_.find(src);
  if (it == sources_.end())
    return std::nullopt;
  const LaneSource &how = it->second;
  if (how.kind == LaneSource::FloatValue) {
    Type *fp = src->getType();
    if (auto *bc = dyn_cast<BitCastInst>(src))
      fp = bc->getSrcTy();
    fp = fp->getScalarType();
    int64_t w = int64_t(dl_.getTypeStoreSize(fp).getFixedValue());
    return Lane{byte - byte % w, w, fp};
  }
  if (how.kind == LaneSource::Relative && !how.ptr)
    return std::nullopt; // A value nothing is known of.
  MemoryTypes mt = types_.TypesAt(how.kind == LaneSource::Object ? src
                                                                 : how.ptr);
  for (const auto &entry : mt.at) {
    // Not a structured binding: the lambda below captures `o` (C++20).
    int64_t o = entry.first;
    const BaseType &t = entry.second;
    if (o < 0 || t.kind != BaseType::Float || !t.fp)
      continue;
    int64_t w = int64_t(dl_.getTypeStoreSize(t.fp).getFixedValue());
    if (o <= byte && byte < o + w)
      return Lane{o, w, t.fp};
  }
  // Floats at every offset (an array indexed at run time): in step with
  // the start of what was read.
  auto every = mt.at.find(-1);
  if (how.kind == LaneSource::Relative && every != mt.at.end() &&
      every->second.kind == BaseType::Float && every->second.fp) {
    Type *fp = every->second.fp;
    int64_t w = int64_t(dl_.getTypeStoreSize(fp).getFixedValue());
    if (byte - byte % w + w <= how.size)
      return Lane{byte - byte % w, w, fp};
  }
  return std::nullopt;
}

std::string Tracer::Describe(const Value *src, const Lane &lane) const {
  std::string out;
  raw_string_ostream os(out);
  lane.fp->print(os);
  os << (sources_.lookup(src).kind == LaneSource::Object
             ? " at byte " + std::to_string(lane.start) + " of `"
             : " `");
  os << NameOf(src) << "`";
  return out;
}

} // namespace

std::string SplicedFloatBytes(
    const Value *bits, Type *as, bool becomes, const TypeInfo &types,
    const DataLayout &dl,
    function_ref<const CallBase *(const Value *)> called,
    const CallBase *site) {
  Tracer tracer(types, dl, called, site);
  const auto *ld = dyn_cast<LoadInst>(bits);
  Origins o = ld && ld->getType()->isFloatingPointTy() ? tracer.OfRead(*ld)
                                                        : tracer.Of(bits, 0);
  int64_t n = int64_t(o.size());
  int64_t elem = 0;
  if (as && as->isFPOrFPVectorTy())
    elem = int64_t(dl.getTypeStoreSize(as->getScalarType()).getFixedValue());
  bool placed = becomes && elem != 0;
  for (int64_t p = 0; p < n; ++p) {
    if (o[p].kind != Origin::From)
      continue;
    std::optional<Lane> lane = tracer.LaneOf(o[p].src, o[p].byte);
    // Nothing known of the memory: a word read whole that becomes a
    // float of its size is taken for one. (Not a parameter or a call's
    // result: the caller or the callee checks what crosses.)
    if (!lane && elem != 0 && o[p].size == elem && !tracer.Crossed(o[p].src))
      lane = Lane{o[p].start, elem, as->getScalarType()};
    if (!lane)
      continue;
    int64_t q = p - (o[p].byte - lane->start);
    bool whole = q >= 0 && q + lane->width <= n;
    // Low bytes cleared (a double's low word zeroed to split it in two
    // parts) keep the float, approximately; its top two bytes, which
    // hold the sign and exponent, must be there.
    for (int64_t j = 0; whole && j < lane->width; ++j)
      whole = o[q + j].Is(o[p].src, lane->start + j) ||
              (o[q + j].kind == Origin::Zero && j + 2 < lane->width);
    std::string what = tracer.Describe(o[p].src, *lane);
    if (!whole)
      return "holds byte " + std::to_string(o[p].byte - lane->start) +
             " of the " + what +
             " without the rest of it in order (a float made of parts of "
             "others, or of its bytes reordered, has no derivative)";
    if (placed && (q % elem != 0 || lane->width != elem))
      return "holds the " + what + " at byte " + std::to_string(q) +
             ", which is no floating-point element of what it becomes";
    p = q + lane->width - 1;
  }
  return "";
}

/// The first float of `mt` (object offsets) that [lo, hi) cuts through:
/// one end of the range inside it, at a place no float of its type would
/// start at (an access at the natural place of a float of its own, which
/// a float at an odd place elsewhere overlaps, is not the one to blame;
/// unless `described`: the caller's view of the memory says where its
/// floats are). With `whole`, only floats it has as many bytes as of.
static std::string CutFloat(const MemoryTypes &mt, int64_t lo, int64_t hi,
                            bool described, bool whole,
                            const DataLayout &dl) {
  for (const auto &entry : mt.at) {
    // Not a structured binding: the lambda below captures `o` (C++20).
    int64_t o = entry.first;
    const BaseType &t = entry.second;
    if (o < 0 || t.kind != BaseType::Float || !t.fp)
      continue;
    int64_t w = int64_t(dl.getTypeStoreSize(t.fp).getFixedValue());
    if (whole && hi - lo < w)
      continue;
    auto cuts = [&](int64_t at) {
      return o < at && at < o + w && (at % w || described);
    };
    if (cuts(lo) || cuts(hi)) {
      std::string out;
      raw_string_ostream os(out);
      t.fp->print(os);
      return out + " at byte " + std::to_string(o);
    }
  }
  return "";
}

namespace {
/// One side of an access: where, and how many bytes.
struct Side {
  Place place;
  int64_t size = 0;
  bool described = false;
};
} // namespace

static Side SideOf(const Value *ptr, uint64_t size, const DataLayout &dl) {
  Side s{LocatePlace(ptr, dl), int64_t(std::min<uint64_t>(size, 1 << 20))};
  const auto *param = dyn_cast_or_null<Argument>(s.place.obj);
  s.described = param && param->hasAttribute("enzyme_type");
  return s;
}

/// What `s` cuts through, if its place is known and its ends may cut a
/// float: ends at multiples of 8 bytes cut no float of 8 bytes or less at
/// its natural place (except in memory a caller described, "enzyme_type"
/// on a parameter: its floats are where the caller has them, whatever this
/// function's accesses say).
static std::string Cut(const Side &s, bool whole,
                       function_ref<const TypeInfo &()> types,
                       const DataLayout &dl) {
  const Place &p = s.place;
  if (!p.obj || p.off < 0 || s.size == 0 ||
      (p.off % 8 == 0 && s.size % 8 == 0 && !s.described))
    return "";
  std::string cut = CutFloat(types().TypesAt(p.obj), p.off, p.off + s.size,
                             s.described, whole, dl);
  if (cut.empty())
    return "";
  return "bytes " + std::to_string(p.off) + " to " +
         std::to_string(p.off + s.size - 1) + " of `" + NameOf(p.obj) +
         "` cut through the " + cut;
}

std::string MisplacedFloatAccess(const Instruction &access,
                                 function_ref<const TypeInfo &()> types,
                                 const DataLayout &dl) {
  // A float read or written (integer accesses move bytes whose origins
  // FloatBytes follows: a word of a double read alone is no mistake).
  Type *moved = nullptr;
  const Value *ptr = nullptr;
  if (const auto *ld = dyn_cast<LoadInst>(&access)) {
    moved = ld->getType();
    ptr = ld->getPointerOperand();
  } else if (const auto *st = dyn_cast<StoreInst>(&access)) {
    moved = st->getValueOperand()->getType();
    ptr = st->getPointerOperand();
  }
  if (ptr) {
    if (!moved->isFPOrFPVectorTy())
      return "";
    return Cut(SideOf(ptr, dl.getTypeStoreSize(moved).getKnownMinValue(), dl),
               /*whole=*/false, types, dl);
  }
  // A copy of a float's worth of bytes or more that cuts through one (eight
  // bytes from byte 4 of a double array; not a double's high word copied
  // alone into a uint32_t, whose origins FloatBytes follows).
  const auto *mt = dyn_cast<MemTransferInst>(&access);
  const auto *len = mt ? dyn_cast<ConstantInt>(mt->getLength()) : nullptr;
  if (!len)
    return "";
  for (const Value *side : {mt->getRawSource(), mt->getRawDest()})
    if (std::string cut = Cut(SideOf(side, len->getZExtValue(), dl),
                              /*whole=*/true, types, dl);
        !cut.empty())
      return cut;
  return "";
}

/// Whether `v`, stored by `st`, goes only into loads of locals (-O0
/// code's slots), which are then followed as `v`'s uses.
static bool StoredIntoLocals(const StoreInst &st, const DataLayout &dl,
                             SmallVectorImpl<const Value *> &work) {
  if (!isa<AllocaInst>(getUnderlyingObject(st.getPointerOperand())))
    return false;
  bool escapes = false;
  SmallVector<LoadInst *, 4> loads = LoadsReading(st, dl, &escapes);
  if (escapes)
    return false;
  work.append(loads.begin(), loads.end());
  return true;
}

/// Whether the float `ld` reads is what was written into a local, every
/// byte of it: integers, or floats read the same way.
static bool AssembledInLocal(const LoadInst &ld, const DataLayout &dl,
                             unsigned depth) {
  bool complete = false;
  SmallVector<StoredBytes, 4> stored = StoredValuesReaching(ld, dl, &complete);
  if (!complete || stored.empty() || depth > 4)
    return false;
  return all_of(stored, [&](const StoredBytes &s) {
    if (!s.value)
      return false;
    if (s.value->getType()->isIntegerTy())
      return true;
    const auto *from = dyn_cast<LoadInst>(s.value);
    return from && from->getType()->isFloatingPointTy() &&
           AssembledInLocal(*from, dl, depth + 1);
  });
}

/// A call that makes its float result of its integer arguments (-O0 code
/// calls its `double_of(u)` helper).
static bool IsJoiningCall(const Value *v, unsigned depth) {
  const auto *call = dyn_cast<CallBase>(v);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && depth < 4 && TurnedIntoResult(*callee, depth + 1);
}

std::string PointerIntoFloat(const Value *ptr,
                             function_ref<const TypeInfo &()> types,
                             const DataLayout &dl) {
  Side s = SideOf(ptr, 1, dl);
  const Place &p = s.place;
  if (!p.obj || p.off <= 0 || (p.off % 8 == 0 && !s.described))
    return "";
  std::string cut = CutFloat(types().TypesAt(p.obj), p.off, p.off,
                             s.described, /*whole=*/false, dl);
  if (cut.empty())
    return "";
  return cut + " of `" + NameOf(p.obj) + "`, at byte " + std::to_string(p.off) +
         " of it";
}

const Value *BitsTurnedIntoResult(const Function &f) {
  return TurnedIntoResult(f, 0);
}

static const Value *TurnedIntoResult(const Function &f, unsigned depth) {
  const Value *ret = ReturnedValue(&f);
  if (!ret || !ret->getType()->isFloatingPointTy())
    return nullptr;
  // The result reinterprets an integer; or, at -O0, is read from a local
  // the integers were stored in (a union of a double and two words).
  const Value *bits = nullptr;
  if (const auto *bc = dyn_cast<BitCastInst>(ret);
      bc && bc->getSrcTy()->isIntegerTy())
    bits = bc->getOperand(0);
  else if (const auto *ld = dyn_cast<LoadInst>(ret);
           ld && AssembledInLocal(*ld, f.getDataLayout(), 0))
    bits = ret;
  else if (IsJoiningCall(ret, depth))
    bits = ret;
  if (!bits)
    return nullptr;
  // Every integer parameter's uses stay within the bits: integer steps,
  // and slots they are stored in and read back from, that end in the
  // result.
  const DataLayout &dl = f.getDataLayout();
  for (const Argument &a : f.args()) {
    if (!a.getType()->isIntegerTy())
      continue;
    SmallVector<const Value *, 8> work = {&a};
    SmallPtrSet<const Value *, 16> seen;
    while (!work.empty()) {
      const Value *v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      if (seen.size() > 64)
        return nullptr;
      for (const User *u : v->users()) {
        if (u == bits || isa<ReturnInst>(u))
          continue;
        if (const auto *call = dyn_cast<CallBase>(u);
            call && call == bits && IsJoiningCall(call, depth))
          continue;
        const auto *i = dyn_cast<Instruction>(u);
        if (const auto *st = dyn_cast_or_null<StoreInst>(i)) {
          if (st->getValueOperand() != v || !StoredIntoLocals(*st, dl, work))
            return nullptr;
          continue;
        }
        if (!i || !i->getType()->isIntegerTy() ||
            !(isa<BinaryOperator>(i) || isa<CastInst>(i) ||
              isa<FreezeInst>(i) || isa<IntrinsicInst>(i)))
          return nullptr;
        work.push_back(i);
      }
    }
  }
  return bits;
}

std::string MisplacedFloatProblem(const Instruction &access,
                                  std::optional<TypeInfo> &types,
                                  const Function &f) {
  std::string cut = MisplacedFloatAccess(
      access,
      [&]() -> const TypeInfo & {
        if (!types)
          types.emplace(TypeInfo::Compute(f));
        return *types;
      },
      f.getDataLayout());
  if (cut.empty())
    return "";
  return "this access of active memory is not in step with the "
         "floating-point values there: " +
         cut + "; a value made of parts of two floats has no derivative";
}

} // namespace autodiff
