//===- enzyme_bridge/GpuKernels.cpp - What GPU device code needs ----------===//
//
// See GpuKernels.h.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/GpuKernels.h"

#include "enzyme_bridge/Diagnostics.h"
#include "enzyme_bridge/GpuSharedAccesses.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/PatternMatch.h"

#include <string>

namespace autodiff {

using namespace llvm;
using namespace llvm::PatternMatch;

bool IsIntrinsic(const Value *v, Intrinsic::ID id) {
  const auto *ii = dyn_cast<IntrinsicInst>(v);
  return ii && ii->getIntrinsicID() == id;
}

const Value *StripExtensions(const Value *v) {
  while (isa<ZExtInst>(v) || isa<SExtInst>(v))
    v = cast<Instruction>(v)->getOperand(0);
  return v;
}

bool IsThreadIndex(const Value *v) {
  return IsIntrinsic(StripExtensions(v), Intrinsic::nvvm_read_ptx_sreg_tid_x);
}

bool IsLaunchIndex(const Value *v) {
  const auto *ii = dyn_cast<IntrinsicInst>(v);
  if (!ii)
    return false;
  switch (ii->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return true;
  default:
    return false;
  }
}

bool IsKernel(const Function &f) {
  return f.getCallingConv() == CallingConv::PTX_Kernel;
}

namespace {

constexpr unsigned kSharedAddressSpace = 3;
constexpr unsigned kLocalAddressSpace = 5;
constexpr const char *kShadowMark = "autodiff_shared_shadow";

bool HoldsFloatData(Type *t) {
  if (t->isFPOrFPVectorTy())
    return true;
  if (auto *at = dyn_cast<ArrayType>(t))
    return HoldsFloatData(at->getElementType());
  if (auto *st = dyn_cast<StructType>(t))
    for (Type *e : st->elements())
      if (HoldsFloatData(e))
        return true;
  return false;
}


/// blockIdx.x * blockDim.x + threadIdx.x, operands in either order.
bool IsGlobalThreadIndex(const Value *v) {
  const Value *a = nullptr, *b = nullptr;
  if (!match(StripExtensions(v), m_Add(m_Value(a), m_Value(b))))
    return false;
  auto isBlockOffset = [](const Value *x) {
    const Value *p = nullptr, *q = nullptr;
    if (!match(x, m_Mul(m_Value(p), m_Value(q))))
      return false;
    return (IsIntrinsic(p, Intrinsic::nvvm_read_ptx_sreg_ctaid_x) &&
            IsIntrinsic(q, Intrinsic::nvvm_read_ptx_sreg_ntid_x)) ||
           (IsIntrinsic(q, Intrinsic::nvvm_read_ptx_sreg_ctaid_x) &&
            IsIntrinsic(p, Intrinsic::nvvm_read_ptx_sreg_ntid_x));
  };
  return (IsThreadIndex(a) && isBlockOffset(b)) ||
         (IsThreadIndex(b) && isBlockOffset(a));
}

bool IsUniform(const Value *v, unsigned depth);

/// Whether every call of `f` passes a value the same in all threads as
/// argument `arg_no` (any pointer operand, for requests naming `f`).
bool UniformAtCalls(const Function &f, int arg_no, unsigned depth) {
  for (const Use &u : f.uses()) {
    const auto *call = dyn_cast<CallBase>(u.getUser());
    if (!call)
      return false;
    if (call->isCallee(&u)) {
      if (arg_no >= 0 &&
          !IsUniform(call->getArgOperand(arg_no), depth + 1))
        return false;
      if (arg_no < 0)
        for (const Value *a : call->args())
          if (a->getType()->isPointerTy() && !IsUniform(a, depth + 1))
            return false;
      continue;
    }
    // A request: `f` is an operand; every pointer it passes must be uniform.
    for (const Value *a : call->args())
      if (a->getType()->isPointerTy() && a != &f &&
          !IsUniform(a, depth + 1))
        return false;
  }
  return true;
}

/// A value every thread of the launch computes the same: constants and
/// globals, kernel parameters, and arithmetic of those.
bool IsUniform(const Value *v, unsigned depth) {
  if (depth > 6)
    return false;
  if (isa<Constant>(v))
    return true;
  if (const auto *a = dyn_cast<Argument>(v)) {
    const Function &f = *a->getParent();
    return IsKernel(f) ||
           UniformAtCalls(f, static_cast<int>(a->getArgNo()), depth);
  }
  const auto *i = dyn_cast<Instruction>(v);
  if (!i || isa<LoadInst>(i) || isa<CallBase>(i) || isa<PHINode>(i) ||
      i->mayReadOrWriteMemory())
    return false;
  for (const Value *op : i->operands())
    if (!IsUniform(op, depth + 1))
      return false;
  return true;
}

/// The accesses through `base` (and its no-offset casts) when each indexes
/// it with the thread's own index (`index_ok`) in one element type; empty
/// when any use is something else.
SmallVector<const Instruction *, 8>
IndexedAccesses(const Value &base, bool (*index_ok)(const Value *),
                const Function &in) {
  SmallVector<const Instruction *, 8> accesses;
  SmallVector<const Value *, 8> work = {&base};
  Type *element = nullptr, *accessed = nullptr;
  auto sameType = [](Type *&slot, Type *t) {
    if (!slot)
      slot = t;
    return slot == t;
  };
  while (!work.empty()) {
    const Value *p = work.pop_back_val();
    for (const User *u : p->users()) {
      const auto *ui = dyn_cast<Instruction>(u);
      if (!ui)
        return {}; // A constant expression: not followed.
      if (ui->getFunction() != &in)
        continue; // Another function's use (the primal's, for a global).
      if (isa<AddrSpaceCastInst>(u) || isa<BitCastInst>(u)) {
        work.push_back(u);
        continue;
      }
      // One index, or an array's zero then one.
      const auto *gep = dyn_cast<GetElementPtrInst>(u);
      if (!gep || gep->getPointerOperand() != p)
        return {};
      const Value *index = gep->getOperand(gep->getNumIndices());
      bool shapeOk =
          gep->getNumIndices() == 1 ||
          (gep->getNumIndices() == 2 && match(gep->getOperand(1), m_Zero()) &&
           isa<ArrayType>(gep->getSourceElementType()));
      if (!shapeOk || !index_ok(index) ||
          !sameType(element, gep->getSourceElementType()))
        return {};
      for (const User *access : gep->users()) {
        Type *t = nullptr;
        if (const auto *ld = dyn_cast<LoadInst>(access))
          t = ld->getType();
        else if (const auto *st = dyn_cast<StoreInst>(access);
                 st && st->getPointerOperand() == gep)
          t = st->getValueOperand()->getType();
        else if (const auto *rmw = dyn_cast<AtomicRMWInst>(access);
                 rmw && rmw->getPointerOperand() == gep)
          t = rmw->getType();
        if (!t || !sameType(accessed, t))
          return {};
        accesses.push_back(cast<Instruction>(access));
      }
    }
  }
  return accesses;
}

} // namespace

void RegisterSharedMemoryShadows(Module &m) {
  if (!IsGpuModule(m))
    return;
  SmallVector<GlobalVariable *, 4> shared;
  for (GlobalVariable &g : m.globals())
    if (g.getAddressSpace() == kSharedAddressSpace && !g.isConstant() &&
        !g.getMetadata("enzyme_shadow") && !g.getMetadata(kShadowMark) &&
        HoldsFloatData(g.getValueType()))
      shared.push_back(&g);
  LLVMContext &c = m.getContext();
  for (GlobalVariable *g : shared) {
    auto *shadow = new GlobalVariable(
        m, g->getValueType(), /*isConstant=*/false,
        GlobalValue::InternalLinkage, UndefValue::get(g->getValueType()),
        g->getName() + "_shadow", nullptr, GlobalValue::NotThreadLocal,
        kSharedAddressSpace);
    shadow->setAlignment(g->getAlign());
    shadow->setMetadata(kShadowMark, MDNode::get(c, {}));
    g->setMetadata("enzyme_shadow",
                   MDNode::get(c, {ConstantAsMetadata::get(shadow)}));
  }
}

bool IsSharedMemoryShadow(const Value &g) {
  const auto *gv = dyn_cast<GlobalVariable>(&g);
  return gv && gv->getMetadata(kShadowMark);
}

bool IsBarrierCall(const CallBase &call) {
  const Function *f = call.getCalledFunction();
  if (!f)
    return false;
  StringRef name = f->getName();
  return name.starts_with("llvm.nvvm.barrier.cta.sync") ||
         name.starts_with("llvm.nvvm.barrier0") ||
         name.starts_with("llvm.nvvm.barrier.sync") ||
         name.starts_with("llvm.nvvm.bar.sync") ||
         name.starts_with("llvm.nvvm.bar.warp.sync"); // __syncwarp
}

bool IsThreadLocalMemory(const Value *ptr) {
  const Value *obj = getUnderlyingObject(ptr);
  if (isa<AllocaInst>(obj))
    return true;
  auto *pt = dyn_cast<PointerType>(obj->getType());
  return pt && pt->getAddressSpace() == kLocalAddressSpace;
}

bool IsSharedMemory(const Value *ptr) {
  const auto *g = dyn_cast<GlobalVariable>(getUnderlyingObject(ptr));
  return g && g->getAddressSpace() == kSharedAddressSpace;
}

SmallPtrSet<const Instruction *, 16>
FindThreadPrivateAccesses(Function &copy, const Function &primal) {
  SmallPtrSet<const Instruction *, 16> out;
  if (!IsGpuModule(*copy.getParent()))
    return out;
  // Pointer arguments: each thread indexes them by its global index, and
  // the pointer is the same in all threads. Two such arguments could
  // overlap (f(x, x + 1)): only a `noalias` one, or the only one read, is
  // trusted.
  if (UniformAtCalls(primal, -1, 0)) {
    SmallVector<std::pair<const Argument *, SmallVector<const Instruction *, 8>>,
                4>
        found;
    unsigned read = 0;
    for (Argument &a : copy.args()) {
      if (!a.getType()->isPointerTy())
        continue;
      auto accesses = IndexedAccesses(a, IsGlobalThreadIndex, copy);
      if (accesses.empty())
        continue;
      if (any_of(accesses, [](const Instruction *i) {
            return !isa<StoreInst>(i);
          }))
        ++read;
      found.push_back({&a, std::move(accesses)});
    }
    for (auto &[arg, accesses] : found)
      if (arg->hasNoAliasAttr() || read <= 1)
        out.insert(accesses.begin(), accesses.end());
  }
  // Shared memory, per block and phase (GpuSharedAccesses.h).
  AddPrivateSharedAccesses(copy, out);
  return out;
}

bool IsLaunchUniform(const Value *v) { return IsUniform(v, 0); }

Value *EmitOneDimensionalLaunch(IRBuilderBase &b, bool block_only) {
  Module &m = *b.GetInsertBlock()->getModule();
  Value *product = nullptr;
  SmallVector<Intrinsic::ID, 4> dims = {Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                                        Intrinsic::nvvm_read_ptx_sreg_ntid_z};
  if (!block_only)
    dims.append({Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                 Intrinsic::nvvm_read_ptx_sreg_nctaid_z});
  for (Intrinsic::ID id : dims) {
    Value *v = b.CreateCall(Intrinsic::getOrInsertDeclaration(&m, id), {});
    product = product ? b.CreateOr(product, b.CreateSub(v, b.getInt32(1)))
                      : b.CreateSub(v, b.getInt32(1));
  }
  return b.CreateICmpEQ(product, b.getInt32(0), "one.dimensional");
}

/// `void NAME_zero()`: the block's threads zero the shadow's words in turn,
/// then meet at a barrier.
static Function *ZeroFunction(GlobalVariable &g) {
  Module &m = *g.getParent();
  std::string name = (g.getName() + "_zero").str();
  if (Function *f = m.getFunction(name))
    return f;
  LLVMContext &c = m.getContext();
  auto *f = Function::Create(FunctionType::get(Type::getVoidTy(c), false),
                             GlobalValue::InternalLinkage, name, &m);
  f->addFnAttr(Attribute::Convergent);
  auto *entry = BasicBlock::Create(c, "entry", f);
  auto *loop = BasicBlock::Create(c, "loop", f);
  auto *body = BasicBlock::Create(c, "body", f);
  auto *done = BasicBlock::Create(c, "done", f);
  IRBuilder<> b(entry);
  auto sreg = [&](Intrinsic::ID id) -> Value * {
    return b.CreateCall(Intrinsic::getOrInsertDeclaration(&m, id), {});
  };
  Value *tx = sreg(Intrinsic::nvvm_read_ptx_sreg_tid_x);
  Value *ty = sreg(Intrinsic::nvvm_read_ptx_sreg_tid_y);
  Value *tz = sreg(Intrinsic::nvvm_read_ptx_sreg_tid_z);
  Value *nx = sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  Value *ny = sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_y);
  Value *nz = sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_z);
  Value *inner = b.CreateAdd(ty, b.CreateMul(ny, tz));
  Value *linear = b.CreateAdd(tx, b.CreateMul(nx, inner));
  Value *threads = b.CreateMul(nx, b.CreateMul(ny, nz));
  const DataLayout &dl = m.getDataLayout();
  uint64_t bytes = dl.getTypeAllocSize(g.getValueType());
  uint64_t align = g.getAlign() ? g.getAlign()->value() : 1;
  unsigned word = (bytes % 8 == 0 && align >= 8)   ? 8
                  : (bytes % 4 == 0 && align >= 4) ? 4
                                                   : 1;
  Type *wordTy = b.getIntNTy(8 * word);
  Value *count = b.getInt32(static_cast<uint32_t>(bytes / word));
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  PHINode *k = b.CreatePHI(b.getInt32Ty(), 2, "k");
  k->addIncoming(linear, entry);
  b.CreateCondBr(b.CreateICmpULT(k, count), body, done);
  b.SetInsertPoint(body);
  Value *at = b.CreateGEP(wordTy, &g, b.CreateZExt(k, b.getInt64Ty()));
  b.CreateAlignedStore(ConstantInt::get(wordTy, 0), at, Align(word));
  Value *next = b.CreateAdd(k, threads);
  k->addIncoming(next, body);
  b.CreateBr(loop);
  b.SetInsertPoint(done);
  b.CreateCall(Intrinsic::getOrInsertDeclaration(
                   &m, Intrinsic::nvvm_barrier_cta_sync_aligned_all),
               {b.getInt32(0)});
  b.CreateRetVoid();
  return f;
}

