#!/usr/bin/env python3
"""Writes a C program with N noinline functions for AD-scale measurements.

Function f_i does a little floating-point work on an array and calls
f_{2i+1} and f_{2i+2} (a binary tree of calls, so one request reaches every
function), `main` asks for one forward derivative of f_0 through
`__enzyme_fwddiff` (with --reverse: one gradient through
`__enzyme_autodiff`), so differentiating the module builds N derivatives
(reverse: N augmented forward sweeps and N reverse sweeps).

usage: gen_module.py N [--reverse] [--out prog.c]
"""
import argparse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int)
    ap.add_argument("--reverse", action="store_true")
    ap.add_argument("--out", default="-")
    args = ap.parse_args()
    n = args.n
    out = []
    w = out.append
    w("#include <math.h>")
    w("extern int enzyme_dup, enzyme_const;")
    w("double __enzyme_fwddiff(void *, ...);")
    w("double __enzyme_autodiff(void *, ...);")
    for i in range(n):
        w(f"double f_{i}(double *x, int m, double a);")
    for i in range(n):
        kids = [k for k in (2 * i + 1, 2 * i + 2) if k < n]
        w(f"__attribute__((noinline)) double f_{i}(double *x, int m, double a) {{")
        w("  double s = a;")
        w(f"  for (int j = 0; j < m; ++j) s += sin(x[j] * {1 + i % 7}.0) * x[(j + {i % 5}) % m];")
        w(f"  s = s * s * {0.5 + (i % 3) * 0.25} + exp(-s * s);")
        w(f"  if (s > {10 + i % 11}.0) s = sqrt(s);")
        for k in kids:
            w(f"  s += 0.5 * f_{k}(x, m, s * 0.01);")
        w("  return s;")
        w("}")
    w("int main(void) {")
    w("  double x[4] = {0.1, 0.2, 0.3, 0.4}, dx[4] = {1, 0, 0, 0};")
    if args.reverse:
        w("  double d = __enzyme_autodiff((void *)f_0, enzyme_dup, x, dx,")
        w("                               enzyme_const, 4, 0.5);")
    else:
        w("  double d = __enzyme_fwddiff((void *)f_0, enzyme_dup, x, dx,")
        w("                              enzyme_const, 4, 0.5, 1.0);")
    w("  return d != d;")
    w("}")
    text = "\n".join(out) + "\n"
    if args.out == "-":
        print(text, end="")
    else:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
