//===- enzyme_bridge/RuleEmitter.cpp - Emit and evaluate derivative rules -===//
//
// Finds the rule of an instruction, turns rule expressions into IR (one
// recursive emitter for both modes, folding the trivial multiplications and
// additions) and evaluates them on doubles for tests.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/RuleExpr.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

#include <cassert>
#include <cmath>
#include <math.h>
#include <limits>
#include <utility>

namespace autodiff {

using llvm::ArrayRef;
using llvm::StringRef;
using llvm::Type;
using llvm::Value;

namespace {

//===----------------------------------------------------------------------===//
// The math functions that Call nodes may name
//===----------------------------------------------------------------------===//

/// A function a Call node names: its arity, the intrinsic that computes it
/// on any floating-point type (or not_intrinsic: call libm), and its double
/// implementation for EvaluatePartial.
struct MathFunction {
  const char *name;
  unsigned arity;
  llvm::Intrinsic::ID intrinsic;
  double (*eval1)(double);
  double (*eval2)(double, double);
};

#define UNARY(NAME, ID, EXPR)                                                  \
  MathFunction {                                                               \
    NAME, 1, ID, [](double x) -> double { return EXPR; }, nullptr              \
  }
#define BINARY(NAME, ID, EXPR)                                                 \
  MathFunction {                                                               \
    NAME, 2, ID, nullptr, [](double x, double y) -> double { return EXPR; }    \
  }

const MathFunction kMathFunctions[] = {
    UNARY("sqrt", llvm::Intrinsic::sqrt, std::sqrt(x)),
    UNARY("cbrt", llvm::Intrinsic::not_intrinsic, std::cbrt(x)),
    BINARY("pow", llvm::Intrinsic::pow, std::pow(x, y)),
    BINARY("hypot", llvm::Intrinsic::not_intrinsic, std::hypot(x, y)),
    UNARY("exp", llvm::Intrinsic::exp, std::exp(x)),
    UNARY("exp2", llvm::Intrinsic::exp2, std::exp2(x)),
    UNARY("exp10", llvm::Intrinsic::exp10, std::pow(10.0, x)),
    UNARY("expm1", llvm::Intrinsic::not_intrinsic, std::expm1(x)),
    UNARY("log", llvm::Intrinsic::log, std::log(x)),
    UNARY("log2", llvm::Intrinsic::log2, std::log2(x)),
    UNARY("log10", llvm::Intrinsic::log10, std::log10(x)),
    UNARY("log1p", llvm::Intrinsic::not_intrinsic, std::log1p(x)),
    UNARY("sin", llvm::Intrinsic::sin, std::sin(x)),
    UNARY("cos", llvm::Intrinsic::cos, std::cos(x)),
    UNARY("tan", llvm::Intrinsic::tan, std::tan(x)),
    UNARY("asin", llvm::Intrinsic::asin, std::asin(x)),
    UNARY("acos", llvm::Intrinsic::acos, std::acos(x)),
    UNARY("atan", llvm::Intrinsic::atan, std::atan(x)),
    BINARY("atan2", llvm::Intrinsic::atan2, std::atan2(x, y)),
    UNARY("sinh", llvm::Intrinsic::sinh, std::sinh(x)),
    UNARY("cosh", llvm::Intrinsic::cosh, std::cosh(x)),
    UNARY("tanh", llvm::Intrinsic::tanh, std::tanh(x)),
    UNARY("asinh", llvm::Intrinsic::not_intrinsic, std::asinh(x)),
    UNARY("acosh", llvm::Intrinsic::not_intrinsic, std::acosh(x)),
    UNARY("atanh", llvm::Intrinsic::not_intrinsic, std::atanh(x)),
    UNARY("erf", llvm::Intrinsic::not_intrinsic, std::erf(x)),
    UNARY("erfc", llvm::Intrinsic::not_intrinsic, std::erfc(x)),
    UNARY("fabs", llvm::Intrinsic::fabs, std::fabs(x)),
    BINARY("copysign", llvm::Intrinsic::copysign, std::copysign(x, y)),
    BINARY("fmin", llvm::Intrinsic::minnum, std::fmin(x, y)),
    BINARY("fmax", llvm::Intrinsic::maxnum, std::fmax(x, y)),
    UNARY("floor", llvm::Intrinsic::floor, std::floor(x)),
    UNARY("ceil", llvm::Intrinsic::ceil, std::ceil(x)),
    UNARY("trunc", llvm::Intrinsic::trunc, std::trunc(x)),
    UNARY("round", llvm::Intrinsic::round, std::round(x)),
    // The default rounding mode rounds ties to even.
    UNARY("roundeven", llvm::Intrinsic::roundeven, std::nearbyint(x)),
    UNARY("rint", llvm::Intrinsic::rint, std::rint(x)),
    UNARY("nearbyint", llvm::Intrinsic::nearbyint, std::nearbyint(x)),
    BINARY("fmod", llvm::Intrinsic::not_intrinsic, std::fmod(x, y)),
    // Bessel functions (POSIX libm), for each other's derivatives.
    UNARY("j0", llvm::Intrinsic::not_intrinsic, ::j0(x)),
    UNARY("j1", llvm::Intrinsic::not_intrinsic, ::j1(x)),
    UNARY("y0", llvm::Intrinsic::not_intrinsic, ::y0(x)),
    UNARY("y1", llvm::Intrinsic::not_intrinsic, ::y1(x)),
    // Modified Bessel functions of the first kind (libdevice's only).
    UNARY("cyl_bessel_i0", llvm::Intrinsic::not_intrinsic,
          std::cyl_bessel_i(0.0, x)),
    UNARY("cyl_bessel_i1", llvm::Intrinsic::not_intrinsic,
          std::cyl_bessel_i(1.0, x)),
};

#undef UNARY
#undef BINARY

const MathFunction *FindMathFunction(StringRef name) {
  for (const MathFunction &f : kMathFunctions)
    if (name == f.name)
      return &f;
  return nullptr;
}

/// Whether `e` calls a function that has no intrinsic (so needs libm, lane
/// by lane for vectors).
bool NeedsLibmCall(const RuleExpr *e) {
  if (!e)
    return false;
  if (e->kind == RuleExpr::Kind::Call) {
    const MathFunction *f = FindMathFunction(e->callee);
    if (!f || f->intrinsic == llvm::Intrinsic::not_intrinsic)
      return true;
  }
  for (const RuleExpr *arg : e->args)
    if (NeedsLibmCall(arg))
      return true;
  return false;
}

llvm::CmpInst::Predicate ToPredicate(RuleCmp cmp) {
  switch (cmp) {
  case RuleCmp::EQ:
    return llvm::CmpInst::FCMP_OEQ;
  case RuleCmp::NE:
    return llvm::CmpInst::FCMP_ONE;
  case RuleCmp::LT:
    return llvm::CmpInst::FCMP_OLT;
  case RuleCmp::LE:
    return llvm::CmpInst::FCMP_OLE;
  case RuleCmp::GT:
    return llvm::CmpInst::FCMP_OGT;
  case RuleCmp::GE:
    return llvm::CmpInst::FCMP_OGE;
  }
  llvm_unreachable("unknown comparison");
}

//===----------------------------------------------------------------------===//
// IR emission
//===----------------------------------------------------------------------===//

bool IsConstant(Value *v, double k) {
  return llvm::PatternMatch::match(v, llvm::PatternMatch::m_SpecificFP(k));
}
bool IsZero(Value *v) {
  return llvm::PatternMatch::match(v, llvm::PatternMatch::m_AnyZeroFP());
}

/// A product seed * partial, possibly negated; `value` null means zero.
/// A partial that is a quotient stays one until it is materialized:
/// ±(value / denom) * factor, so that terms over one denominator share a
/// single division (fdiv's tangent (ta - tb q) / b; its adjoints a / b and
/// (a / b) q, one division after CSE).
struct Term {
  Value *value = nullptr;
  bool negated = false;
  Value *denom = nullptr;  ///< Divides `value` when set.
  Value *factor = nullptr; ///< Multiplies the quotient when set.
};

/// Emits the expressions of one rule application at the builder's insertion
/// point. Every expression has type `type_` (the result's); sub-expressions
/// shared between partials are emitted once.
class ExprEmitter {
public:
  ExprEmitter(llvm::IRBuilderBase &b, ArrayRef<Value *> operands,
              Value *result)
      : b_(b), operands_(operands), result_(result),
        type_(ExpressionType(operands, result)) {}

