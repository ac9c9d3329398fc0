//===- tests/unit/rules/RuleNumericTest.cpp - Rules vs finite differences -===//
//
// Every rule of the table, checked on doubles: each partial, evaluated by
// EvaluatePartial, against a central finite difference of the primal
// function written here in C++. A rule without a primal below fails, so no
// rule goes unchecked.
//
//===----------------------------------------------------------------------===//
#include "enzyme_bridge/rules/RuleExpr.h"
#include "enzyme_bridge/rules/Rules.h"

#include "llvm/ADT/StringMap.h"

#include "gtest/gtest.h"

#include <cctype>
#include <cmath>
#include <functional>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace autodiff {

/// Shows a rule parameter by name in gtest messages.
inline void PrintTo(const DerivativeRule *rule, std::ostream *os) {
  *os << (rule ? rule->name : "<null>");
}

namespace {

using Args = std::vector<double>;

/// The primal of one or more rules and the points to check it at (inside
/// the function's domain, away from kinks and jumps).
struct Primal {
  /// Rule names; a libm name also stands for its `f` and `l` variants.
  std::vector<std::string> names;
  std::function<double(const Args &)> f;
  std::vector<Args> samples;
  /// Bit i set: operand i is an integer (and must have no partial).
  unsigned int_operands = 0;
};

/// Inverses by Newton's method, for libdevice's erfinv and normcdfinv.
double ErfInverse(double y) {
  double x = 0;
  for (int k = 0; k < 60; ++k)
    x -= (std::erf(x) - y) / (2 / std::sqrt(M_PI) * std::exp(-x * x));
  return x;
}
double NormCdfInverse(double p) { return std::sqrt(2.0) * ErfInverse(2 * p - 1); }

std::function<double(const Args &)> Unary(double (*f)(double)) {
  return [f](const Args &a) { return f(a[0]); };
}
std::function<double(const Args &)> Binary(double (*f)(double, double)) {
  return [f](const Args &a) { return f(a[0], a[1]); };
}

const std::vector<Primal> &Primals() {
  static const std::vector<Primal> primals = {
      // Instructions.
      {{"fneg"}, Unary([](double x) { return -x; }), {{1.5}, {-0.3}}},
      {{"fadd"},
       Binary([](double x, double y) { return x + y; }),
       {{1.3, 0.7}, {-2.1, 0.4}}},
      {{"fsub"},
       Binary([](double x, double y) { return x - y; }),
       {{1.3, 0.7}, {-2.1, 0.4}}},
      {{"fmul"},
       Binary([](double x, double y) { return x * y; }),
       {{1.3, 0.7}, {-2.1, 0.4}}},
      {{"fdiv"},
       Binary([](double x, double y) { return x / y; }),
       {{1.3, 0.7}, {-2.1, 0.4}}},
      {{"frem", "fmod"},
       Binary([](double x, double y) { return std::fmod(x, y); }),
       {{5.3, 1.7}, {-4.2, 1.3}, {2.5, -0.8}}},
      {{"remainder"},
       Binary([](double x, double y) { return std::remainder(x, y); }),
       {{5.3, 1.7}, {-4.2, 1.3}, {2.5, -0.8}}},
      // Fused multiply-add.
      {{"llvm.fmuladd", "llvm.fma", "fma"},
       [](const Args &a) { return a[0] * a[1] + a[2]; },
       {{1.2, -0.7, 0.3}, {-2.0, 3.5, 1.0}}},
      // Roots and powers.
      {{"llvm.sqrt", "sqrt"},
       Unary([](double x) { return std::sqrt(x); }),
       {{0.5}, {2.0}, {9.3}}},
      {{"cbrt"},
       Unary([](double x) { return std::cbrt(x); }),
       {{0.5}, {-2.0}, {8.0}}},
      {{"llvm.pow", "pow"},
       Binary([](double x, double y) { return std::pow(x, y); }),
       {{1.5, 2.3}, {0.7, -1.2}, {2.0, 3.0}}},
      {{"llvm.powi"},
       Binary([](double x, double n) { return std::pow(x, n); }),
       {{1.3, 3}, {-0.8, 2}, {2.0, -2}, {-1.5, 5}},
       /*int_operands=*/0b10},
      {{"hypot"},
       Binary([](double x, double y) { return std::hypot(x, y); }),
       {{3.0, 4.0}, {-1.2, 0.5}}},
      // Exponentials and logarithms.
      {{"llvm.exp", "exp"},
       Unary([](double x) { return std::exp(x); }),
       {{0.3}, {-1.2}, {2.0}}},
      {{"llvm.exp2", "exp2"},
       Unary([](double x) { return std::exp2(x); }),
       {{0.3}, {-1.2}, {2.0}}},
      {{"llvm.exp10", "exp10"},
       Unary([](double x) { return std::pow(10.0, x); }),
       {{0.3}, {-1.2}, {2.0}}},
      {{"expm1"},
       Unary([](double x) { return std::expm1(x); }),
       {{0.3}, {-1.2}, {1e-3}}},
      {{"llvm.log", "log"},
       Unary([](double x) { return std::log(x); }),
       {{0.3}, {2.5}, {10.0}}},
      {{"llvm.log2", "log2"},
       Unary([](double x) { return std::log2(x); }),
       {{0.3}, {2.5}, {10.0}}},
      {{"llvm.log10", "log10"},
       Unary([](double x) { return std::log10(x); }),
       {{0.3}, {2.5}, {10.0}}},
      {{"log1p"},
       Unary([](double x) { return std::log1p(x); }),
       {{-0.5}, {0.3}, {4.0}}},
      {{"llvm.ldexp", "ldexp", "scalbn", "scalbln"},
       Binary([](double x, double n) { return std::ldexp(x, int(n)); }),
       {{1.3, 3}, {-0.7, -2}, {0.1, 0}},
       /*int_operands=*/0b10},
      // Trigonometric functions.
      {{"llvm.sin", "sin"},
       Unary([](double x) { return std::sin(x); }),
       {{0.3}, {-1.2}, {2.5}}},
      {{"llvm.cos", "cos"},
       Unary([](double x) { return std::cos(x); }),
       {{0.3}, {-1.2}, {2.5}}},
      {{"llvm.tan", "tan"},
       Unary([](double x) { return std::tan(x); }),
       {{0.3}, {-1.2}, {2.5}}},
      {{"llvm.asin", "asin"},
       Unary([](double x) { return std::asin(x); }),
       {{0.3}, {-0.7}}},
      {{"llvm.acos", "acos"},
       Unary([](double x) { return std::acos(x); }),
       {{0.3}, {-0.7}}},
      {{"llvm.atan", "atan"},
       Unary([](double x) { return std::atan(x); }),
       {{0.3}, {-2.0}, {5.0}}},
      {{"llvm.atan2", "atan2"},
       Binary([](double y, double x) { return std::atan2(y, x); }),
       {{0.5, 1.2}, {-0.7, -0.3}, {1.0, -2.0}}},
      // Hyperbolic functions.
      {{"llvm.sinh", "sinh"},
       Unary([](double x) { return std::sinh(x); }),
       {{0.3}, {-1.2}, {2.0}}},
      {{"llvm.cosh", "cosh"},
       Unary([](double x) { return std::cosh(x); }),
       {{0.3}, {-1.2}, {2.0}}},
      {{"llvm.tanh", "tanh"},
       Unary([](double x) { return std::tanh(x); }),
       {{0.3}, {-1.2}, {2.0}}},
      {{"asinh"},
       Unary([](double x) { return std::asinh(x); }),
       {{0.3}, {-2.0}}},
      {{"acosh"},
       Unary([](double x) { return std::acosh(x); }),
       {{1.5}, {3.0}}},
      {{"atanh"},
       Unary([](double x) { return std::atanh(x); }),
       {{0.3}, {-0.7}}},
      // Error functions.
      {{"erf"},
       Unary([](double x) { return std::erf(x); }),
       {{0.3}, {-1.1}, {2.0}}},
      {{"erfc"},
       Unary([](double x) { return std::erfc(x); }),
       {{0.3}, {-1.1}, {2.0}}},
      // Sign and magnitude.
      {{"llvm.fabs", "fabs"},
       Unary([](double x) { return std::fabs(x); }),
       {{1.3}, {-0.7}}},
      {{"llvm.copysign", "copysign"},
       Binary([](double x, double y) { return std::copysign(x, y); }),
       {{1.3, -2.0}, {-0.7, 3.0}, {2.0, 0.5}, {-1.0, -4.0}}},
      // Minimum and maximum.
      {{"llvm.minnum", "llvm.minimum", "llvm.minimumnum", "fmin"},
       Binary([](double x, double y) { return std::fmin(x, y); }),
       {{1.3, 2.1}, {2.1, 1.3}, {-0.5, -0.4}}},
      {{"llvm.maxnum", "llvm.maximum", "llvm.maximumnum", "fmax"},
       Binary([](double x, double y) { return std::fmax(x, y); }),
       {{1.3, 2.1}, {2.1, 1.3}, {-0.5, -0.4}}},
      {{"cabs"},
       Binary([](double x, double y) { return std::hypot(x, y); }),
       {{1.3, 2.1}, {-0.5, 0.9}}},
      {{"carg"},
       Binary([](double x, double y) { return std::atan2(y, x); }),
       {{1.3, 2.1}, {-0.5, 0.9}, {0.7, -1.4}}},
      // NumPy's (npymath, what Numba calls).
      {{"logaddexp"},
       Binary([](double x, double y) {
         return std::log(std::exp(x) + std::exp(y));
       }),
       {{1.3, 0.5}, {-2.0, 0.9}}},
      {{"logaddexp2"},
       Binary([](double x, double y) {
         return std::log2(std::exp2(x) + std::exp2(y));
       }),
       {{1.3, 0.5}, {-2.0, 0.9}}},
      {{"logb"},
       Unary([](double x) { return std::logb(x); }),
       {{1.3}, {-5.5}, {0.3}}},
      {{"j0"}, Unary([](double x) { return ::j0(x); }), {{0.7}, {3.1}}},
      // libdevice's own functions (GpuMath.cpp), computed here from libm.
      {{"__nv_rsqrt"},
       Unary([](double x) { return 1 / std::sqrt(x); }),
       {{0.7}, {2.3}}},
      {{"__nv_rcbrt"},
       Unary([](double x) { return 1 / std::cbrt(x); }),
       {{0.7}, {-2.3}}},
      {{"__nv_rcp"}, Unary([](double x) { return 1 / x; }), {{0.7}, {-2.3}}},
      {{"__nv_sinpi"},
       Unary([](double x) { return std::sin(M_PI * x); }),
       {{0.3}, {-1.2}}},
      {{"__nv_cospi"},
       Unary([](double x) { return std::cos(M_PI * x); }),
       {{0.3}, {-1.2}}},
      {{"__nv_normcdf"},
       Unary([](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }),
       {{0.3}, {-1.2}}},
      {{"__nv_normcdfinv"}, Unary(NormCdfInverse), {{0.3}, {0.8}}},
      {{"__nv_erfinv"}, Unary(ErfInverse), {{0.3}, {-0.6}}},
      {{"__nv_erfcinv"},
       Unary([](double x) { return ErfInverse(1 - x); }),
       {{0.4}, {1.3}}},
      {{"__nv_saturate"},
       Unary([](double x) { return std::fmin(std::fmax(x, 0.0), 1.0); }),
       {{0.3}, {0.8}}},
      {{"__nv_rhypot"},
       Binary([](double x, double y) { return 1 / std::hypot(x, y); }),
       {{1.3, -0.4}, {-0.5, 2.0}}},
      {{"__nv_norm3d"},
       [](const Args &a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); },
       {{1.3, -0.4, 0.7}, {-0.5, 2.0, 0.1}}},
      {{"__nv_rnorm3d"},
       [](const Args &a) {
         return 1 / std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
       },
       {{1.3, -0.4, 0.7}, {-0.5, 2.0, 0.1}}},
      {{"__nv_norm4d"},
       [](const Args &a) {
         return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] +
                          a[3] * a[3]);
       },
       {{1.3, -0.4, 0.7, 0.2}, {-0.5, 2.0, 0.1, -1.1}}},
      {{"__nv_rnorm4d"},
       [](const Args &a) {
         return 1 / std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] +
                              a[3] * a[3]);
       },
       {{1.3, -0.4, 0.7, 0.2}, {-0.5, 2.0, 0.1, -1.1}}},
      {{"__nv_erfcx"},
       Unary([](double x) { return std::exp(x * x) * std::erfc(x); }),
       {{0.3}, {-0.8}, {2.5}}},
      {{"__nv_cyl_bessel_i0"},
       Unary([](double x) { return std::cyl_bessel_i(0.0, x); }),
       {{0.3}, {2.5}}},
      {{"__nv_cyl_bessel_i1"},
       Unary([](double x) { return std::cyl_bessel_i(1.0, x); }),
       {{0.3}, {2.5}}},
      {{"j1"}, Unary([](double x) { return ::j1(x); }), {{0.7}, {3.1}}},
      {{"y0"}, Unary([](double x) { return ::y0(x); }), {{0.7}, {3.1}}},
      {{"y1"}, Unary([](double x) { return ::y1(x); }), {{0.7}, {3.1}}},
      {{"nextafter"},
       Binary([](double x, double y) { return x + 0 * y; }),
       {{0.7, 2.0}, {-3.1, 0.0}}},
      {{"fdim"},
       Binary([](double x, double y) { return std::fdim(x, y); }),
       {{1.3, 2.1}, {2.1, 1.3}, {-0.5, -0.9}}},
      // Rounding.
      {{"llvm.floor", "floor"},
       Unary([](double x) { return std::floor(x); }),
       {{1.3}, {-2.7}}},
      {{"llvm.ceil", "ceil"},
       Unary([](double x) { return std::ceil(x); }),
       {{1.3}, {-2.7}}},
      {{"llvm.trunc", "trunc"},
       Unary([](double x) { return std::trunc(x); }),
       {{1.3}, {-2.7}}},
      {{"llvm.round", "round"},
       Unary([](double x) { return std::round(x); }),
       {{1.3}, {-2.7}}},
      {{"llvm.roundeven", "roundeven", "llvm.rint", "rint", "llvm.nearbyint",
        "nearbyint"},
       Unary([](double x) { return std::nearbyint(x); }),
       {{1.3}, {-2.7}}},
  };
  return primals;
}

