//===- enzyme_bridge/RuleTable.cpp - The derivative rule table ------------===//
//
// Every derivative rule, as data. Each entry gives, per operand, the partial
// derivative of the result with respect to that operand, written in the
// expression language of RuleExpr.h:
//
//   X, Y      the operands (call arguments) 0 and 1
//   R         the primal result
//   C(v)      a constant; Call("cos", X) a math function by its libm name
//   N(i)      integer operand i converted to floating point
//
// A node used twice (a named local such as IntExponent, or Square(e)) is
// emitted once per rule application; equal but separately built nodes are
// emitted twice.
//   NoPartial the operand is not differentiable (an integer exponent)
//
// Forward mode sums partial x tangent over the operands; reverse mode
// multiplies each partial by the adjoint of the result (RuleEmitter.cpp).
// A partial of C(0) (rounding functions, the sign of copysign) marks a
// floating-point operand whose derivative is zero almost everywhere.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/RuleExpr.h"
#include "enzyme_bridge/rules/Rules.h"

#include <deque>
#include <mutex>
#include <sstream>

namespace autodiff {

const RuleExpr *MakeRuleExpr(RuleExpr node) {
  // A deque never moves its elements, so the pointers stay valid.
  static std::mutex mutex;
  static std::deque<RuleExpr> *nodes = new std::deque<RuleExpr>();
  std::lock_guard<std::mutex> lock(mutex);
  nodes->push_back(std::move(node));
  return &nodes->back();
}

namespace {

const char *CmpName(RuleCmp cmp) {
  switch (cmp) {
  case RuleCmp::EQ:
    return "==";
  case RuleCmp::NE:
    return "!=";
  case RuleCmp::LT:
    return "<";
  case RuleCmp::LE:
    return "<=";
  case RuleCmp::GT:
    return ">";
  case RuleCmp::GE:
    return ">=";
  }
  return "?";
}

void Print(std::ostream &os, const RuleExpr &e) {
  using Kind = RuleExpr::Kind;
  auto binary = [&](const char *op) {
    os << '(';
    Print(os, *e.args[0]);
    os << ' ' << op << ' ';
    Print(os, *e.args[1]);
    os << ')';
  };
  switch (e.kind) {
  case Kind::Operand:
    os << "Op" << e.index;
    return;
  case Kind::Result:
    os << "Result";
    return;
  case Kind::Constant:
    os << e.value;
    return;
  case Kind::IntToFP:
    os << "sitofp(Op" << e.index << ')';
    return;
  case Kind::Neg:
    os << "-";
    Print(os, *e.args[0]);
    return;
  case Kind::Add:
    return binary("+");
  case Kind::Sub:
    return binary("-");
  case Kind::Mul:
    return binary("*");
  case Kind::Div:
    return binary("/");
  case Kind::Call:
    os << e.callee << '(';
    for (size_t i = 0; i < e.args.size(); ++i) {
      if (i)
        os << ", ";
      Print(os, *e.args[i]);
    }
    os << ')';
    return;
  case Kind::Select:
    os << '(';
    Print(os, *e.args[0]);
    os << ' ' << CmpName(e.cmp) << ' ';
    Print(os, *e.args[1]);
    os << " ? ";
    Print(os, *e.args[2]);
    os << " : ";
    Print(os, *e.args[3]);
    os << ')';
    return;
  }
}

using namespace rule_expr;
using Partials = std::vector<const RuleExpr *>;

/// Collects the rules; one method per kind of name.
class TableBuilder {
public:
  /// A floating-point instruction, by opcode name ("fadd").
  void Instruction(const char *opcode, Partials p) { Add(opcode, p); }
  /// An intrinsic, by name without overload suffix ("llvm.fma").
  void Intrinsic(const char *name, Partials p) { Add(name, p); }
  /// A libm function with its float (`f`) and long double (`l`) variants.
  void Libm(const std::string &name, const Partials &p) {
    Add(name, p);
    Add(name + "f", p);
    Add(name + "l", p);
  }
  /// A libm function and the intrinsic of the same name (llvm.<name>).
  void Math(const std::string &name, const Partials &p) {
    Add("llvm." + name, p);
    Libm(name, p);
  }

