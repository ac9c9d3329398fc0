//===- enzyme_bridge/ForwardMode.cpp - Forward-mode emitter ---------------===//
//
// The derivative is a copy of the primal with tangent code inserted right
// after each active instruction, so every primal value is available where
// its tangent is computed. Tangents are kept per lane (one value per
// `enzyme_width` lane); a pointer's "tangent" is its shadow pointer. Phi
// nodes get tangent phis before the walk (loops refer to values defined
// later) and their incoming values after it. Loads and stores through a
// pointer with a shadow move the tangent (or raw shadow bits, for integer
// copies of active memory) through the shadow.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/AddressBases.h"
#include "enzyme_bridge/FoldFloatPacking.h"
#include "enzyme_bridge/forward/ForwardMode.h"

#include "enzyme_bridge/ClonePrimal.h"
#include "enzyme_bridge/requests/DerivativeCache.h"
#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/ShadowArenas.h"
#include "enzyme_bridge/GpuKernels.h"
#include "enzyme_bridge/forward/ForwardEmitter.h"
#include "enzyme_bridge/analysis/CopySteps.h"
#include "enzyme_bridge/rules/Rules.h"
#include "enzyme_bridge/analysis/TypeAnalysis.h"
#include "support/StatusMacros.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace autodiff {

ForwardEmitter::ForwardEmitter(const DiffRequest &r, Function &out,
                               DerivativeCache &cache)
    : req_(r), out_(out), cache_(cache), width_(r.width), b_(out.getContext()) {
  b_.setFastMathFlags(cache.derivative_fmf());
}

//===----------------------------------------------------------------------===//
// Tangent bookkeeping
//===----------------------------------------------------------------------===//

Value *ForwardEmitter::T(Value *v, unsigned lane) {
  auto it = tangents_.find(v);
  if (it != tangents_.end())
    return it->second[lane];
  // A global with a registered shadow (`!enzyme_shadow !{ptr @dg}`).
  if (auto *gv = dyn_cast<GlobalVariable>(v->stripPointerCasts()))
    if (MDNode *md = gv->getMetadata("enzyme_shadow"))
      if (md->getNumOperands() > 0)
        if (auto *c = dyn_cast<ConstantAsMetadata>(md->getOperand(0)))
          return c->getValue();
  return nullptr;
}

Value *ForwardEmitter::TOrZero(Value *v, unsigned lane) {
  if (Value *t = T(v, lane))
    return t;
  if (isa<ConstantPointerNull>(v) || isa<UndefValue>(v))
    return Constant::getNullValue(v->getType());
  return ZeroShadow(v->getType());
}

//===----------------------------------------------------------------------===//
// The zero arena (ShadowArenas.h)
//===----------------------------------------------------------------------===//

Value *ForwardEmitter::ZeroShadow(Type *t) {
  if (!ContainsPointer(t))
    return Constant::getNullValue(t);
  auto *vt = dyn_cast<VectorType>(t);
  // A vector of pointers (a vectorized select between an active and an
  // inactive pointer) gets the zero arena in every lane, as a scalar does.
  if (vt && (!vt->getElementType()->isPointerTy() ||
             vt->getElementType()->getPointerAddressSpace() != 0))
    return Constant::getNullValue(t);
  auto it = zero_shadows_.find(t);
  if (it != zero_shadows_.end())
    return it->second;
  if (vt) {
    auto *ptr = cast<Instruction>(ZeroShadow(vt->getElementType()));
    IRBuilder<> eb(ptr->getNextNode());
    Value *splat =
        eb.CreateVectorSplat(vt->getElementCount(), ptr, "zero.shadow.splat");
    zero_shadows_[t] = splat;
    return splat;
  }
  // Made once, at the top of the function, so it dominates every use;
  // aggregates right after the pointer they are built from.
  Value *v;
  if (t->isPointerTy()) {
    IRBuilder<> eb(&*out_.getEntryBlock().getFirstInsertionPt());
    v = eb.CreateCall(ArenaShadowHelper(*out_.getParent(), ArenaKind::Zero),
                      {}, "zero.shadow");
  } else {
    auto *ptr = cast<Instruction>(ZeroShadow(PointerType::get(t->getContext(), 0)));
    IRBuilder<> eb(ptr->getNextNode());
    v = Constant::getNullValue(t);
    auto Fill = [&](auto &self, Value *agg, Type *ty,
                    SmallVector<unsigned, 4> &path) -> Value * {
      if (ty->isPointerTy())
        return eb.CreateInsertValue(agg, ZeroShadow(ty), path);
      if (auto *st = dyn_cast<StructType>(ty))
        for (unsigned i = 0; i < st->getNumElements(); ++i) {
          path.push_back(i);
          agg = self(self, agg, st->getElementType(i), path);
          path.pop_back();
        }
      else if (auto *at = dyn_cast<ArrayType>(ty))
        for (unsigned i = 0; i < at->getNumElements(); ++i) {
          path.push_back(i);
          agg = self(self, agg, at->getElementType(), path);
          path.pop_back();
        }
      return agg;
    };
    SmallVector<unsigned, 4> path;
    v = Fill(Fill, v, t, path);
  }
  zero_shadows_[t] = v;
  return v;
}