/// The primal of the rule `name`: by name, or for a libm `f`/`l` variant by
/// the name without the suffix.
const Primal *FindPrimal(const std::string &name) {
  static const llvm::StringMap<const Primal *> index = [] {
    llvm::StringMap<const Primal *> map;
    for (const Primal &p : Primals())
      for (const std::string &n : p.names)
        map[n] = &p;
    return map;
  }();
  auto it = index.find(name);
  if (it != index.end())
    return it->second;
  if (name.size() > 1 && (name.back() == 'f' || name.back() == 'l') &&
      name.rfind("llvm.", 0) != 0) {
    std::string base = name.substr(0, name.size() - 1);
    it = index.find(base);
    if (it != index.end() && FindRuleByName(base))
      return it->second;
  }
  return nullptr;
}

class RuleNumericTest : public testing::TestWithParam<const DerivativeRule *> {
};

TEST_P(RuleNumericTest, PartialsMatchFiniteDifferences) {
  const DerivativeRule &rule = *GetParam();
  const Primal *primal = FindPrimal(rule.name);
  ASSERT_NE(primal, nullptr) << "no primal for rule `" << rule.name
                             << "`: add one to Primals()";
  ASSERT_FALSE(primal->samples.empty());
  for (const Args &point : primal->samples) {
    ASSERT_EQ(point.size(), rule.partials.size())
        << "sample arity differs from the rule's";
    const double result = primal->f(point);
    for (unsigned i = 0; i < point.size(); ++i) {
      const bool is_int = primal->int_operands >> i & 1;
      if (is_int) {
        EXPECT_EQ(rule.partials[i], nullptr)
            << "integer operand " << i << " has a partial";
        continue;
      }
      ASSERT_NE(rule.partials[i], nullptr)
          << "floating-point operand " << i << " has no partial";
      const double x = point[i];
      const double h = 1e-6 * std::max(1.0, std::fabs(x));
      Args plus = point, minus = point;
      plus[i] = x + h;
      minus[i] = x - h;
      const double numeric = (primal->f(plus) - primal->f(minus)) / (2 * h);
      const double analytic = EvaluatePartial(rule, i, point, result);
      EXPECT_NEAR(analytic, numeric, 1e-6 * std::max(1.0, std::fabs(numeric)))
          << rule.name << " d/dOp" << i << " = "
          << RuleExprToString(*rule.partials[i]) << " at operand " << i
          << " = " << x;
    }
  }
}