void EmitZeroSharedShadow(IRBuilderBase &b, Value &g) {
  b.CreateCall(ZeroFunction(cast<GlobalVariable>(g)), {});
}

std::string UnsupportedGpuCall(const CallBase &call) {
  // Cooperative groups' grid-wide sync is inline assembly: atomics on the
  // grid workspace that the cooperative launch passes in %envreg1/2.
  if (const auto *asmCall = dyn_cast<InlineAsm>(call.getCalledOperand()))
    return StringRef(asmCall->getAsmString()).contains("%envreg")
               ? "cooperative groups' grid-wide synchronization (inline "
                 "assembly on the cooperative launch's grid workspace, "
                 "%envreg) is not supported: the reverse sweep would need "
                 "its own grid-wide sync"
               : "";
  const Function *f = call.getCalledFunction();
  if (!f)
    return "";
  StringRef name = f->getName();
  if (name.starts_with("llvm.nvvm.shfl.") ||
      name.starts_with("llvm.nvvm.redux.sync.f") ||
      name.starts_with("llvm.nvvm.match."))
    return "a warp shuffle or reduction of floating-point data (`" +
           name.str() +
           "`) has no derivative rule yet; exchange the values through "
           "shared memory and __syncthreads instead";
  // cudaLaunchDevice(V2), cudaGetParameterBuffer(V2), and clang's
  // __cudaCDP2LaunchDevice / __cudaCDP2GetParameterBuffer.
  if (name.contains("LaunchDevice") || name.contains("GetParameterBuffer"))
    return "dynamic parallelism (a kernel launched from device code, `" +
           name.str() + "`) is not supported";
  if (name.contains("cg_grid_sync") || name.contains("grid_sync") ||
      name.contains("cooperative_groups"))
    return "cooperative groups' grid-wide synchronization (`" + name.str() +
           "`) is not supported";
  return "";
}