Value *ForwardEmitter::InZeroArena(Value *shadow) {
  return InArena(b_, shadow, ArenaKind::Zero);
}

bool ForwardEmitter::HasT(Value *v) {
  for (unsigned k = 0; k < width_; ++k)
    if (T(v, k))
      return true;
  return false;
}

void ForwardEmitter::SetT(Value *v, Lanes lanes) {
  tangents_[v] = std::move(lanes);
}

void ForwardEmitter::SetLanes(Value *v,
                              function_ref<Value *(unsigned lane)> make) {
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k)
    lanes.push_back(make(k));
  SetT(v, lanes);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

absl::Status ForwardEmitter::Run() {
  ClonedPrimal cloned = ClonePrimalBody(req_, out_);
  for (auto &entry : cloned.shadows)
    SetT(entry.first, entry.second);
  SmallVector<const Argument *, 8> &activeArgs = cloned.active;

  removeUnreachableBlocks(out_);
  AD_RETURN_IF_ERROR(CheckGpuCalls(out_, /*reverse=*/false));
  PromoteLocals();
  {
    // (An analysis of its own: the one the visit asks for lazily sees the
    // function as the visit has changed it by then.)
    std::optional<TypeInfo> before;
    copies_out_of_step_ = CopiesOutOfStep(out_, [&]() -> const TypeInfo & {
      if (!before)
        before.emplace(TypeInfo::Compute(out_));
      return *before;
    });
  }
  activity_.emplace(
      ActivityInfo::Compute(out_, activeArgs, req_.return_tangent));
  FindUnneededPrimalStores();
  CreateTangentPhis();

  ReversePostOrderTraversal<Function *> rpo(&out_);
  SmallVector<Instruction *, 64> order;
  for (BasicBlock *bb : rpo)
    for (Instruction &i : *bb)
      order.push_back(&i);
  for (Instruction *i : order) {
    if (auto *ret = dyn_cast<ReturnInst>(i))
      returns_.push_back(ret);
    if (isa<PHINode>(i))
      continue;
    if (!i->isTerminator())
      b_.SetInsertPoint(i->getNextNode());
    else
      b_.SetInsertPoint(i);
    b_.SetCurrentDebugLocation(i->getDebugLoc());
    AD_RETURN_IF_ERROR(visit(*i));
  }
  AD_RETURN_IF_ERROR(FillTangentPhis());
  AD_RETURN_IF_ERROR(RewriteReturns());
  for (Instruction *i : unneeded_stores_)
    i->eraseFromParent();
  for (Instruction *i : erase_)
    i->eraseFromParent();
  DropNamesOfUnnamedTangents();
  return absl::OkStatus();
}

/// A tangent is named after its primal (`x'`); the tangent of an unnamed
/// primal would be named `'`, `'1`, ...: names that only cost memory (a
/// symbol-table entry each, millions in a large module), so they go.
void ForwardEmitter::DropNamesOfUnnamedTangents() {
  for (BasicBlock &bb : out_)
    for (Instruction &i : bb)
      if (i.hasName() && i.getName().starts_with("'"))
        i.setName("");
}

absl::Status EmitForwardDerivative(const DiffRequest &r, Function &out,
                                   DerivativeCache &cache) {
  ForwardEmitter e(r, out, cache);
  return e.Run();
}