std::vector<const DerivativeRule *> RulePointers() {
  std::vector<const DerivativeRule *> out;
  for (const DerivativeRule &rule : AllRules())
    out.push_back(&rule);
  return out;
}

std::string TestName(const testing::TestParamInfo<const DerivativeRule *> &i) {
  std::string name = i.param->name;
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleNumericTest,
                         testing::ValuesIn(RulePointers()), TestName);

TEST(RuleTableTest, NamesAreUniqueAndFound) {
  llvm::StringMap<int> seen;
  for (const DerivativeRule &rule : AllRules()) {
    EXPECT_EQ(++seen[rule.name], 1) << "duplicate rule " << rule.name;
    EXPECT_EQ(FindRuleByName(rule.name), &rule);
    EXPECT_FALSE(rule.partials.empty()) << rule.name;
  }
  EXPECT_EQ(FindRuleByName("no_such_function"), nullptr);
  EXPECT_EQ(FindRuleByName("add"), nullptr);
}

TEST(RuleTableTest, CoversTheRequiredOperations) {
  const char *required[] = {
      "fneg", "fadd", "fsub", "fmul", "fdiv", "frem", "llvm.fmuladd",
      "llvm.fma", "llvm.sqrt", "llvm.sin", "llvm.cos", "llvm.tan",
      "llvm.exp", "llvm.exp2", "llvm.exp10", "llvm.log", "llvm.log2",
      "llvm.log10", "llvm.pow", "llvm.powi", "llvm.fabs", "llvm.copysign",
      "llvm.minnum", "llvm.maxnum", "llvm.minimum", "llvm.maximum",
      "llvm.minimumnum", "llvm.maximumnum", "llvm.floor", "llvm.ceil",
      "llvm.trunc", "llvm.round", "llvm.roundeven", "llvm.rint",
      "llvm.nearbyint", "llvm.asin", "llvm.acos", "llvm.atan", "llvm.atan2",
      "llvm.sinh", "llvm.cosh", "llvm.tanh", "llvm.ldexp"};
  for (const char *name : required)
    EXPECT_NE(FindRuleByName(name), nullptr) << name;
  const char *libm[] = {"sin",   "cos",   "tan",   "exp",      "exp2",
                        "exp10", "log",   "log2",  "log10",    "pow",
                        "sqrt",  "fabs",  "copysign", "fmin",  "fmax",
                        "floor", "ceil",  "trunc", "round",    "asin",
                        "acos",  "atan",  "atan2", "sinh",     "cosh",
                        "tanh",  "asinh", "acosh", "atanh",    "cbrt",
                        "hypot", "expm1", "log1p", "erf",      "erfc",
                        "fmod",  "ldexp", "scalbn"};
  for (const char *name : libm)
    for (const char *suffix : {"", "f", "l"})
      EXPECT_NE(FindRuleByName(std::string(name) + suffix), nullptr)
          << name << suffix;
}