  Value *Emit(const RuleExpr &e) {
    auto it = memo_.find(&e);
    if (it != memo_.end())
      return it->second;
    Value *v = EmitUncached(e);
    memo_[&e] = v;
    return v;
  }

  /// seed * partial, with the top of `partial` looked at so that 1, -1, 0,
  /// negations and 1 / y fold (fsub's tangent is ta - tb, fdiv's ta / b ...).
  Term Scale(const RuleExpr &partial, Value *seed) {
    using Kind = RuleExpr::Kind;
    switch (partial.kind) {
    case Kind::Neg: {
      Term t = Scale(*partial.args[0], seed);
      t.negated = !t.negated;
      return t;
    }
    case Kind::Div: {
      Value *denom = Emit(*partial.args[1]);
      if (llvm::isa<llvm::Constant>(denom))
        break; // A constant quotient folds into one factor.
      if (partial.args[0]->kind == Kind::Constant &&
          partial.args[0]->value == 1.0)
        return {seed, false, denom, nullptr};
      if (partial.args[0]->kind == Kind::Constant)
        break;
      Value *num = Emit(*partial.args[0]);
      if (IsZero(num))
        return {};
      return {seed, false, denom, num};
    }
    default:
      break;
    }
    Value *p = Emit(partial);
    if (IsZero(p))
      return {};
    if (IsConstant(p, -1.0))
      return {seed, true};
    return {FMul(seed, p), false};
  }