/// Promotes the copy's promotable stack slots to registers first: -O0 code
/// spills every argument, and through memory a constant pointer would look
/// like it may point to active data.
void ForwardEmitter::PromoteLocals() {
  SmallVector<AllocaInst *, 16> allocas;
  for (Instruction &i : out_.getEntryBlock())
    if (auto *a = dyn_cast<AllocaInst>(&i))
      if (isAllocaPromotable(a))
        allocas.push_back(a);
  if (!allocas.empty()) {
    DominatorTree dt(out_);
    PromoteMemToReg(allocas, dt);
  }
  // Floats read back from the integers they were packed into (a `{float;
  // int}` returned in an i64 by an inlined callee) are the floats.
  FoldFloatPacking(out_);
  PutAddressesInBase(out_);
}

/// An add, subtract or or: a step of address arithmetic on integers.
static bool IsAddressStep(const Value *v) {
  const auto *bo = dyn_cast<BinaryOperator>(v);
  return bo && (bo->getOpcode() == Instruction::Add ||
                bo->getOpcode() == Instruction::Sub ||
                bo->getOpcode() == Instruction::Or);
}

/// How many values an address computed on integers is followed through.
static constexpr unsigned kMaxAddressSteps = 2048;

/// Whether integer `v` becomes a pointer (`inttoptr`), directly or after
/// address steps and phis.
static bool UsedAsAddress(Value *v) {
  SmallPtrSet<Value *, 16> seen;
  SmallVector<Value *, 16> work = {v};
  while (!work.empty()) {
    Value *x = work.pop_back_val();
    if (!seen.insert(x).second || seen.size() > kMaxAddressSteps)
      continue;
    for (User *u : x->users()) {
      if (isa<IntToPtrInst>(u))
        return true;
      if (isa<PHINode>(u) || IsAddressStep(u))
        work.push_back(u);
    }
  }
  return false;
}

void ForwardEmitter::CreateTangentPhis() {
  for (BasicBlock &bb : out_) {
    SmallVector<PHINode *, 4> primals;
    for (PHINode &p : bb.phis())
      primals.push_back(&p);
    for (PHINode *p : primals) {
      // Integer phis (and aggregates of integers, such as a cmpxchg's
      // {i64, i1} carried around a loop) get tangents only when active:
      // they then carry raw bits of active memory (a double moved as i64).
      // An integer address of active memory carried around a loop
      // (Numba's strided copy walks `inttoptr(addr)`, `addr += stride`)
      // gets the shadow's address the same way.
      bool address = p->getType()->isIntegerTy() && CarriesActiveAddress(p) &&
                     UsedAsAddress(p);
      if ((!Active(p) && !address) || p->getType()->isTokenTy())
        continue;
      if (address)
        address_ints_.insert(p);
      Lanes lanes;
      for (unsigned k = 0; k < width_; ++k)
        lanes.push_back(PHINode::Create(p->getType(), p->getNumIncomingValues(),
                                        p->getName() + "'",
                                        bb.getFirstNonPHIIt()));
      SetT(p, lanes);
      phis_.push_back({p, lanes});
    }
  }
}

absl::Status ForwardEmitter::FillTangentPhis() {
  for (auto &[p, lanes] : phis_) {
    // An address phi whose incoming address has no shadow address (an
    // offset that is itself active, say) would walk from address 0.
    if (address_ints_.count(p))
      for (Value *in : p->incoming_values())
        if (!HasT(in) && !isa<UndefValue>(in))
          return ErrorAt(absl::StatusCode::kUnimplemented, *p,
                         "an address of active memory computed on integers "
                         "around a loop whose shadow address forward mode "
                         "cannot follow");
    for (unsigned k = 0; k < width_; ++k) {
      auto *tp = cast<PHINode>(lanes[k]);
      for (unsigned j = 0; j < p->getNumIncomingValues(); ++j)
        tp->addIncoming(TOrZero(p->getIncomingValue(j), k),
                        p->getIncomingBlock(j));
    }
  }
  return absl::OkStatus();
}

