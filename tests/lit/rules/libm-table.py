# Table-driven check of the emitted tangent code of the libm rules: for
# each entry below a C program calls __enzyme_fwddiff on a one-line
# function using it and compares the tangent with a central finite
# difference of the double-precision function, for the double and the
# float (`f`) variants, with clang-22 at -O0 and -O2 (where many calls
# become intrinsics).
#
# RUN: %python %s --clang %clang --autodiff-opt %autodiff-opt --work %t

import argparse
import os
import subprocess
import sys

# name, arity, sample point(s): inside each function's domain, away from
# kinks. Two-argument functions are differentiated in both arguments.
TABLE = [
    ("sin", 1, (0.7,)), ("cos", 1, (0.7,)), ("tan", 1, (0.4,)),
    ("exp", 1, (0.3,)), ("exp2", 1, (0.3,)), ("log", 1, (1.7,)),
    ("log2", 1, (1.7,)), ("log10", 1, (1.7,)), ("sqrt", 1, (2.3,)),
    ("cbrt", 1, (2.3,)), ("fabs", 1, (-1.3,)), ("asin", 1, (0.3,)),
    ("acos", 1, (0.3,)), ("atan", 1, (0.8,)), ("sinh", 1, (0.8,)),
    ("cosh", 1, (0.8,)), ("tanh", 1, (0.8,)), ("asinh", 1, (0.8,)),
    ("acosh", 1, (1.8,)), ("atanh", 1, (0.4,)), ("expm1", 1, (0.3,)),
    ("log1p", 1, (0.3,)), ("erf", 1, (0.6,)), ("erfc", 1, (0.6,)),
    ("floor", 1, (1.3,)), ("ceil", 1, (1.3,)), ("trunc", 1, (1.3,)),
    ("round", 1, (1.3,)),
    ("pow", 2, (1.3, 2.2)), ("atan2", 2, (0.7, 1.9)), ("hypot", 2, (0.7, 1.9)),
    ("fmin", 2, (0.7, 1.9)), ("fmax", 2, (0.7, 1.9)), ("fmod", 2, (5.3, 1.9)),
    ("copysign", 2, (0.7, -1.9)),
]


def program(real, suffix, tol):
    """One C program: tangents of the `suffix` variants (type `real`)
    against central differences of the double-precision functions."""
    lines = [
        "#include <math.h>",
        "#include <stdio.h>",
        f"{real} __enzyme_fwddiff(void *, ...);",
        "static int failed = 0, passed = 0;",
        "static void check(const char *what, double ad, double fd) {",
        "  double scale = fabs(fd) > 1 ? fabs(fd) : 1;",
        f"  if (!(fabs(ad - fd) <= {tol} * scale)) {{",
        '    printf("FAILED %s: ad %.10g fd %.10g\\n", what, ad, fd);',
        "    failed++;",
        "  } else {",
        "    passed++;",
        "  }",
        "}",
    ]
    body = []
    for name, arity, pts in TABLE:
        fn = name + suffix
        if arity == 1:
            (x,) = pts
            lines.append(f"{real} t_{name}({real} x) {{ return {fn}(x); }}")
            lines.append(f"double r_{name}(double x) {{ return {name}(x); }}")
            body.append(
                f"  check(\"{fn}\", __enzyme_fwddiff((void *)t_{name}, ({real}){x}, ({real})1),"
                f" (r_{name}({x} + 1e-6) - r_{name}({x} - 1e-6)) / 2e-6);")
        else:
            x, y = pts
            lines.append(f"{real} t_{name}({real} x, {real} y) {{ return {fn}(x, y); }}")
            lines.append(f"double r_{name}(double x, double y) {{ return {name}(x, y); }}")
            body.append(
                f"  check(\"{fn} dx\", __enzyme_fwddiff((void *)t_{name}, ({real}){x}, ({real})1, ({real}){y}, ({real})0),"
                f" (r_{name}({x} + 1e-6, {y}) - r_{name}({x} - 1e-6, {y})) / 2e-6);")
            body.append(
                f"  check(\"{fn} dy\", __enzyme_fwddiff((void *)t_{name}, ({real}){x}, ({real})0, ({real}){y}, ({real})1),"
                f" (r_{name}({x}, {y} + 1e-6) - r_{name}({x}, {y} - 1e-6)) / 2e-6);")
    lines.append("int main(void) {")
    lines += body
    lines.append('  printf("%d passed, %d failed\\n", passed, failed);')
    lines.append("  return failed != 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stdout.write(" ".join(cmd) + "\n" + r.stdout + r.stderr)
        sys.exit(1)
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clang", required=True)
    ap.add_argument("--autodiff-opt", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    for real, suffix, tol in (("double", "", "1e-6"), ("float", "f", "1e-5")):
        src = os.path.join(a.work, f"table_{real}.c")
        with open(src, "w") as f:
            f.write(program(real, suffix, tol))
        for level in ("0", "2"):
            base = os.path.join(a.work, f"table_{real}_O{level}")
            flags = ["-Xclang", "-disable-O0-optnone"] if level == "0" else []
            run([a.clang, f"-O{level}", *flags, "-S", "-emit-llvm", src, "-o", base + ".ll"])
            run([a.autodiff_opt, base + ".ll", "-O2", "-o", base + ".out.ll"])
            run([a.clang, base + ".out.ll", "-lm", "-o", base])
            out = run([base])
            sys.stdout.write(f"{real} -O{level}: {out}")


if __name__ == "__main__":
    main()
