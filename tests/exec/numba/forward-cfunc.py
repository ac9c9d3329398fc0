# Numba -> LLVM IR -> forward mode -> executable.
#
# Compiles a few Numba functions (@cfunc, one calling an @njit helper, one
# over a raw pointer through carray, one writing an output array), dumps
# each module with inspect_llvm(), links them with a C driver
# (Inputs/driver.c) that requests forward derivatives of both the cfunc
# wrappers and the inner functions they call through a stack return
# pointer, differentiates with autodiff-opt, links, runs. This test uses
# Numba's default optimization; forward-cfunc-opt0.py runs this script with
# --numba-opt 0 (NUMBA_OPT=0, whose wrappers keep their error paths into
# the CPython API). The IR is dumped in a child process, since Numba reads
# NUMBA_OPT at import.
#
# The IR is used as Numba wrote it: LLVM 22 reads Numba 0.56's typed-pointer
# text (`double*`, `i8**` become `ptr`; old attributes and intrinsic
# signatures are upgraded), so no rewrite is needed. What the IR references
# but a plain executable lacks (the CPython API and Numba helpers on error
# paths: Py*, numba_*, NRT_MemInfo_call_dtor, and the PyExc_* globals) gets
# abort() stubs from stubs_for(); those paths never run here.
#
# REQUIRES: numba
# RUN: %python-numba %s --clang %clang --autodiff-opt %autodiff-opt --testlib %testlib --inputs %S/Inputs --work %t

import argparse
import os
import re
import subprocess
import sys


def build_functions():
    import numpy as np
    from numba import carray, cfunc, njit, types

    f64 = types.float64
    pf64 = types.CPointer(types.float64)

    @cfunc(f64(f64, f64))
    def mul(a, b):
        return a * b

    @cfunc(f64(f64))
    def sinx(x):
        return np.sin(x) * x

    @njit
    def damp(x):
        return np.exp(-0.5 * x) * np.cos(x)

    @cfunc(f64(f64, f64))
    def model(x, y):
        return damp(x) * y + x * y * y

    @cfunc(f64(pf64, types.intc))
    def sumsq(p, n):
        a = carray(p, (n,))
        s = 0.0
        for i in range(n):
            s += a[i] * a[i]
        return s

    @cfunc(f64(pf64, pf64, types.intc))
    def sinmul(p, q, n):
        a = carray(p, (n,))
        o = carray(q, (n,))
        s = 0.0
        for i in range(n):
            o[i] = np.sin(a[i]) * a[i]
            s += o[i]
        return s

    @cfunc(f64(pf64, types.intc))
    def temps(p, n):
        # Array temporaries allocated through Numba's runtime (NRT).
        a = carray(p, (n,))
        return np.sum(a * a) + np.sum(np.sin(a))

    return {"mul": mul, "sinx": sinx, "model": model, "sumsq": sumsq,
            "sinmul": sinmul, "temps": temps}


def inner_name(ir, wrapper):
    """The function the cfunc wrapper calls through its stack retptr."""
    m = re.search(r'^define [^@]*@"?' + re.escape(wrapper) + r'"?\(.*?^}',
                  ir, re.M | re.S)
    if not m:
        raise SystemExit("wrapper %s not found" % wrapper)
    calls = re.findall(r'call i32 @"?([\w.$]+)"?\(', m.group(0))
    if len(calls) != 1:
        raise SystemExit("expected one inner call in %s, found %r"
                         % (wrapper, calls))
    return calls[0]


