"""Random differentiable C programs for the differential tester.

Each program defines `real f(const real *x, real *out, int n)` (n = N
inputs, an output array and a scalar result) built from straight-line
arithmetic, libm calls kept inside their domains, branches on data, loops
with run-time trip counts (counted and data-dependent), local arrays
updated in place, and calls to generated helper functions (scalar helpers,
helpers that update an array in place, helpers that update a struct of two
reals and an int through a pointer; some `noinline`, so reverse mode keeps
them as calls). `real` is double or float.

Its `main` differentiates the loss L(x) = f(x, out) + w . out three ways:
reverse mode (one sweep: the return seeded with 1, `out`'s shadow with w),
forward mode (one run per input direction), forward mode with
`enzyme_width, 2` (directions j and j + 1 in one run) and central finite
differences, and prints one line per input; difftest.py compares them.

Only the seed decides the program: `gen.py SEED` prints the same text on
every machine.
"""
import random
import sys

N = 5

UNARY = [
    "SIN({a})", "COS({a})", "TANH({a})", "ATAN({a})",
    "EXP(R(0.5) * TANH({a}))", "LOG(R(1.0) + {a} * {a})",
    "SQRT(R(1.0) + {a} * {a})", "POW(R(1.0) + {a} * {a}, R(0.75))",
    "CBRT(R(2.0) + TANH({a}))", "EXPM1(R(0.3) * SIN({a}))",
    "LOG1P(R(0.5) + R(0.4) * COS({a}))", "HYPOT({a}, R(0.5))",
    "ERF(R(0.7) * {a})",
]
BINARY = [
    "{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / (R(1.5) + {b} * {b})",
    "R(0.5) * {a} + R(0.25) * {b}", "({a} > {b} ? {a} : {b})",
    "ATAN2({a}, R(1.0) + {b} * {b})", "FMA({a}, {b}, R(0.1))",
]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = []
        self.depth = 0
        self.tmp = 0

    def const(self):
        return "R(%.3f)" % self.r.uniform(-1.5, 1.5)

    def expr(self, scalars, depth=0):
        """An expression over the scalars in scope, bounded in size."""
        r = self.r
        if depth >= 3 or r.random() < 0.25:
            return r.choice(scalars) if r.random() < 0.85 else self.const()
        if r.random() < 0.45:
            return r.choice(UNARY).format(a=self.expr(scalars, depth + 1))
        return "(" + r.choice(BINARY).format(
            a=self.expr(scalars, depth + 1), b=self.expr(scalars, depth + 1)) + ")"

    def squashed(self, scalars):
        """Values that stay bounded through loops."""
        e = self.expr(scalars)
        return e if self.r.random() < 0.5 else "TANH(%s)" % e

    def emit(self, line):
        self.lines.append("  " * (self.depth + 1) + line)

    def new(self, prefix="t"):
        self.tmp += 1
        return "%s%d" % (prefix, self.tmp)

    # Helpers ---------------------------------------------------------------

    def attrs(self):
        return "__attribute__((noinline)) " if self.r.random() < 0.4 else ""

    def scalar_helper(self, name):
        body = self.expr(["a", "b"])
        return ("static %sreal %s(real a, real b) {\n  return %s;\n}\n"
                % (self.attrs(), name, body))

    def array_helper(self, name):
        e = self.squashed(["v[i]", "s", "v[(i + 1) % n]"])
        return ("static %svoid %s(real *v, int n, real s) {\n"
                "  for (int i = 0; i < n; ++i)\n    v[i] = %s;\n}\n"
                % (self.attrs(), name, e))

    def struct_helper(self, name):
        """Updates a struct pair through its pointer: both reals, k times."""
        fields = ["p->a", "p->b", "s"]
        return ("static %svoid %s(struct pair *p, real s) {\n"
                "  for (int i = 0; i < p->k; ++i) {\n"
                "    real a = %s;\n    p->b = %s;\n    p->a = a;\n  }\n}\n"
                % (self.attrs(), name, self.squashed(fields),
                   self.squashed(fields)))

    # Statements --------------------------------------------------------------

    def statement(self, scalars, arrays, helpers):
        r = self.r
        kind = r.choice(["assign", "assign", "branch", "loop", "while",
                         "array", "call", "call_array", "inplace",
                         "call_struct"])
        if kind == "assign" or (kind.startswith("call") and not helpers):
            v = self.new()
            self.emit("real %s = %s;" % (v, self.squashed(scalars)))
            scalars.append(v)
        elif kind == "branch":
            v = self.new()
            self.emit("real %s;" % v)
            self.emit("if (%s > %s) {" % (r.choice(scalars), self.const()))
            self.depth += 1
            self.emit("%s = %s;" % (v, self.squashed(scalars)))
            self.depth -= 1
            self.emit("} else {")
            self.depth += 1
            self.emit("%s = %s;" % (v, self.squashed(scalars)))
            self.depth -= 1
            self.emit("}")
            scalars.append(v)
        elif kind == "loop":
            v = self.new("acc")
            self.emit("real %s = %s;" % (v, self.const()))
            self.emit("for (int i = 0; i < n; ++i) {")
            self.depth += 1
            # Contractive in the carried value: rounding differences between
            # the modes must not grow from one iteration to the next.
            inner = scalars + ["x[i]"] + ["%s[i]" % a for a in arrays]
            self.emit("%s = R(0.5) * %s + R(0.5) * TANH(%s);"
                      % (v, v, self.expr(inner)))
            self.depth -= 1
            self.emit("}")
            scalars.append(v)
        elif kind == "while":
            # A trip count decided by the data: at most n + 2 iterations.
            v, k = self.new("w"), self.new("k")
            self.emit("real %s = %s;" % (v, self.squashed(scalars)))
            self.emit("int %s = 0;" % k)
            self.emit("while (%s < n + 2 && (%s < 2 || %s > %s)) {"
                      % (k, k, r.choice(scalars), self.const()))
            self.depth += 1
            self.emit("%s = R(0.5) * %s + R(0.5) * TANH(%s);"
                      % (v, v, self.expr(scalars)))
            self.emit("++%s;" % k)
            self.depth -= 1
            self.emit("}")
            scalars.append(v)
        elif kind == "array":
            a = self.new("arr")
            self.emit("real %s[N];" % a)
            self.emit("for (int i = 0; i < n; ++i)")
            self.depth += 1
            self.emit("%s[i] = %s;" % (a, self.squashed(
                scalars + ["x[i]", "x[(i + 1) % n]"] +
                ["%s[i]" % b for b in arrays])))
            self.depth -= 1
            arrays.append(a)
        elif kind == "inplace" and arrays:
            a = r.choice(arrays)
            self.emit("for (int i = 1; i < n; ++i)")
            self.depth += 1
            self.emit("%s[i] = R(0.5) * %s[i - 1] + R(0.5) * TANH(%s);" % (
                a, a, self.expr(scalars + ["%s[i]" % a, "x[i]"])))
            self.depth -= 1
        elif kind == "call":
            h = r.choice([h for h in helpers if h.startswith("hs")] or helpers)
            if h.startswith("hs"):
                v = self.new()
                self.emit("real %s = %s(%s, %s);" % (v, h, self.expr(scalars),
                                                     self.expr(scalars)))
                scalars.append(v)
        elif kind == "call_struct":
            hp = [h for h in helpers if h.startswith("hp")]
            if hp:
                p, v = self.new("p"), self.new()
                self.emit("struct pair %s = {%s, %s, %d};" % (
                    p, self.squashed(scalars), self.squashed(scalars),
                    r.randint(1, 3)))
                self.emit("%s(&%s, %s);" % (r.choice(hp), p,
                                            self.expr(scalars)))
                self.emit("real %s = %s.a * R(0.5) + %s.b;" % (v, p, p))
                scalars.append(v)
        elif kind == "call_array" and arrays:
            ha = [h for h in helpers if h.startswith("ha")]
            if ha:
                self.emit("%s(%s, n, %s);" % (r.choice(ha), r.choice(arrays),
                                              self.expr(scalars)))
        # else: nothing this time

    def program(self, real):
        r = self.r
        helpers, text = [], []
        for k in range(r.randint(0, 3)):
            pick = r.random()
            if pick < 0.4:
                name = "hs%d" % k
                text.append(self.scalar_helper(name))
            elif pick < 0.75:
                name = "ha%d" % k
                text.append(self.array_helper(name))
            else:
                name = "hp%d" % k
                text.append(self.struct_helper(name))
            helpers.append(name)
        scalars = ["x[0]", "x[1]", "x[%d]" % (N - 1)]
        arrays = []
        for _ in range(r.randint(3, 9)):
            self.statement(scalars, arrays, helpers)
        self.emit("for (int i = 0; i < n; ++i)")
        self.depth += 1
        self.emit("out[i] = %s;" % self.squashed(
            scalars[-3:] + ["x[i]"] + ["%s[i]" % a for a in arrays[-2:]]))
        self.depth -= 1
        self.emit("return %s;" % self.expr(scalars[-4:]))
        return HEADER.format(real=real, N=N, suffix="f" if real == "float" else "") + \
            "".join(text) + \
            "real f(const real *x, real *out, int n) {\n" + \
            "\n".join(self.lines) + "\n}\n" + MAIN