/// Whether integer `v` holds an address of active memory: a `ptrtoint` of
/// an active pointer, plus, minus or or-ed with offsets, through phis.
bool ForwardEmitter::CarriesActiveAddress(Value *v) {
  SmallPtrSet<Value *, 16> seen;
  SmallVector<Value *, 16> work = {v};
  while (!work.empty()) {
    Value *x = work.pop_back_val();
    // (Chains of hundreds of address steps are common: Numba's loops
    // unrolled 64 times step the address by an add per element.)
    if (isa<Constant>(x) || !seen.insert(x).second ||
        seen.size() > kMaxAddressSteps)
      continue;
    if (auto *p2i = dyn_cast<PtrToIntInst>(x)) {
      if (Active(p2i->getOperand(0)))
        return true;
    } else if (auto *phi = dyn_cast<PHINode>(x)) {
      work.append(phi->value_op_begin(), phi->value_op_end());
    } else if (IsAddressStep(x)) {
      auto *bo = cast<BinaryOperator>(x);
      // The address on the left (either side of an add); the difference of
      // two addresses is a length, not an address.
      if (bo->getOpcode() != Instruction::Sub ||
          !isa<PtrToIntInst>(bo->getOperand(1)))
        work.push_back(bo->getOperand(0));
      if (bo->getOpcode() == Instruction::Add)
        work.push_back(bo->getOperand(1));
    }
  }
  return false;
}

absl::Status ForwardEmitter::RewriteReturns() {
  Type *rt = out_.getReturnType();
  for (ReturnInst *ret : returns_) {
    b_.SetInsertPoint(ret);
    Value *v = ret->getReturnValue();
    // Integer bits returned with their tangent: the caller may read them
    // as a float, so every float they have bytes of must be whole. (With
    // one return the caller follows the bytes itself: FloatBytes.h.)
    if (req_.return_tangent && v && v->getType()->isIntOrIntVectorTy() &&
        HasT(v) && returns_.size() > 1)
      AD_RETURN_IF_ERROR(CheckWholeFloatBytes(*ret, v, nullptr));
    SmallVector<Value *, 5> leaves;
    if (req_.return_primal)
      leaves.push_back(v);
    if (req_.return_tangent)
      for (unsigned k = 0; k < width_; ++k)
        leaves.push_back(TOrZero(v, k));
    if (leaves.empty()) {
      b_.CreateRetVoid();
    } else if (leaves.size() == 1) {
      b_.CreateRet(leaves[0]);
    } else {
      Value *agg = PoisonValue::get(rt);
      for (unsigned j = 0; j < leaves.size(); ++j)
        agg = b_.CreateInsertValue(agg, leaves[j], {j});
      b_.CreateRet(agg);
    }
    ret->eraseFromParent();
  }
  return absl::OkStatus();
}