  std::vector<DerivativeRule> Take() { return std::move(rules_); }

private:
  void Add(std::string name, Partials p) {
    rules_.push_back(DerivativeRule{std::move(name), std::move(p)});
  }
  std::vector<DerivativeRule> rules_;
};

// Functions only libdevice has (GpuMath.cpp maps `__nv_*` names here).
void AddLibdeviceRules(TableBuilder &t) {
  const RuleExpr *X = Op(0), *Y = Op(1), *R = Result();
  const double k2OverSqrtPi = 1.12837916709551257390;
  const double kPi = 3.14159265358979323846;
  const double kInvSqrt2Pi = 0.39894228040143267794;
  const double kSqrt2Pi = 2.50662827463100050242;
  const double kSqrtPiOver2 = 0.88622692545275801365;
  t.Intrinsic("__nv_rsqrt", {Mul(C(-0.5), Div(R, X))});
  t.Intrinsic("__nv_rcbrt", {Neg(Div(R, Mul(C(3), X)))});
  t.Intrinsic("__nv_rcp", {Neg(Square(R))});
  t.Intrinsic("__nv_sinpi", {Mul(C(kPi), Call("cos", Mul(C(kPi), X)))});
  t.Intrinsic("__nv_cospi", {Mul(C(-kPi), Call("sin", Mul(C(kPi), X)))});
  t.Intrinsic("__nv_normcdf",
              {Mul(C(kInvSqrt2Pi), Call("exp", Mul(C(-0.5), Square(X))))});
  t.Intrinsic("__nv_normcdfinv",
              {Mul(C(kSqrt2Pi), Call("exp", Mul(C(0.5), Square(R))))});
  t.Intrinsic("__nv_erfinv", {Mul(C(kSqrtPiOver2), Call("exp", Square(R)))});
  t.Intrinsic("__nv_erfcinv",
              {Mul(C(-kSqrtPiOver2), Call("exp", Square(R)))});
  // 1 / hypot(x, y), sqrt(x^2 + y^2 + z^2 [+ w^2]) and their reciprocals:
  // d|v| = v_i / |v|, d(1/|v|) = -v_i / |v|^3.
  const RuleExpr *Z = Op(2), *W = Op(3);
  const RuleExpr *R3 = Mul(R, Square(R));
  t.Intrinsic("__nv_rhypot", {Neg(Mul(X, R3)), Neg(Mul(Y, R3))});
  t.Intrinsic("__nv_norm3d", {Div(X, R), Div(Y, R), Div(Z, R)});
  t.Intrinsic("__nv_rnorm3d",
              {Neg(Mul(X, R3)), Neg(Mul(Y, R3)), Neg(Mul(Z, R3))});
  t.Intrinsic("__nv_norm4d", {Div(X, R), Div(Y, R), Div(Z, R), Div(W, R)});
  t.Intrinsic("__nv_rnorm4d", {Neg(Mul(X, R3)), Neg(Mul(Y, R3)),
                               Neg(Mul(Z, R3)), Neg(Mul(W, R3))});
  // erfcx(x) = exp(x^2) erfc(x): its slope is 2 x erfcx(x) - 2 / sqrt(pi).
  t.Intrinsic("__nv_erfcx", {Sub(Mul(Mul(C(2), X), R), C(k2OverSqrtPi))});
  // Modified Bessel functions: I0' = I1, I1' = I0 - I1 / x.
  t.Intrinsic("__nv_cyl_bessel_i0", {Call("cyl_bessel_i1", X)});
  t.Intrinsic("__nv_cyl_bessel_i1",
              {Sub(Call("cyl_bessel_i0", X), Div(R, X))});
  // saturate(x) clamps to [0, 1].
  t.Intrinsic("__nv_saturate",
              {Select(RuleCmp::GT, X, C(0),
                      Select(RuleCmp::LT, X, C(1), C(1), C(0)), C(0))});

}

std::vector<DerivativeRule> BuildTable() {
  const RuleExpr *X = Op(0), *Y = Op(1), *R = Result();
  const RuleExpr *NoPartial = nullptr;
  auto N = [](unsigned i) { return IntToFP(i); };

  const double kLn2 = 0.69314718055994530942;
  const double kLn10 = 2.30258509299404568402;
  const double k2OverSqrtPi = 1.12837916709551257390;

  TableBuilder t;

  // Floating-point instructions. frem is a - trunc(a / b) * b.
  t.Instruction("fneg", {C(-1)});
  t.Instruction("fadd", {C(1), C(1)});
  t.Instruction("fsub", {C(1), C(-1)});
  t.Instruction("fmul", {Y, X});
  t.Instruction("fdiv", {Div(C(1), Y), Neg(Div(R, Y))});
  t.Instruction("frem", {C(1), Neg(Call("trunc", Div(X, Y)))});

  // Fused multiply-add: x * y + z.
  t.Intrinsic("llvm.fmuladd", {Y, X, C(1)});
  t.Math("fma", {Y, X, C(1)});

  // Roots and powers. For pow the partial in y is taken as 0 at x == 0
  // (instead of 0 * log(0)). powi's exponent is an integer.
  t.Math("sqrt", {Div(C(0.5), R)});
  t.Libm("cbrt", {Div(C(1), Mul(C(3), Square(R)))});
  t.Math("pow", {Mul(Y, Call("pow", X, Sub(Y, C(1)))),
                 Select(RuleCmp::EQ, X, C(0), C(0),
                        Mul(R, Call("log", X)))});
  const RuleExpr *IntExponent = N(1);
  t.Intrinsic("llvm.powi",
              {Mul(IntExponent, Call("pow", X, Sub(IntExponent, C(1)))),
               NoPartial});
  t.Libm("hypot", {Div(X, R), Div(Y, R)});
  // cabs(re, im) of a double complex, passed as two doubles.
  t.Libm("cabs", {Div(X, R), Div(Y, R)});
  // carg(re, im) = atan2(im, re).
  t.Libm("carg", {Neg(Div(Y, Add(Square(X), Square(Y)))),
                  Div(X, Add(Square(X), Square(Y)))});

  // Exponentials and logarithms.
  t.Math("exp", {R});
  t.Math("exp2", {Mul(R, C(kLn2))});
  t.Math("exp10", {Mul(R, C(kLn10))});
  t.Libm("expm1", {Add(R, C(1))});
  t.Math("log", {Div(C(1), X)});
  t.Math("log2", {Div(C(1), Mul(X, C(kLn2)))});
  t.Math("log10", {Div(C(1), Mul(X, C(kLn10)))});
  t.Libm("log1p", {Div(C(1), Add(X, C(1)))});
  // NumPy's logaddexp(x, y) = log(e^x + e^y), logaddexp2 in base 2
  // (npymath's names; NumbaMathName maps `npy_logaddexp` here).
  t.Libm("logaddexp", {Call("exp", Sub(X, R)), Call("exp", Sub(Y, R))});
  t.Libm("logaddexp2", {Call("exp2", Sub(X, R)), Call("exp2", Sub(Y, R))});

  // Scaling by a power of two: x * 2^n with an integer n.
  const RuleExpr *TwoToN = Call("exp2", N(1));
  t.Math("ldexp", {TwoToN, NoPartial});
  t.Libm("scalbn", {TwoToN, NoPartial});
  t.Libm("scalbln", {TwoToN, NoPartial});

  // Trigonometric functions. atan2(X, Y) is the angle of the point (Y, X),
  // with partials Y / (X^2 + Y^2) and -X / (X^2 + Y^2).
  const RuleExpr *InvSqrt1MinusX2 =
      Div(C(1), Call("sqrt", Sub(C(1), Square(X))));
  const RuleExpr *SumOfSquares = Add(Square(X), Square(Y));
  t.Math("sin", {Call("cos", X)});
  t.Math("cos", {Neg(Call("sin", X))});
  t.Math("tan", {Add(C(1), Square(R))});
  t.Math("asin", {InvSqrt1MinusX2});
  t.Math("acos", {Neg(InvSqrt1MinusX2)});
  t.Math("atan", {Div(C(1), Add(C(1), Square(X)))});
  t.Math("atan2", {Div(Y, SumOfSquares), Neg(Div(X, SumOfSquares))});

  // Hyperbolic functions.
  t.Math("sinh", {Call("cosh", X)});
  t.Math("cosh", {Call("sinh", X)});
  t.Math("tanh", {Sub(C(1), Square(R))});
  t.Libm("asinh", {Div(C(1), Call("sqrt", Add(Square(X), C(1))))});
  t.Libm("acosh", {Div(C(1), Call("sqrt", Sub(Square(X), C(1))))});
  t.Libm("atanh", {Div(C(1), Sub(C(1), Square(X)))});

  // Error functions: d erf(x) = 2 / sqrt(pi) * exp(-x^2).
  const RuleExpr *ExpMinusX2 = Call("exp", Neg(Square(X)));
  t.Libm("erf", {Mul(C(k2OverSqrtPi), ExpMinusX2)});
  t.Libm("erfc", {Mul(C(-k2OverSqrtPi), ExpMinusX2)});

  // Sign and magnitude: the slope of |x| is the sign of x; copysign(x, s)
  // has slope +-1 (whether the signs of x and s agree) and none in s.
  const RuleExpr *SignX = Call("copysign", C(1), X);
  t.Math("fabs", {SignX});
  t.Math("copysign", {Mul(SignX, Call("copysign", C(1), Y)), C(0)});

  // Minimum and maximum: the derivative of the operand the result is; on a
  // tie the first. (fmax(x, NaN) and maxnum are x: comparing x with y
  // would give the NaN operand the derivative.)
  const Partials Min = {Select(RuleCmp::EQ, X, R, C(1), C(0)),
                        Select(RuleCmp::EQ, X, R, C(0), C(1))};
  const Partials Max = Min;
  t.Intrinsic("llvm.minnum", Min);
  t.Intrinsic("llvm.minimum", Min);
  t.Intrinsic("llvm.minimumnum", Min);
  // fdim(x, y) = max(x - y, 0).
  t.Libm("fdim", {Select(RuleCmp::GT, X, Y, C(1), C(0)),
                  Select(RuleCmp::GT, X, Y, C(-1), C(0))});
  // Bessel functions of the first and second kind, orders 0 and 1.
  t.Libm("j0", {Neg(Call("j1", X))});
  t.Libm("j1", {Sub(Call("j0", X), Div(R, X))});
  t.Libm("y0", {Neg(Call("y1", X))});
  t.Libm("y1", {Sub(Call("y0", X), Div(R, X))});
  // nextafter(x, y) moves x by one ulp: locally the identity in x.
  t.Libm("nextafter", {C(1), C(0)});
  // logb(x): the binary exponent, piecewise constant.
  t.Libm("logb", {C(0)});
  t.Libm("fmin", Min);
  t.Intrinsic("llvm.maxnum", Max);
  t.Intrinsic("llvm.maximum", Max);
  t.Intrinsic("llvm.maximumnum", Max);
  t.Libm("fmax", Max);

  // Rounding: piecewise constant, so zero derivative almost everywhere.
  for (const char *name :
       {"floor", "ceil", "trunc", "round", "roundeven", "rint", "nearbyint"})
    t.Math(name, {C(0)});

  // Remainders: x - q * y, with q = trunc(x / y) for fmod and the nearest
  // integer (ties to even) for remainder.
  t.Libm("fmod", {C(1), Neg(Call("trunc", Div(X, Y)))});
  t.Libm("remainder", {C(1), Neg(Call("roundeven", Div(X, Y)))});

  AddLibdeviceRules(t);
  return t.Take();
}

} // namespace

std::string RuleExprToString(const RuleExpr &e) {
  std::ostringstream os;
  Print(os, e);
  return os.str();
}

llvm::ArrayRef<DerivativeRule> AllRules() {
  static const std::vector<DerivativeRule> *table =
      new std::vector<DerivativeRule>(BuildTable());
  return *table;
}

} // namespace autodiff