  /// The value of a term (zero of the expression type when it vanished).
  Value *Materialize(const Term &t) {
    if (!t.value)
      return llvm::Constant::getNullValue(type_);
    Value *v = Unsigned(t);
    return t.negated ? FNeg(v) : v;
  }

  /// The sum of `terms`, skipping zeros and turning negated terms into
  /// subtractions; over one common denominator, one division at the end.
  Value *Sum(ArrayRef<Term> terms) {
    llvm::SmallVector<Term, 3> live;
    for (const Term &t : terms)
      if (t.value)
        live.push_back(t);
    bool common = live.size() > 1 && all_of(live, [&](const Term &t) {
                    return t.denom && t.denom == live[0].denom;
                  });
    llvm::SmallVector<Term, 3> plain;
    for (const Term &t : live) {
      Value *v = t.value;
      if (common)
        v = t.factor ? FMul(v, t.factor) : v;
      else
        v = Unsigned(t);
      plain.push_back({v, t.negated});
    }
    Value *sum = SumPlain(plain);
    return common ? FDiv(sum, live[0].denom) : sum;
  }

private:
  /// A term's magnitude: (value / denom) * factor.
  Value *Unsigned(const Term &t) {
    Value *v = t.value;
    if (t.denom)
      v = FDiv(v, t.denom);
    return t.factor ? FMul(v, t.factor) : v;
  }

  /// The sum of terms without denominators or factors.
  Value *SumPlain(ArrayRef<Term> terms) {
    Term acc;
    for (const Term &t : terms) {
      if (!t.value)
        continue;
      if (!acc.value)
        acc = t;
      else if (acc.negated == t.negated)
        acc.value = FAdd(acc.value, t.value);
      else if (t.negated)
        acc.value = FSub(acc.value, t.value);
      else
        acc = {FSub(t.value, acc.value), false};
    }
    return Materialize(acc);
  }

  static Type *ExpressionType(ArrayRef<Value *> operands, Value *result) {
    if (result)
      return result->getType();
    for (Value *v : operands)
      if (v && v->getType()->isFPOrFPVectorTy())
        return v->getType();
    assert(false && "rule applied without a floating-point value");
    return nullptr;
  }

  Value *EmitUncached(const RuleExpr &e) {
    using Kind = RuleExpr::Kind;
    switch (e.kind) {
    case Kind::Operand:
      assert(e.index < operands_.size() && operands_[e.index] &&
             "rule reads a missing operand");
      return operands_[e.index];
    case Kind::Result:
      assert(result_ && "rule reads the result, which was not given");
      return result_;
    case Kind::Constant:
      return llvm::ConstantFP::get(type_, e.value);
    case Kind::IntToFP:
      return EmitIntToFP(e.index);
    case Kind::Neg:
      return FNeg(Emit(*e.args[0]));
    case Kind::Add:
    case Kind::Sub:
    case Kind::Mul:
    case Kind::Div: {
      // Left before right, for a deterministic instruction order.
      Value *lhs = Emit(*e.args[0]);
      Value *rhs = Emit(*e.args[1]);
      if (e.kind == Kind::Add)
        return FAdd(lhs, rhs);
      if (e.kind == Kind::Sub)
        return FSub(lhs, rhs);
      if (e.kind == Kind::Mul)
        return FMul(lhs, rhs);
      return FDiv(lhs, rhs);
    }
    case Kind::Call: {
      llvm::SmallVector<Value *, 2> args;
      for (const RuleExpr *arg : e.args)
        args.push_back(Emit(*arg));
      return EmitCall(e.callee, args);
    }
    case Kind::Select: {
      Value *lhs = Emit(*e.args[0]);
      Value *rhs = Emit(*e.args[1]);
      Value *cmp = b_.CreateFCmp(ToPredicate(e.cmp), lhs, rhs);
      Value *then = Emit(*e.args[2]);
      Value *otherwise = Emit(*e.args[3]);
      return b_.CreateSelect(cmp, then, otherwise);
    }
    }
    llvm_unreachable("unknown rule expression");
  }