HEADER = """\
/* generated by scripts/difftest/gen.py */
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef {real} real;
#define N {N}
#define R(c) ((real)(c))
#define SIN sin{suffix}
#define COS cos{suffix}
#define TANH tanh{suffix}
#define ATAN atan{suffix}
#define ATAN2 atan2{suffix}
#define EXP exp{suffix}
#define EXPM1 expm1{suffix}
#define LOG log{suffix}
#define LOG1P log1p{suffix}
#define SQRT sqrt{suffix}
#define POW pow{suffix}
#define CBRT cbrt{suffix}
#define HYPOT hypot{suffix}
#define ERF erf{suffix}
#define FMA fma{suffix}

struct pair {{
  real a, b;
  int k;
}};

extern int enzyme_dup, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
real __enzyme_fwddiff(void *, ...);
typedef struct {{
  real t0, t1;
}} tangents2;
tangents2 __enzyme_fwddiff_w2(void *, ...);

"""

MAIN = """
static real loss(const real *x, const real *w) {
  real out[N];
  real v = f(x, out, N);
  for (int i = 0; i < N; ++i) v += w[i] * out[i];
  return v;
}

int main(void) {
  real x[N], w[N];
  for (int i = 0; i < N; ++i) {
    /* Not on the generated constants' 3-decimal grid (branch thresholds). */
    x[i] = R(0.3071) + R(0.1713) * (real)i - R(0.5) * (real)(i % 2);
    w[i] = R(1.0) - R(0.3) * (real)i;
  }
  real out[N], dx[N] = {0}, dout[N];
  memcpy(dout, w, sizeof dout);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout,
                    enzyme_const, N);
  /* Width 2: directions j and j + 1 in one run. */
  real w2[N];
  for (int j = 0; j < N; j += 2) {
    real e0[N] = {0}, e1[N] = {0}, t0[N] = {0}, t1[N] = {0};
    e0[j] = 1;
    if (j + 1 < N)
      e1[j + 1] = 1;
    tangents2 t = __enzyme_fwddiff_w2((void *)f, enzyme_width, 2, enzyme_dup,
                                      x, e0, e1, enzyme_dup, out, t0, t1,
                                      enzyme_const, N);
    for (int i = 0; i < N; ++i) {
      t.t0 += w[i] * t0[i];
      t.t1 += w[i] * t1[i];
    }
    w2[j] = t.t0;
    if (j + 1 < N)
      w2[j + 1] = t.t1;
  }
  for (int j = 0; j < N; ++j) {
    real e[N] = {0}, tout[N] = {0};
    e[j] = 1;
    real t = __enzyme_fwddiff((void *)f, enzyme_dup, x, e, enzyme_dup, out,
                              tout, enzyme_const, N);
    for (int i = 0; i < N; ++i) t += w[i] * tout[i];
    double fd[2];
    for (int s = 0; s < 2; ++s) {
      double h = (sizeof(real) == 4 ? 1e-2 : 1e-5) * (s ? 0.1 : 1.0) *
                 (1.0 + fabs((double)x[j]));
      real xp[N], xm[N];
      memcpy(xp, x, sizeof xp);
      memcpy(xm, x, sizeof xm);
      xp[j] = (real)(x[j] + h);
      xm[j] = (real)(x[j] - h);
      fd[s] = ((double)loss(xp, w) - (double)loss(xm, w)) /
              ((double)xp[j] - (double)xm[j]);
    }
    printf("%d %.17g %.17g %.17g %.17g %.17g\\n", j, (double)dx[j],
           (double)t, fd[0], fd[1], (double)w2[j]);
  }
  return 0;
}
"""


def generate(seed):
    real = "float" if seed % 5 == 4 else "double"
    return Gen(seed).program(real)


if __name__ == "__main__":
    sys.stdout.write(generate(int(sys.argv[1])))
