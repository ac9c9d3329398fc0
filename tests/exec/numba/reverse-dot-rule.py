# The seed report "custom rule for an opaque BLAS helper" as a test: a
# Numba cfunc over np.dot lowers to `i32 numba_xxdot(kind, conj, n, x, y,
# out)`, whose status the cfunc checks. The user's rule (Inputs/
# xxdot_rule.c, a shadow after every argument, as the user wrote it) is
# compiled to IR and linked into the module; the reverse gradient must use
# it (Enzyme rejected this with "The required return activity ... was
# CONSTANT"). dot(x, Y) with a global constant Y, and two dots of active
# arrays; checked against Y, finite differences, and the rule's call
# counts; then again without the user's rule, through the core's built-in
# rule for numba_xxdot. numba_xxdot itself comes from
# Inputs/xxdot_provider.c.
#
# REQUIRES: numba
# RUN: %python-numba %s --clang %clang --autodiff-opt %autodiff-opt --testlib %testlib --inputs %S/Inputs --work %t

import argparse
import os
import subprocess
import sys


def dump(outdir):
    import numpy as np
    from numba import carray, cfunc, types

    f64 = types.float64
    pf64 = types.CPointer(types.float64)
    Y = np.array([0.9910996237967787, 0.34132350969940417])

    @cfunc(f64(pf64, types.intc))
    def dot_const(p, n):
        return np.dot(carray(p, (n,)), Y)

    @cfunc(f64(pf64, pf64, types.intc))
    def dot_two(p, q, n):
        x = carray(p, (n,))
        y = carray(q, (n,))
        return np.sin(np.dot(x, y)) * np.dot(x, x)

    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "numba_names.h"), "w") as h:
        for name, fn in (("dot_const", dot_const), ("dot_two", dot_two)):
            with open(os.path.join(outdir, name + ".ll"), "w") as f:
                f.write(fn.inspect_llvm())
            h.write('#define %s_CFUNC "%s"\n' % (name.upper(), fn.native_name))


def run(cmd, what, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, **kw)
    if r.returncode != 0:
        print("FAILED in %s: %s" % (what, " ".join(cmd)))
        print(r.stdout[:20000])
        return None
    return r.stdout


def main():
    p = argparse.ArgumentParser()
    for a in ("--dump", "--clang", "--autodiff-opt", "--testlib", "--inputs",
              "--work"):
        p.add_argument(a)
    args = p.parse_args()
    if args.dump:
        dump(args.dump)
        return 0
    work = args.work
    os.makedirs(work, exist_ok=True)
    if run([sys.executable, __file__, "--dump", work], "numba dump") is None:
        return 1
    for variant in ("user-rule", "builtin-rule"):
        if not check(args, work, variant):
            return 1
    return 0


def check(args, work, variant):
    """Links, differentiates and runs the cfuncs with the user's rule for
    numba_xxdot, or with none (the core's built-in rule)."""
    builtin = variant == "builtin-rule"
    out_dir = os.path.join(work, variant)
    os.makedirs(out_dir, exist_ok=True)
    llvm_link = os.path.join(os.path.dirname(args.clang), "llvm-link")
    sources = [("dot_rule_driver.c", ["-O0", "-Xclang", "-disable-O0-optnone"]
                + (["-DBUILTIN_RULE"] if builtin else []))]
    if not builtin:
        sources.append(("xxdot_rule.c", ["-O2"]))
    irs = []
    for src, flags in sources:
        out = os.path.join(out_dir, src[:-2] + ".ll")
        if run([args.clang, "-S", "-emit-llvm"] + flags +
               ["-I" + args.testlib, "-I" + work,
                os.path.join(args.inputs, src), "-o", out],
               "compile " + src) is None:
            return False
        irs.append(out)
    linked = os.path.join(out_dir, "linked.ll")
    # Both Numba modules define NRT_decref (linkonce_odr).
    if run([llvm_link, "-S"] + irs +
           [os.path.join(work, n + ".ll") for n in ("dot_const", "dot_two")] +
           ["-o", linked], "llvm-link") is None:
        return False
    ad = os.path.join(out_dir, "ad.ll")
    if run([args.autodiff_opt, linked, "-O2", "-o", ad],
           "autodiff-opt") is None:
        return False
    if builtin:
        raw = run([args.autodiff_opt, linked, "--no-postopt", "-S", "-o", "-"],
                  "autodiff-opt --no-postopt")
        if raw is None or "call void @__autodiff_blas_reverse_numba_xxdot" \
                not in raw:
            print("FAILED: the built-in rule for numba_xxdot was not used")
            return False
    stubs = os.path.join(out_dir, "stubs.c")
    with open(stubs, "w") as f:
        f.write("#include <stdlib.h>\n")
        for sym in ("numba_gil_ensure", "numba_gil_release", "Py_FatalError",
                    "PyUnicode_FromString", "PyErr_WriteUnraisable",
                    "Py_DecRef", "PyErr_Clear", "numba_unpickle",
                    "numba_do_raise", "PyErr_SetString",
                    "NRT_MemInfo_call_dtor"):
            if sym in open(ad).read():
                f.write("void %s(void) { abort(); }\n" % sym)
    exe = os.path.join(out_dir, "driver")
    if run([args.clang, "-Wno-override-module", ad, stubs,
            os.path.join(args.inputs, "xxdot_provider.c"), "-o", exe, "-lm"],
           "link") is None:
        return False
    out = run([exe], "run", timeout=60)
    if out is None:
        return False
    print("%s: %s" % (variant, out.strip().splitlines()[-1]))
    return True

if __name__ == "__main__":
    sys.exit(main())
