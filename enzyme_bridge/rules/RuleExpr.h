//===- enzyme_bridge/rules/RuleExpr.h - Derivative rule expressions ---*- C++ -*-===//
//
// The closed little language in which the rule table (RuleTable.cpp) writes
// partial derivatives: operands, the primal result, constants, arithmetic,
// calls to math functions by their libm name, a select on a floating-point
// comparison and an integer-to-floating-point conversion. Every expression
// has the type of the rule's result (a scalar or a vector of floating point);
// constants become splats for vectors.
//
// Nodes are immutable and owned by the table: the constructor helpers in
// `autodiff::rule_expr` allocate them in static storage that lives as long as
// the program, so rules may share sub-expressions freely (`Square(e)` is
// `Mul(e, e)` with both arguments the same node, emitted once).
//
//===----------------------------------------------------------------------===//
#ifndef AUTODIFF_ENZYME_BRIDGE_RULEEXPR_H
#define AUTODIFF_ENZYME_BRIDGE_RULEEXPR_H

#include <initializer_list>
#include <string>
#include <vector>

namespace autodiff {

/// An ordered floating-point comparison (false when either side is NaN).
enum class RuleCmp { EQ, NE, LT, LE, GT, GE };

/// One node of a partial-derivative expression.
struct RuleExpr {
  enum class Kind {
    Operand,  ///< Operand `index` of the operation (a call argument).
    Result,   ///< The primal result of the operation.
    Constant, ///< The constant `value` (a splat for vector types).
    IntToFP,  ///< Integer operand `index`, converted as signed (`sitofp`).
    Neg,      ///< -args[0].
    Add,      ///< args[0] + args[1].
    Sub,      ///< args[0] - args[1].
    Mul,      ///< args[0] * args[1].
    Div,      ///< args[0] / args[1].
    Call,     ///< The math function `callee` (libm name, double flavour:
              ///< "cos", "pow", ...) applied to `args`.
    Select,   ///< `cmp`(args[0], args[1]) ? args[2] : args[3].
  };

  Kind kind = Kind::Constant;
  /// Operand number for Operand and IntToFP.
  unsigned index = 0;
  /// Value of a Constant.
  double value = 0.0;
  /// Comparison of a Select.
  RuleCmp cmp = RuleCmp::EQ;
  /// Function of a Call.
  std::string callee;
  /// Sub-expressions (see Kind for their meaning).
  std::vector<const RuleExpr *> args;
};

/// Stores `node` for the lifetime of the program and returns it. Used by the
/// helpers below; thread-safe.
const RuleExpr *MakeRuleExpr(RuleExpr node);

/// Renders `e` in infix form, e.g. "(Op1 * pow(Op0, (Op1 - 1)))", for test
/// messages and documentation.
std::string RuleExprToString(const RuleExpr &e);

/// Constructor helpers, so the rule table reads like mathematics.
namespace rule_expr {

inline RuleExpr Blank(RuleExpr::Kind k) {
  RuleExpr e;
  e.kind = k;
  return e;
}

inline const RuleExpr *Op(unsigned i) {
  RuleExpr e = Blank(RuleExpr::Kind::Operand);
  e.index = i;
  return MakeRuleExpr(std::move(e));
}
inline const RuleExpr *Result() {
  return MakeRuleExpr(Blank(RuleExpr::Kind::Result));
}
inline const RuleExpr *C(double v) {
  RuleExpr e = Blank(RuleExpr::Kind::Constant);
  e.value = v;
  return MakeRuleExpr(std::move(e));
}
inline const RuleExpr *IntToFP(unsigned i) {
  RuleExpr e = Blank(RuleExpr::Kind::IntToFP);
  e.index = i;
  return MakeRuleExpr(std::move(e));
}

inline const RuleExpr *Node(RuleExpr::Kind k,
                            std::initializer_list<const RuleExpr *> args) {
  RuleExpr e = Blank(k);
  e.args = args;
  return MakeRuleExpr(std::move(e));
}
inline const RuleExpr *Neg(const RuleExpr *a) {
  return Node(RuleExpr::Kind::Neg, {a});
}
inline const RuleExpr *Add(const RuleExpr *a, const RuleExpr *b) {
  return Node(RuleExpr::Kind::Add, {a, b});
}
inline const RuleExpr *Sub(const RuleExpr *a, const RuleExpr *b) {
  return Node(RuleExpr::Kind::Sub, {a, b});
}
inline const RuleExpr *Mul(const RuleExpr *a, const RuleExpr *b) {
  return Node(RuleExpr::Kind::Mul, {a, b});
}
inline const RuleExpr *Div(const RuleExpr *a, const RuleExpr *b) {
  return Node(RuleExpr::Kind::Div, {a, b});
}
/// a * a, with `a` emitted once.
inline const RuleExpr *Square(const RuleExpr *a) { return Mul(a, a); }

inline const RuleExpr *Call(const char *fn,
                            std::initializer_list<const RuleExpr *> args) {
  RuleExpr e = Blank(RuleExpr::Kind::Call);
  e.callee = fn;
  e.args = args;
  return MakeRuleExpr(std::move(e));
}
inline const RuleExpr *Call(const char *fn, const RuleExpr *a) {
  return Call(fn, {a});
}
inline const RuleExpr *Call(const char *fn, const RuleExpr *a,
                            const RuleExpr *b) {
  return Call(fn, {a, b});
}

/// `cmp(lhs, rhs) ? then : otherwise`.
inline const RuleExpr *Select(RuleCmp cmp, const RuleExpr *lhs,
                              const RuleExpr *rhs, const RuleExpr *then,
                              const RuleExpr *otherwise) {
  RuleExpr e = Blank(RuleExpr::Kind::Select);
  e.cmp = cmp;
  e.args = {lhs, rhs, then, otherwise};
  return MakeRuleExpr(std::move(e));
}

} // namespace rule_expr

} // namespace autodiff

#endif // AUTODIFF_ENZYME_BRIDGE_RULEEXPR_H
