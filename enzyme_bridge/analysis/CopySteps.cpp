//===- enzyme_bridge/analysis/CopySteps.cpp - Word copies out of step -----===//
#include "enzyme_bridge/analysis/CopySteps.h"

#include "enzyme_bridge/analysis/MemoryPlaces.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace autodiff {
namespace {

/// Where the floats of an object are: their size, and the offset of one
/// modulo that size.
struct FloatGrid {
  int64_t width = 0;
  int64_t phase = 0;
  Type *fp = nullptr;
};

/// The floats of `mt` when they are all of one size and in step (a double
/// array, the doubles of a struct at multiples of 8); nullopt otherwise.
std::optional<FloatGrid> GridOf(const MemoryTypes &mt, const DataLayout &dl) {
  std::optional<FloatGrid> grid;
  // Where the bytes used both as floats and as something else start, all
  // at even places or all at odd ones (-1: none yet, 2: no such rule).
  int64_t mixed = -1;
  for (const auto &[off, t] : mt.at) {
    if (t.kind == BaseType::Anything)
      mixed = off < 0 || (mixed >= 0 && mixed != off % 2) ? 2 : off % 2;
    if (t.kind != BaseType::Float || !t.fp)
      continue;
    int64_t w = int64_t(dl.getTypeStoreSize(t.fp).getFixedValue());
    if (w <= 0)
      return std::nullopt;
    // (Floats at every offset, an array indexed at run time: in step with
    // the object's start.)
    int64_t phase = off < 0 ? 0 : off % w;
    if (grid && (grid->width != w || grid->phase != phase))
      return std::nullopt;
    grid = FloatGrid{w, phase, t.fp};
  }
  // Memory used both as floats and as something else (a double the
  // caller passes to a helper that moves its bytes as chars): floats of
  // some size, at least 2 bytes, starting where those uses start; a byte
  // moved by an odd distance from there lands in another place of its
  // float, whatever its size.
  if (!grid && (mixed == 0 || mixed == 1))
    grid = FloatGrid{2, mixed, nullptr};
  return grid;
}

/// The object `ptr` points into and what it holds, when it holds floats.
struct Side {
  const Value *obj = nullptr;
  FloatGrid grid;
};

std::optional<Side> SideOf(const Value *ptr, const TypeInfo &types,
                           const DataLayout &dl) {
  Place p = LocatePlace(ptr, dl);
  if (!p.obj || !p.obj->getType()->isPointerTy())
    return std::nullopt;
  // A parameter its caller described: the caller's floats, as it laid
  // them out (this function's own byte accesses there would make them
  // "anything").
  std::optional<FloatGrid> grid;
  if (const auto *arg = dyn_cast<Argument>(p.obj)) {
    Attribute attr = arg->getParent()->getAttributes().getParamAttr(
        arg->getArgNo(), "enzyme_type");
    if (attr.isStringAttribute())
      grid = GridOf(ParseEnzymeTypeString(attr.getValueAsString(),
                                          arg->getContext(), true),
                    dl);
  }
  if (!grid)
    grid = GridOf(types.TypesAt(p.obj), dl);
  if (!grid)
    return std::nullopt;
  return Side{p.obj, *grid};
}

/// The integer stores of `f` that copy a loaded value as it is, between
/// memory holding floats on both sides.
struct Copy {
  const StoreInst *store;
  const LoadInst *load;
  Side to, from;
};

SmallVector<Copy, 8> FindCopies(Function &f,
                                function_ref<const TypeInfo &()> analysis) {
  const DataLayout &dl = f.getDataLayout();
  SmallVector<Copy, 8> out;
  for (Instruction &i : instructions(f)) {
    auto *st = dyn_cast<StoreInst>(&i);
    auto *ld = st ? dyn_cast<LoadInst>(st->getValueOperand()) : nullptr;
    if (!ld || !ld->getType()->isIntegerTy() || st->isVolatile() ||
        ld->isVolatile())
      continue;
    const TypeInfo &types = analysis();
    std::optional<Side> to = SideOf(st->getPointerOperand(), types, dl);
    std::optional<Side> from =
        to ? SideOf(ld->getPointerOperand(), types, dl) : std::nullopt;
    if (!from)
      continue;
    // (Floats of two sizes: in step must hold for the smaller.)
    int64_t w = std::min(to->grid.width, from->grid.width);
    to->grid.phase %= w;
    from->grid.phase %= w;
    to->grid.width = from->grid.width = w;
    if (!to->grid.fp)
      to->grid.fp = from->grid.fp;
    out.push_back({st, ld, *to, *from});
  }
  return out;
}

} // namespace

DenseMap<const Instruction *, std::string>
CopiesOutOfStep(Function &f, function_ref<const TypeInfo &()> types) {
  DenseMap<const Instruction *, std::string> out;
  SmallVector<Copy, 8> copies = FindCopies(f, types);
  if (copies.empty())
    return out;
  DominatorTree dt(f);
  LoopInfo li(dt);
  TargetLibraryInfoImpl tlii(f.getParent()->getTargetTriple());
  TargetLibraryInfo tli(tlii, &f);
  AssumptionCache ac(f);
  ScalarEvolution se(f, tli, ac, dt, li);
  for (const Copy &c : copies) {
    // The byte at offset x of the source object lands at x + delta of the
    // destination; it keeps its place in its float when delta, less the
    // difference of the two grids' phases, is a multiple of the size.
    auto offset = [&](const Value *ptr, const Value *obj) -> const SCEV * {
      const SCEV *p = se.getSCEV(const_cast<Value *>(ptr));
      const SCEV *o = se.getSCEV(const_cast<Value *>(obj));
      const SCEV *d = se.getMinusSCEV(p, o);
      return isa<SCEVCouldNotCompute>(d) ? nullptr : d;
    };
    const SCEV *dst = offset(c.store->getPointerOperand(), c.to.obj);
    const SCEV *src = offset(c.load->getPointerOperand(), c.from.obj);
    if (!dst || !src || dst->getType() != src->getType())
      continue; // (Nothing known: not refused.)
    const SCEV *shift = se.getAddExpr(
        se.getMinusSCEV(dst, src),
        se.getConstant(dst->getType(), c.from.grid.phase - c.to.grid.phase,
                       /*isSigned=*/true));
    if (isa<SCEVCouldNotCompute>(shift) || shift->isZero())
      continue;
    APInt multiple = se.getConstantMultiple(shift);
    if (multiple.isZero() ||
        multiple.urem(uint64_t(c.to.grid.width)) == 0)
      continue;
    std::string fp = "floating-point";
    if (c.to.grid.fp) {
      fp.clear();
      raw_string_ostream os(fp);
      c.to.grid.fp->print(os);
    }
    std::string what;
    raw_string_ostream ws(what);
    ws << "the bytes copied here move by ";
    shift->print(ws);
    ws << " against the " << fp << " values on the two sides (`";
    c.from.obj->printAsOperand(ws, false);
    ws << "` to `";
    c.to.obj->printAsOperand(ws, false);
    ws << "`), which is not a multiple of " << c.to.grid.width
       << " bytes on every copy: a float made of parts of others, or of its bytes "
       << "reordered, has no derivative";
    out[c.store] = what;
  }
  return out;
}

} // namespace autodiff