/// Whether `v` holds floating-point bits: a float, or an integer made from
/// one by casts and bit operations.
static bool CarriesFloatBits(const Value *v, unsigned depth = 0) {
  if (v->getType()->isFPOrFPVectorTy())
    return true;
  const auto *i = dyn_cast<Instruction>(v);
  if (!i || depth > 8)
    return false;
  // clang loads a double it shuffles as an i64 from its double address.
  if (const auto *ld = dyn_cast<LoadInst>(i)) {
    const auto *gep = dyn_cast<GEPOperator>(ld->getPointerOperand());
    return gep && gep->getSourceElementType()->isFPOrFPVectorTy();
  }
  if (!isa<CastInst>(i) && !isa<BinaryOperator>(i) &&
      !isa<ExtractElementInst>(i) && !isa<InsertElementInst>(i) &&
      !isa<ShuffleVectorInst>(i) && !isa<ExtractValueInst>(i))
    return false;
  for (const Value *op : i->operands())
    if (CarriesFloatBits(op, depth + 1))
      return true;
  return false;
}

/// A shared-memory array whose size the launch decides (`extern
/// __shared__ double buf[]`): a declaration, or of size zero.
static bool IsDynamicSharedFloats(const Value *v) {
  const auto *g = dyn_cast<GlobalVariable>(v);
  return g && g->getAddressSpace() == kSharedAddressSpace &&
         HoldsFloatData(g->getValueType()) &&
         (g->isDeclaration() ||
          g->getParent()->getDataLayout().getTypeAllocSize(g->getValueType()) ==
              0);
}