/// With `enzyme_dupnoneed` the primal memory of that argument is not needed
/// afterwards: its stores are dropped when nothing in the function reads
/// that memory back.
void ForwardEmitter::FindUnneededPrimalStores() {
  for (Argument &a : req_.fn->args()) {
    if (req_.args[a.getArgNo()] != ArgActivity::DupNoNeed ||
        !a.getType()->isPointerTy())
      continue;
    // The derivative's primal argument for `a`.
    unsigned pos = 0;
    for (unsigned i = 0; i < a.getArgNo(); ++i)
      pos += 1 + (req_.IsActive(i) ? width_ : 0);
    Argument *primal = out_.getArg(pos);
    SmallVector<Instruction *, 8> stores;
    SmallVector<Value *, 8> work = {primal};
    SmallPtrSet<Value *, 16> seen;
    bool readsBack = false;
    while (!work.empty() && !readsBack) {
      Value *v = work.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      for (User *u : v->users()) {
        auto *i = dyn_cast<Instruction>(u);
        if (!i)
          continue;
        if (auto *st = dyn_cast<StoreInst>(i)) {
          if (st->getPointerOperand() == v && !st->isVolatile() &&
              st->isSimple())
            stores.push_back(st);
          else
            readsBack = true; // The pointer itself escapes.
        } else if (isa<GetElementPtrInst>(i) || isa<CastInst>(i) ||
                   isa<PHINode>(i) || isa<SelectInst>(i)) {
          work.push_back(i);
        } else {
          readsBack = true; // Loads, calls, comparisons...
        }
      }
    }
    if (!readsBack)
      for (Instruction *st : stores)
        unneeded_stores_.insert(st);
  }
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

absl::Status ForwardEmitter::visitInstruction(Instruction &i) {
  // Any operand with a tangent or a shadow (raw bits of active memory
  // moved as integers included), or an active result: the derivative
  // would be lost by copying the instruction.
  bool anyActive = Active(&i) && !i.getType()->isVoidTy();
  for (Value *op : i.operands())
    anyActive |= HasT(op);
  if (!anyActive)
    return absl::OkStatus();
  return ErrorAt(absl::StatusCode::kUnimplemented, i,
                 std::string("no derivative rule for instruction `") +
                     i.getOpcodeName() +
                     "`; if it cannot affect the derivative, move it into a "
                     "function marked inactive (\"enzyme_inactive\" or "
                     "__enzyme_inactivefn)");
}

absl::Status ForwardEmitter::visitAllocaInst(AllocaInst &i) {
  if (!Active(&i))
    return absl::OkStatus();
  const DataLayout &dl = out_.getDataLayout();
  Lanes lanes;
  Value *bytes =
      b_.CreateMul(b_.CreateZExtOrTrunc(i.getArraySize(), b_.getInt64Ty()),
                   b_.getInt64(dl.getTypeAllocSize(i.getAllocatedType())));
  for (unsigned k = 0; k < width_; ++k) {
    AllocaInst *s = b_.CreateAlloca(i.getAllocatedType(), i.getAddressSpace(),
                                    i.getArraySize(), i.getName() + "'ipa");
    s->setAlignment(i.getAlign());
    b_.CreateMemSet(s, b_.getInt8(0), bytes, i.getAlign());
    lanes.push_back(s);
  }
  SetT(&i, lanes);
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitGetElementPtrInst(GetElementPtrInst &i) {
  Value *base = i.getPointerOperand();
  if (!HasT(base))
    return absl::OkStatus();
  SmallVector<Value *, 4> idx(i.indices());
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    Value *sp = T(base, k);
    if (!sp && base->getType()->isVectorTy())
      sp = Constant::getNullValue(base->getType());
    lanes.push_back(sp ? b_.CreateGEP(i.getSourceElementType(), sp, idx,
                                      i.getName() + "'", i.getNoWrapFlags())
                       : nullptr);
  }
  SetT(&i, lanes);
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitCastInst(CastInst &i) {
  Value *op = i.getOperand(0);
  switch (i.getOpcode()) {
  case Instruction::FPExt:
  case Instruction::FPTrunc:
  case Instruction::BitCast:
  case Instruction::AddrSpaceCast:
  case Instruction::PtrToInt:
  case Instruction::IntToPtr:
    break;
  case Instruction::Trunc:
  case Instruction::ZExt:
  case Instruction::SExt:
    // Integer casts carry no derivative, unless they move the bytes of an
    // active float (ForwardRawBits.cpp).
    return VisitIntegerBits(i);
  case Instruction::SIToFP:
  case Instruction::UIToFP:
    return CheckNotFloatBits(i);
  default:
    // fp->int conversions carry no derivative.
    return absl::OkStatus();
  }
  if (!HasT(op)) {
    // Integer bits read from active memory that no analysis knew as a
    // float's become a float here: their tangent was not carried.
    if (i.getOpcode() == Instruction::BitCast &&
        i.getType()->isFPOrFPVectorTy() && FromUntrackedActiveBits(op, 0))
      return ErrorAt(absl::StatusCode::kUnimplemented, i,
                     "integer bits read from active memory, which nothing "
                     "in this function or its caller uses as "
                     "floating-point data, are read as a floating-point "
                     "value here; their tangent was not carried (pass the "
                     "memory as a floating-point type, or read it as one)");
    return absl::OkStatus();
  }
  if (i.getOpcode() == Instruction::BitCast &&
      op->getType()->isIntOrIntVectorTy() && i.getType()->isFPOrFPVectorTy())
    AD_RETURN_IF_ERROR(CheckWholeFloatBytes(i, op, i.getType()));
  SetLanes(&i, [&](unsigned k) {
    return b_.CreateCast(i.getOpcode(), TOrZero(op, k), i.getType(),
                         i.getName() + "'");
  });
  return absl::OkStatus();
}

/// Floating-point arithmetic and known math calls go through the rule table.
absl::Status ForwardEmitter::ApplyRule(Instruction &i, ArrayRef<Value *> ops) {
  const DerivativeRule *rule = FindRule(i);
  if (!rule)
    return ErrorAt(absl::StatusCode::kUnimplemented, i,
                   std::string("no derivative rule for `") + i.getOpcodeName() +
                       "`");
  bool any = false;
  for (Value *op : ops)
    any |= HasT(op);
  if (!any)
    return absl::OkStatus();
  // The tangent inherits the primal's fast-math flags, with those asked for
  // derivatives.
  IRBuilder<>::FastMathFlagGuard guard(b_);
  if (isa<FPMathOperator>(i))
    b_.setFastMathFlags(i.getFastMathFlags() | cache_.derivative_fmf());
  Lanes lanes;
  for (unsigned k = 0; k < width_; ++k) {
    SmallVector<Value *, 3> tans;
    for (Value *op : ops)
      tans.push_back(T(op, k));
    lanes.push_back(EmitTangent(b_, *rule, ops, &i, tans));
  }
  SetT(&i, lanes);
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitUnaryOperator(UnaryOperator &i) {
  if (!i.getType()->isFPOrFPVectorTy() || !Active(&i))
    return absl::OkStatus();
  SmallVector<Value *, 2> ops(i.operands());
  return ApplyRule(i, ops);
}

absl::Status ForwardEmitter::visitBinaryOperator(BinaryOperator &i) {
  if (i.getType()->isIntOrIntVectorTy())
    return VisitIntegerBits(i);
  if (!i.getType()->isFPOrFPVectorTy() || !Active(&i))
    return absl::OkStatus();
  SmallVector<Value *, 2> ops(i.operands());
  return ApplyRule(i, ops);
}

absl::Status ForwardEmitter::visitSelectInst(SelectInst &i) {
  Value *a = i.getTrueValue(), *c = i.getFalseValue();
  if (!(HasT(a) || HasT(c)) || !Active(&i))
    return absl::OkStatus();
  SetLanes(&i, [&](unsigned k) {
    Value *ta = TOrZero(a, k);
    Value *tc = TOrZero(c, k);
    return b_.CreateSelect(i.getCondition(), ta, tc, i.getName() + "'");
  });
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitExtractValueInst(ExtractValueInst &i) {
  Value *agg = i.getAggregateOperand();
  if (!HasT(agg) || !Active(&i))
    return absl::OkStatus();
  SetLanes(&i, [&](unsigned k) {
    return b_.CreateExtractValue(TOrZero(agg, k), i.getIndices(),
                                 i.getName() + "'");
  });
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitInsertValueInst(InsertValueInst &i) {
  Value *agg = i.getAggregateOperand(), *val = i.getInsertedValueOperand();
  if (!(HasT(agg) || HasT(val)) || !Active(&i))
    return absl::OkStatus();
  SetLanes(&i, [&](unsigned k) {
    Value *tagg = TOrZero(agg, k);
    Value *tval = TOrZero(val, k);
    return b_.CreateInsertValue(tagg, tval, i.getIndices(), i.getName() + "'");
  });
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitExtractElementInst(ExtractElementInst &i) {
  Value *vec = i.getVectorOperand();
  if (!HasT(vec) || !Active(&i))
    return absl::OkStatus();
  SetLanes(&i, [&](unsigned k) {
    return b_.CreateExtractElement(TOrZero(vec, k), i.getIndexOperand(),
                                   i.getName() + "'");
  });
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitInsertElementInst(InsertElementInst &i) {
  Value *vec = i.getOperand(0), *elt = i.getOperand(1);
  if (!(HasT(vec) || HasT(elt)) || !Active(&i))
    return absl::OkStatus();
  SetLanes(&i, [&](unsigned k) {
    Value *tvec = TOrZero(vec, k);
    Value *telt = TOrZero(elt, k);
    return b_.CreateInsertElement(tvec, telt, i.getOperand(2),
                                  i.getName() + "'");
  });
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitShuffleVectorInst(ShuffleVectorInst &i) {
  Value *a = i.getOperand(0), *c = i.getOperand(1);
  if (!(HasT(a) || HasT(c)) || !Active(&i))
    return absl::OkStatus();
  SetLanes(&i, [&](unsigned k) {
    Value *ta = TOrZero(a, k);
    Value *tc = TOrZero(c, k);
    return b_.CreateShuffleVector(ta, tc, i.getShuffleMask(),
                                  i.getName() + "'");
  });
  return absl::OkStatus();
}

absl::Status ForwardEmitter::visitFreezeInst(FreezeInst &i) {
  Value *op = i.getOperand(0);
  if (!HasT(op))
    return absl::OkStatus();
  SetLanes(&i, [&](unsigned k) { return T(op, k); });
  return absl::OkStatus();
}

} // namespace autodiff