TEST(RuleTableTest, VariantsShareTheirPartials) {
  for (const char *name : {"sin", "pow", "erf", "fmin", "ldexp"}) {
    const DerivativeRule *d = FindRuleByName(name);
    const DerivativeRule *f = FindRuleByName(std::string(name) + "f");
    const DerivativeRule *l = FindRuleByName(std::string(name) + "l");
    ASSERT_TRUE(d && f && l) << name;
    EXPECT_EQ(d->partials, f->partials) << name;
    EXPECT_EQ(d->partials, l->partials) << name;
  }
}

TEST(RuleTableTest, PrintsExpressions) {
  EXPECT_EQ(RuleExprToString(*FindRuleByName("llvm.pow")->partials[0]),
            "(Op1 * pow(Op0, (Op1 - 1)))");
  EXPECT_EQ(RuleExprToString(*FindRuleByName("fdiv")->partials[1]),
            "-(Result / Op1)");
  EXPECT_EQ(RuleExprToString(*FindRuleByName("fmin")->partials[0]),
            "(Op0 == Result ? 1 : 0)");
}

TEST(RuleTableTest, EvaluatesSpecialPoints) {
  // pow's partial in the exponent is 0 at a zero base, not 0 * log(0).
  const DerivativeRule &pow = *FindRuleByName("pow");
  EXPECT_EQ(EvaluatePartial(pow, 1, {0.0, 2.0}, 0.0), 0.0);
  EXPECT_EQ(EvaluatePartial(pow, 0, {0.0, 2.0}, 0.0), 0.0);
  // Ties of min and max choose the first operand.
  const DerivativeRule &fmin = *FindRuleByName("fmin");
  EXPECT_EQ(EvaluatePartial(fmin, 0, {1.0, 1.0}, 1.0), 1.0);
  EXPECT_EQ(EvaluatePartial(fmin, 1, {1.0, 1.0}, 1.0), 0.0);
  const DerivativeRule &fmax = *FindRuleByName("llvm.maxnum");
  EXPECT_EQ(EvaluatePartial(fmax, 0, {1.0, 1.0}, 1.0), 1.0);
  EXPECT_EQ(EvaluatePartial(fmax, 1, {1.0, 1.0}, 1.0), 0.0);
  // A NaN operand is not the result (fmax(x, NaN) = x): no derivative.
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(EvaluatePartial(fmax, 0, {1.0, nan}, 1.0), 1.0);
  EXPECT_EQ(EvaluatePartial(fmax, 1, {1.0, nan}, 1.0), 0.0);
  EXPECT_EQ(EvaluatePartial(fmin, 0, {nan, 2.0}, 2.0), 0.0);
  EXPECT_EQ(EvaluatePartial(fmin, 1, {nan, 2.0}, 2.0), 1.0);
  // |x| has slope sign(x), also at signed zeros.
  const DerivativeRule &fabs = *FindRuleByName("fabs");
  EXPECT_EQ(EvaluatePartial(fabs, 0, {-0.0}, 0.0), -1.0);
  EXPECT_EQ(EvaluatePartial(fabs, 0, {0.0}, 0.0), 1.0);
  // cbrt is written with the result, finite away from 0.
  const DerivativeRule &cbrt = *FindRuleByName("cbrtf");
  EXPECT_NEAR(EvaluatePartial(cbrt, 0, {8.0}, 2.0), 1.0 / 12.0, 1e-15);
  // No partial: zero.
  EXPECT_EQ(EvaluatePartial(*FindRuleByName("llvm.powi"), 1, {2.0, 3.0}, 8.0),
            0.0);
}

} // namespace
} // namespace autodiff