  /// sitofp of an integer operand; a scalar integer is splat when the
  /// expression type is a vector (powi's exponent).
  Value *EmitIntToFP(unsigned index) {
    assert(index < operands_.size() && "rule reads a missing operand");
    Value *v = operands_[index];
    assert(v->getType()->isIntOrIntVectorTy() && "IntToFP of a non-integer");
    auto *vec = llvm::dyn_cast<llvm::VectorType>(type_);
    if (vec && !v->getType()->isVectorTy())
      return b_.CreateVectorSplat(
          vec->getElementCount(),
          b_.CreateSIToFP(v, type_->getScalarType()));
    return b_.CreateSIToFP(v, type_);
  }

  Value *EmitCall(StringRef name, ArrayRef<Value *> args) {
    const MathFunction *f = FindMathFunction(name);
    // A GPU has no libm: what its instructions do not compute comes from
    // libdevice (`__nv_cos`), which the GPU route links after
    // differentiation.
    if (IsGpuModule(*b_.GetInsertBlock()->getModule()) &&
        !GpuHasNativeMath(name))
      return EmitLibmCall(("__nv_" + name).str(), args);
    if (f && f->intrinsic != llvm::Intrinsic::not_intrinsic)
      return b_.CreateIntrinsic(f->intrinsic, {type_}, args);
    return EmitLibmCall(name, args);
  }

  /// Calls libm's `name` with the suffix of the element type, lane by lane
  /// for vectors; half and bfloat are computed in float.
  Value *EmitLibmCall(StringRef name, ArrayRef<Value *> args) {
    auto *vec = llvm::dyn_cast<llvm::FixedVectorType>(type_);
    if (!vec) {
      assert(!type_->isVectorTy() &&
             "libm calls on scalable vectors (FindRule rejects these)");
      return EmitScalarLibmCall(name, args);
    }
    Value *out = llvm::PoisonValue::get(vec);
    for (unsigned lane = 0; lane < vec->getNumElements(); ++lane) {
      llvm::SmallVector<Value *, 2> scalars;
      for (Value *arg : args)
        scalars.push_back(b_.CreateExtractElement(arg, lane));
      out = b_.CreateInsertElement(out, EmitScalarLibmCall(name, scalars),
                                   lane);
    }
    return out;
  }

  Value *EmitScalarLibmCall(StringRef name, ArrayRef<Value *> args) {
    Type *ty = args.empty() ? type_->getScalarType() : args[0]->getType();
    Type *callTy = ty;
    std::string fn = name.str();
    if (ty->isHalfTy() || ty->isBFloatTy()) {
      callTy = b_.getFloatTy();
      fn += 'f';
    } else if (ty->isFloatTy()) {
      fn += 'f';
    } else if (!ty->isDoubleTy()) {
      fn += 'l'; // x86_fp80, fp128, ppc_fp128: long double.
    }
    llvm::SmallVector<Value *, 2> callArgs;
    for (Value *arg : args)
      callArgs.push_back(callTy == ty ? arg : b_.CreateFPExt(arg, callTy));
    llvm::SmallVector<Type *, 2> params(args.size(), callTy);
    llvm::Module *m = b_.GetInsertBlock()->getModule();
    llvm::FunctionCallee callee = m->getOrInsertFunction(
        fn, llvm::FunctionType::get(callTy, params, false));
    if (auto *decl = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
      decl->setDoesNotThrow();
    Value *call = b_.CreateCall(callee, callArgs);
    return callTy == ty ? call : b_.CreateFPTrunc(call, ty);
  }

  // Arithmetic that folds the neutral and absorbing constants.
  Value *FNeg(Value *a) {
    Value *inner;
    if (llvm::PatternMatch::match(
            a, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(inner))))
      return inner;
    return b_.CreateFNeg(a);
  }
  Value *FAdd(Value *a, Value *c) {
    if (IsZero(a))
      return c;
    if (IsZero(c))
      return a;
    return b_.CreateFAdd(a, c);
  }
  Value *FSub(Value *a, Value *c) {
    if (IsZero(c))
      return a;
    if (IsZero(a))
      return FNeg(c);
    return b_.CreateFSub(a, c);
  }
  Value *FMul(Value *a, Value *c) {
    if (IsZero(a) || IsZero(c))
      return llvm::Constant::getNullValue(a->getType());
    if (IsConstant(a, 1.0))
      return c;
    if (IsConstant(c, 1.0))
      return a;
    if (IsConstant(a, -1.0))
      return FNeg(c);
    if (IsConstant(c, -1.0))
      return FNeg(a);
    if (llvm::isa<llvm::Constant>(a) && !llvm::isa<llvm::Constant>(c))
      std::swap(a, c); // Constants second, as InstCombine would have it.
    return b_.CreateFMul(a, c);
  }
  Value *FDiv(Value *a, Value *c) {
    if (IsConstant(c, 1.0))
      return a;
    return b_.CreateFDiv(a, c);
  }