absl::Status CheckGpuCalls(Function &f, bool reverse) {
  if (!IsGpuModule(*f.getParent()))
    return absl::OkStatus();
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      for (const Value *op : i.operands()) {
        const Value *obj =
            op->getType()->isPointerTy() ? getUnderlyingObject(op) : nullptr;
        if (obj && IsDynamicSharedFloats(obj)) {
          std::string name;
          raw_string_ostream os(name);
          obj->printAsOperand(os, /*PrintType=*/false);
          return ErrorAt(
              absl::StatusCode::kUnimplemented, i,
              "dynamic shared memory (`extern __shared__` array " + name +
                  ") holding floating-point data is not supported: its "
                  "shadow would need shared memory the launch does not "
                  "provide; use a `__shared__` array of fixed size");
        }
      }
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      auto *call = dyn_cast<CallBase>(&i);
      if (!call)
        continue;
      std::string why = UnsupportedGpuCall(*call);
      if (why.empty())
        continue;
      // Forward mode computes tangents beside the primal: a grid-wide sync
      // synchronizes both.
      if (!reverse && StringRef(why).starts_with("cooperative"))
        continue;
      bool data = StringRef(why).starts_with("a warp");
      if (data && none_of(call->args(), [](const Value *a) {
            return CarriesFloatBits(a);
          }))
        continue; // Integers only (indices, masks): nothing to differentiate.
      return ErrorAt(absl::StatusCode::kUnimplemented, *call, why);
    }
  return absl::OkStatus();
}

} // namespace autodiff