def dump(outdir):
    """Writes NAME.ll for each function and names.txt (NAME cfunc inner)."""
    os.makedirs(outdir, exist_ok=True)
    lines = []
    for name, fn in build_functions().items():
        ir = fn.inspect_llvm()
        with open(os.path.join(outdir, name + ".ll"), "w") as f:
            f.write(ir)
        lines.append("%s %s %s" % (name, fn.native_name,
                                   inner_name(ir, fn.native_name)))
    with open(os.path.join(outdir, "names.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


STUB_RE = re.compile(r"^(Py|_Py|numba_|NRT_)")


# Provided for real by Inputs/nrt.c.
NRT_REAL = {"NRT_MemInfo_alloc_safe_aligned", "NRT_incref", "NRT_decref",
            "NRT_MemInfo_call_dtor"}


def stubs_for(ir):
    """C definitions for the CPython/Numba symbols the IR leaves undefined."""
    out = ["#include <stdlib.h>"]
    for m in re.finditer(r'^declare [^@]*@"?([\w.$]+)"?\(', ir, re.M):
        if STUB_RE.match(m.group(1)) and m.group(1) not in NRT_REAL:
            out.append("void %s(void) { abort(); }" % m.group(1))
    for m in re.finditer(r'^@"?([\w.$]+)"? = external global', ir, re.M):
        if STUB_RE.match(m.group(1)):
            out.append("char %s;" % m.group(1))
    return "\n".join(out) + "\n"


def run(cmd, what, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, **kw)
    if r.returncode != 0:
        print("FAILED in %s: %s" % (what, " ".join(cmd)))
        print(r.stdout[:20000])
        return None
    return r.stdout


def check_level(args, label, env_opt):
    work = os.path.join(args.work, label)
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    if env_opt is not None:
        env["NUMBA_OPT"] = env_opt
    else:
        env.pop("NUMBA_OPT", None)
    if run([sys.executable, __file__, "--dump", work], "numba dump",
           env=env) is None:
        return False

    names = [l.split() for l in open(os.path.join(work, "names.txt"))]
    with open(os.path.join(work, "numba_names.h"), "w") as f:
        for name, cf, inner in names:
            f.write('#define %s_CFUNC "%s"\n' % (name.upper(), cf))
            f.write('#define %s_INNER "%s"\n' % (name.upper(), inner))

    tools = os.path.dirname(args.clang)
    llvm_link = os.path.join(tools, "llvm-link")
    opt = os.path.join(tools, "opt")
    # First question: does LLVM 22 read Numba's IR as is?
    for name, _, _ in names:
        if run([opt, "-S", os.path.join(work, name + ".ll"), "-o",
                os.devnull], "LLVM 22 parsing Numba's %s.ll" % name) is None:
            return False

    drv = os.path.join(work, "driver.ll")
    if run([args.clang, "-S", "-emit-llvm", "-O0", "-Xclang",
            "-disable-O0-optnone", "-I" + args.testlib, "-I" + work,
            os.path.join(args.inputs, "driver.c"), "-o", drv],
           "compile driver") is None:
        return False
    linked = os.path.join(work, "linked.ll")
    if run([llvm_link, "-S", drv] +
           [os.path.join(work, n + ".ll") for n, _, _ in names] +
           ["-o", linked], "llvm-link") is None:
        return False
    ad = os.path.join(work, "ad.ll")
    if run([args.autodiff_opt, linked, "-O2", "-o", ad],
           "autodiff-opt") is None:
        return False
    stubs = os.path.join(work, "stubs.c")
    with open(stubs, "w") as f:
        f.write(stubs_for(open(ad).read()))
    exe = os.path.join(work, "driver")
    if run([args.clang, "-Wno-override-module", ad, stubs,
            os.path.join(args.inputs, "nrt.c"), "-o", exe, "-lm"],
           "link") is None:
        return False
    out = run([exe], "run", timeout=60)
    if out is None:
        return False
    print("%s: %s" % (label, out.strip().splitlines()[-1]))
    return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dump")
    p.add_argument("--clang")
    p.add_argument("--autodiff-opt")
    p.add_argument("--testlib")
    p.add_argument("--inputs")
    p.add_argument("--work")
    p.add_argument("--numba-opt", default=None,
                   help="NUMBA_OPT for the dump (default: Numba's own)")
    args = p.parse_args()
    if args.dump:
        dump(args.dump)
        return 0
    label = ("numba-opt%s" % args.numba_opt if args.numba_opt is not None
             else "numba-default")
    if not check_level(args, label, args.numba_opt):
        print("%s: FAILED" % label)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