  llvm::IRBuilderBase &b_;
  ArrayRef<Value *> operands_;
  Value *result_;
  Type *type_;
  llvm::DenseMap<const RuleExpr *, Value *> memo_;
};

//===----------------------------------------------------------------------===//
// Numeric evaluation
//===----------------------------------------------------------------------===//

double Evaluate(const RuleExpr &e, ArrayRef<double> operands, double result) {
  using Kind = RuleExpr::Kind;
  auto arg = [&](unsigned i) { return Evaluate(*e.args[i], operands, result); };
  switch (e.kind) {
  case Kind::Operand:
  case Kind::IntToFP:
    assert(e.index < operands.size() && "rule reads a missing operand");
    return operands[e.index];
  case Kind::Result:
    return result;
  case Kind::Constant:
    return e.value;
  case Kind::Neg:
    return -arg(0);
  case Kind::Add:
    return arg(0) + arg(1);
  case Kind::Sub:
    return arg(0) - arg(1);
  case Kind::Mul:
    return arg(0) * arg(1);
  case Kind::Div:
    return arg(0) / arg(1);
  case Kind::Call: {
    const MathFunction *f = FindMathFunction(e.callee);
    if (!f || f->arity != e.args.size())
      return std::numeric_limits<double>::quiet_NaN();
    return f->arity == 1 ? f->eval1(arg(0)) : f->eval2(arg(0), arg(1));
  }
  case Kind::Select: {
    double lhs = arg(0), rhs = arg(1);
    bool holds = false;
    switch (e.cmp) {
    case RuleCmp::EQ:
      holds = lhs == rhs;
      break;
    case RuleCmp::NE: // Ordered: false for NaN.
      holds = lhs < rhs || lhs > rhs;
      break;
    case RuleCmp::LT:
      holds = lhs < rhs;
      break;
    case RuleCmp::LE:
      holds = lhs <= rhs;
      break;
    case RuleCmp::GT:
      holds = lhs > rhs;
      break;
    case RuleCmp::GE:
      holds = lhs >= rhs;
      break;
    }
    return holds ? arg(2) : arg(3);
  }
  }
  llvm_unreachable("unknown rule expression");
}

//===----------------------------------------------------------------------===//
// Lookup
//===----------------------------------------------------------------------===//

bool IsInstructionRule(StringRef name) {
  return name == "fneg" || name == "fadd" || name == "fsub" ||
         name == "fmul" || name == "fdiv" || name == "frem";
}

/// Whether a call matches the shape of `rule`: one argument per partial,
/// a floating-point result, differentiable arguments of the result's type,
/// the others integers; no libm call on scalable vectors.
bool CallFitsRule(const llvm::CallBase &call, const DerivativeRule &rule) {
  Type *ty = call.getType();
  if (!ty->isFPOrFPVectorTy() || call.arg_size() != rule.partials.size())
    return false;
  for (unsigned i = 0; i < call.arg_size(); ++i) {
    Type *argTy = call.getArgOperand(i)->getType();
    if (rule.partials[i] ? argTy != ty : !argTy->isIntOrIntVectorTy())
      return false;
  }
  if (llvm::isa<llvm::ScalableVectorType>(ty))
    for (const RuleExpr *p : rule.partials)
      if (NeedsLibmCall(p))
        return false;
  return true;
}

} // namespace

const DerivativeRule *FindRuleByName(StringRef name) {
  static const llvm::StringMap<const DerivativeRule *> *index = [] {
    auto *map = new llvm::StringMap<const DerivativeRule *>();
    for (const DerivativeRule &rule : AllRules()) {
      bool inserted = map->try_emplace(rule.name, &rule).second;
      assert(inserted && "two rules with the same name");
      (void)inserted;
    }
    return map;
  }();
  auto it = index->find(name);
  return it == index->end() ? nullptr : it->second;
}

const DerivativeRule *FindRule(const llvm::Instruction &inst) {
  switch (inst.getOpcode()) {
  case llvm::Instruction::FNeg:
  case llvm::Instruction::FAdd:
  case llvm::Instruction::FSub:
  case llvm::Instruction::FMul:
  case llvm::Instruction::FDiv:
  case llvm::Instruction::FRem:
    return FindRuleByName(inst.getOpcodeName());
  default:
    break;
  }
  const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
  if (!call)
    return nullptr;
  const llvm::Function *callee = call->getCalledFunction();
  if (!callee)
    return nullptr;
  const DerivativeRule *rule = nullptr;
  if (llvm::Intrinsic::ID id = callee->getIntrinsicID()) {
    StringRef base = llvm::Intrinsic::getBaseName(id);
    rule = FindRuleByName(base);
    if (!rule && base.starts_with("llvm.nvvm."))
      rule = FindRuleByName(NvvmRuleName(base));
  } else if (callee->getName().starts_with("__nv_")) {
    // libdevice, declared or linked in: the rule, not its body.
    rule = FindRuleByName(callee->getName());
    if (!rule)
      rule = FindRuleByName(LibdeviceRuleName(callee->getName()));
  } else if (callee->isDeclaration() &&
             !callee->getName().starts_with("llvm.") &&
             !IsInstructionRule(callee->getName())) {
    rule = FindRuleByName(callee->getName());
    if (!rule)
      rule = FindRuleByName(NumbaMathName(callee->getName()));
  }
  return rule && CallFitsRule(*call, *rule) ? rule : nullptr;
}

Value *EmitPartial(llvm::IRBuilderBase &b, const DerivativeRule &rule,
                   unsigned i, ArrayRef<Value *> operands, Value *result) {
  assert(i < rule.partials.size() && "operand out of range");
  if (!rule.partials[i])
    return nullptr;
  return ExprEmitter(b, operands, result).Emit(*rule.partials[i]);
}

Value *EmitTangent(llvm::IRBuilderBase &b, const DerivativeRule &rule,
                   ArrayRef<Value *> operands, Value *result,
                   ArrayRef<Value *> tangents) {
  ExprEmitter emitter(b, operands, result);
  llvm::SmallVector<Term, 3> terms;
  for (unsigned i = 0; i < rule.partials.size() && i < tangents.size(); ++i)
    if (rule.partials[i] && tangents[i] && !IsZero(tangents[i]))
      terms.push_back(emitter.Scale(*rule.partials[i], tangents[i]));
  return emitter.Sum(terms);
}

Value *EmitScaledPartial(llvm::IRBuilderBase &b, const DerivativeRule &rule,
                         unsigned i, ArrayRef<Value *> operands,
                         Value *result, Value *adjoint) {
  assert(i < rule.partials.size() && "operand out of range");
  if (!rule.partials[i] || !adjoint || IsZero(adjoint))
    return nullptr;
  ExprEmitter emitter(b, operands, result);
  Term t = emitter.Scale(*rule.partials[i], adjoint);
  return t.value ? emitter.Materialize(t) : nullptr;
}

llvm::SmallVector<Value *, 3> EmitAdjoints(llvm::IRBuilderBase &b,
                                           const DerivativeRule &rule,
                                           ArrayRef<Value *> operands,
                                           Value *result, Value *adjoint) {
  llvm::SmallVector<Value *, 3> adjoints(rule.partials.size(), nullptr);
  for (unsigned i = 0; i < rule.partials.size(); ++i)
    adjoints[i] = EmitScaledPartial(b, rule, i, operands, result, adjoint);
  return adjoints;
}

double EvaluatePartial(const DerivativeRule &rule, unsigned i,
                       ArrayRef<double> operands, double result) {
  assert(i < rule.partials.size() && "operand out of range");
  if (!rule.partials[i])
    return 0.0;
  return Evaluate(*rule.partials[i], operands, result);
}

} // namespace autodiff
